package transform

import (
	"encoding/json"
	"errors"
	"sync"
	"testing"
)

type applyCase struct {
	name    string
	rules   []Rule
	in      string
	want    string
	wantErr string
}

func runApplyCases(t *testing.T, cases []applyCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			prog, err := Compile(tc.rules)
			if err != nil {
				t.Fatalf("Compile: %v", err)
			}
			got, err := prog.Apply([]byte(tc.in))
			if tc.wantErr != "" {
				if err == nil {
					t.Fatalf("Apply = %s, want error %q", got, tc.wantErr)
				}
				if err.Error() != tc.wantErr {
					t.Errorf("error = %q\nwant    %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			if string(got) != tc.want {
				t.Errorf("Apply =\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func rule(kind Kind, field string, kv ...any) Rule {
	r := Rule{Kind: kind, Field: field}
	if len(kv) > 0 {
		r.Params = map[string]any{}
		for i := 0; i+1 < len(kv); i += 2 {
			r.Params[kv[i].(string)] = kv[i+1]
		}
	}
	return r
}

func TestApplyStringCase(t *testing.T) {
	runApplyCases(t, []applyCase{
		{name: "trim", rules: []Rule{rule(KindTrim, "/name")},
			in: `{"name":"  Ada \t\n","id":1}`, want: `{"name":"Ada","id":1}`},
		{name: "trim unicode space", rules: []Rule{rule(KindTrim, "/name")},
			in: `{"name":"\u00a0Ada\u2003"}`, want: `{"name":"Ada"}`},
		{name: "uppercase", rules: []Rule{rule(KindUppercase, "/c")}, in: `{"c":"straße éa"}`, want: `{"c":"STRAßE ÉA"}`},
		{name: "lowercase", rules: []Rule{rule(KindLowercase, "/c")}, in: `{"c":"ÀBC"}`, want: `{"c":"àbc"}`},
		{name: "nested", rules: []Rule{rule(KindUppercase, "/a/b/c")}, in: `{"a":{"b":{"c":"x"}}}`, want: `{"a":{"b":{"c":"X"}}}`},
		{name: "wildcard", rules: []Rule{rule(KindTrim, "/items/*/sku")},
			in:   `{"items":[{"sku":" a "},{"sku":" b"},{"other":1},{"sku":null}]}`,
			want: `{"items":[{"sku":"a"},{"sku":"b"},{"other":1},{"sku":null}]}`},
		{name: "trailing wildcard", rules: []Rule{rule(KindUppercase, "/tags/*")}, in: `{"tags":["a","b"]}`, want: `{"tags":["A","B"]}`},
		{name: "index", rules: []Rule{rule(KindUppercase, "/tags/1")}, in: `{"tags":["a","b"]}`, want: `{"tags":["a","B"]}`},
		{name: "index out of range", rules: []Rule{rule(KindUppercase, "/tags/5")}, in: `{"tags":["a"]}`, want: `{"tags":["a"]}`},
		{name: "numeric member name", rules: []Rule{rule(KindUppercase, "/m/0")}, in: `{"m":{"0":"x"}}`, want: `{"m":{"0":"X"}}`},
		{name: "escaped segment", rules: []Rule{rule(KindUppercase, "/a~1b/c~0d")}, in: `{"a/b":{"c~d":"x"}}`, want: `{"a/b":{"c~d":"X"}}`},
		{name: "absent", rules: []Rule{rule(KindTrim, "/missing/deeper")}, in: `{"a":1}`, want: `{"a":1}`},
		{name: "null", rules: []Rule{rule(KindTrim, "/a")}, in: `{"a":null}`, want: `{"a":null}`},
		{name: "wildcard on object reaches nothing", rules: []Rule{rule(KindTrim, "/a/*")}, in: `{"a":{"x":" y "}}`, want: `{"a":{"x":" y "}}`},
		{name: "number", rules: []Rule{rule(KindTrim, "/n")}, in: `{"n":12}`,
			wantErr: `transform rule 0 (trim) at "/n": trim applies to strings, found number`},
		{name: "array without wildcard", rules: []Rule{rule(KindUppercase, "/tags")}, in: `{"tags":["a"]}`,
			wantErr: `transform rule 0 (uppercase) at "/tags": uppercase applies to strings, found array (end the field with "/*" to apply it to each element)`},
		{name: "wildcard error names the element", rules: []Rule{rule(KindLowercase, "/items/*/sku")}, in: `{"items":[{"sku":"A"},{"sku":true}]}`,
			wantErr: `transform rule 0 (lowercase) at "/items/1/sku": lowercase applies to strings, found boolean`},
	})
}

func TestApplyDefaultAndRename(t *testing.T) {
	runApplyCases(t, []applyCase{
		{name: "default absent", rules: []Rule{rule(KindDefaultValue, "/channel", "value", "web")},
			in: `{"id":1}`, want: `{"id":1,"channel":"web"}`},
		{name: "default null keeps position", rules: []Rule{rule(KindDefaultValue, "/channel", "value", "web")},
			in: `{"channel":null,"id":1}`, want: `{"channel":"web","id":1}`},
		{name: "default present", rules: []Rule{rule(KindDefaultValue, "/channel", "value", "web")},
			in: `{"channel":""}`, want: `{"channel":""}`},
		{name: "default number exact", rules: []Rule{rule(KindDefaultValue, "/n", "value", json.Number("12345678901234567890.000000001"))},
			in: `{}`, want: `{"n":12345678901234567890.000000001}`},
		{name: "default object", rules: []Rule{rule(KindDefaultValue, "/o", "value", map[string]any{"b": 1.5, "a": []any{true}})},
			in: `{}`, want: `{"o":{"a":[true],"b":1.5}}`},
		{name: "default in each element", rules: []Rule{rule(KindDefaultValue, "/items/*/qty", "value", 1.0)},
			in: `{"items":[{"sku":"a"},{"qty":5},"x"]}`, want: `{"items":[{"sku":"a","qty":1},{"qty":5},"x"]}`},
		{name: "default without parent", rules: []Rule{rule(KindDefaultValue, "/a/b", "value", 1.0)},
			in: `{}`, want: `{}`},
		{name: "default copies are independent", rules: []Rule{
			rule(KindDefaultValue, "/items/*/tags", "value", []any{"x"}), rule(KindUppercase, "/items/0/tags/0")},
			in: `{"items":[{},{}]}`, want: `{"items":[{"tags":["X"]},{"tags":["x"]}]}`},
		{name: "rename keeps position", rules: []Rule{rule(KindRename, "/b", "to", "beta")},
			in: `{"a":1,"b":2,"c":3}`, want: `{"a":1,"beta":2,"c":3}`},
		{name: "rename nested wildcard", rules: []Rule{rule(KindRename, "/items/*/sku", "to", "code")},
			in: `{"items":[{"sku":"a"},{"x":1}]}`, want: `{"items":[{"code":"a"},{"x":1}]}`},
		{name: "rename absent", rules: []Rule{rule(KindRename, "/zz", "to", "y")}, in: `{"a":1}`, want: `{"a":1}`},
		{name: "rename null", rules: []Rule{rule(KindRename, "/a", "to", "b")}, in: `{"a":null}`, want: `{"b":null}`},
		{name: "rename collision", rules: []Rule{rule(KindRename, "/items/*/a", "to", "b")}, in: `{"items":[{"a":1},{"a":1,"b":2}]}`,
			wantErr: `transform rule 0 (rename) at "/items/1/a": cannot rename to "b": the object already has a member of that name`},
		{name: "rules run in order", rules: []Rule{
			rule(KindRename, "/n", "to", "name"), rule(KindTrim, "/name"), rule(KindUppercase, "/name")},
			in: `{"n":" ada "}`, want: `{"name":"ADA"}`},
	})
}

func TestApplySplitJoin(t *testing.T) {
	runApplyCases(t, []applyCase{
		{name: "split", rules: []Rule{rule(KindSplit, "/tags", "separator", ",")}, in: `{"tags":"a,b,,c"}`, want: `{"tags":["a","b","","c"]}`},
		{name: "split empty", rules: []Rule{rule(KindSplit, "/tags", "separator", ",")}, in: `{"tags":""}`, want: `{"tags":[]}`},
		{name: "split limit", rules: []Rule{rule(KindSplit, "/p", "separator", "/", "limit", 2.0)}, in: `{"p":"a/b/c"}`, want: `{"p":["a","b/c"]}`},
		{name: "split limit 1", rules: []Rule{rule(KindSplit, "/p", "separator", "/", "limit", json.Number("1"))}, in: `{"p":"a/b"}`, want: `{"p":["a/b"]}`},
		{name: "split multi-char", rules: []Rule{rule(KindSplit, "/p", "separator", " | ")}, in: `{"p":"x | y"}`, want: `{"p":["x","y"]}`},
		{name: "split then trim each", rules: []Rule{rule(KindSplit, "/p", "separator", ","), rule(KindTrim, "/p/*")},
			in: `{"p":" a , b "}`, want: `{"p":["a","b"]}`},
		{name: "split number", rules: []Rule{rule(KindSplit, "/p", "separator", ",")}, in: `{"p":1}`,
			wantErr: `transform rule 0 (split) at "/p": split applies to strings, found number`},
		{name: "join", rules: []Rule{rule(KindJoin, "/tags", "separator", ";")}, in: `{"tags":["a","b"]}`, want: `{"tags":"a;b"}`},
		{name: "join empty separator", rules: []Rule{rule(KindJoin, "/tags", "separator", "")}, in: `{"tags":["a","b"]}`, want: `{"tags":"ab"}`},
		{name: "join empty array", rules: []Rule{rule(KindJoin, "/tags", "separator", ",")}, in: `{"tags":[]}`, want: `{"tags":""}`},
		{name: "join null", rules: []Rule{rule(KindJoin, "/tags", "separator", ",")}, in: `{"tags":null}`, want: `{"tags":null}`},
		{name: "join nested wildcard", rules: []Rule{rule(KindJoin, "/rows/*/cells", "separator", "|")},
			in: `{"rows":[{"cells":["1","2"]},{"cells":["3"]}]}`, want: `{"rows":[{"cells":"1|2"},{"cells":"3"}]}`},
		{name: "join non-string element", rules: []Rule{rule(KindJoin, "/tags", "separator", ",")}, in: `{"tags":["a",2]}`,
			wantErr: `transform rule 0 (join) at "/tags/1": join needs an array of strings, found number`},
		{name: "join string", rules: []Rule{rule(KindJoin, "/tags", "separator", ",")}, in: `{"tags":"a"}`,
			wantErr: `transform rule 0 (join) at "/tags": join applies to arrays of strings, found string`},
	})
}

func TestApplyDateFormat(t *testing.T) {
	df := func(field, from, to string) []Rule {
		return []Rule{rule(KindDateFormat, field, "from", from, "to", to)}
	}
	runApplyCases(t, []applyCase{
		{name: "german to iso", rules: df("/d", "dd.MM.yyyy", "yyyy-MM-dd"), in: `{"d":"24.12.2024"}`, want: `{"d":"2024-12-24"}`},
		{name: "with time", rules: df("/d", "dd.MM.yyyy HH:mm", "yyyy-MM-dd'T'HH:mm:ss"), in: `{"d":"01.02.2025 07:05"}`, want: `{"d":"2025-02-01T07:05:00"}`},
		{name: "each element", rules: df("/items/*/at", "yyyyMMdd", "dd/MM/yyyy"),
			in: `{"items":[{"at":"20240229"},{"at":null},{}]}`, want: `{"items":[{"at":"29/02/2024"},{"at":null},{}]}`},
		{name: "no match", rules: df("/items/*/at", "yyyy-MM-dd", "dd.MM.yyyy"), in: `{"items":[{"at":"2024-01-02"},{"at":"2024-13-01"}]}`,
			wantErr: `transform rule 0 (date_format) at "/items/1/at": value "2024-13-01" does not match the pattern "yyyy-MM-dd": month 13 out of range`},
		{name: "wrong shape", rules: df("/d", "yyyy-MM-dd", "dd.MM.yyyy"), in: `{"d":"24.12.2024"}`,
			wantErr: `transform rule 0 (date_format) at "/d": value "24.12.2024" does not match the pattern "yyyy-MM-dd": expected 4 digits for the year`},
		{name: "missing separator", rules: df("/d", "yyyy-MM-dd", "dd.MM.yyyy"), in: `{"d":"2024/12/24"}`,
			wantErr: `transform rule 0 (date_format) at "/d": value "2024/12/24" does not match the pattern "yyyy-MM-dd": expected "-"`},
		{name: "not a string", rules: df("/d", "yyyy-MM-dd", "dd.MM.yyyy"), in: `{"d":20240101}`,
			wantErr: `transform rule 0 (date_format) at "/d": date_format applies to strings, found number`},
	})
}

func TestApplyKeepsDocument(t *testing.T) {
	runApplyCases(t, []applyCase{
		{name: "numbers exact and order kept", rules: []Rule{rule(KindTrim, "/s")},
			in:   `{ "z": 1.10, "big": 123456789012345678901234567890, "e": -1.5E+300, "s": " x ", "a": [1, {"k": 0.1}], "t": true, "f": false, "n": null }`,
			want: `{"z":1.10,"big":123456789012345678901234567890,"e":-1.5E+300,"s":"x","a":[1, {"k": 0.1}],"t":true,"f":false,"n":null}`},
		{name: "changed parts compact, untouched kept", rules: []Rule{rule(KindUppercase, "/a/*/k")},
			in:   "{\n  \"a\" : [ {\"k\" : \"x\", \"o\" : { \"p\" : [ 1 , 2 ] } } ] ,\n \"b\" : { \"c\" : \"\\u0041\" }\n}\n",
			want: `{"a":[{"k":"X","o":{ "p" : [ 1 , 2 ] }}],"b":{ "c" : "\u0041" }}`},
		{name: "escaped names", rules: []Rule{rule(KindUppercase, "/a\"b"), rule(KindRename, "/é", "to", "e")},
			in: `{"a\"b":"x","\u00e9":1}`, want: `{"a\"b":"X","e":1}`},
		{name: "escapes", rules: []Rule{rule(KindTrim, "/s")}, in: `{"s":" \"q\" \\ \u0001 </x> ☃ "}`, want: `{"s":"\"q\" \\ \u0001 </x> ☃"}`},
		{name: "brackets and quotes inside strings", rules: []Rule{rule(KindUppercase, "/b/0/c"), rule(KindTrim, "/e")},
			in:   `{"a":"}]\"{[,","b":[{"c":"x\\\"}]"}],"d":[1,"]",{"x":"}"}],"e":" y "}`,
			want: `{"a":"}]\"{[,","b":[{"c":"X\\\"}]"}],"d":[1,"]",{"x":"}"}],"e":"y"}`},
		{name: "root array", rules: []Rule{rule(KindUppercase, "/0/a")}, in: `[{"a":"x"}]`, want: `[{"a":"X"}]`},
		{name: "root scalar", rules: []Rule{rule(KindUppercase, "/a")}, in: `"x"`, want: `"x"`},
	})
}

func TestApplyInvalidJSON(t *testing.T) {
	prog, err := Compile([]Rule{rule(KindTrim, "/a")})
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{``, `{`, `{"a":1}x`, `{"a":1,"a":2}`, "{\"a\":\"\xff\"}", `{"a":01}`, `[1,]`, `{} {}`} {
		_, err := prog.Apply([]byte(in))
		if !errors.Is(err, ErrInvalidJSON) {
			t.Errorf("Apply(%q) error = %v, want ErrInvalidJSON", in, err)
		}
	}
}

func TestApplyWithoutRules(t *testing.T) {
	prog, err := Compile(nil)
	if err != nil {
		t.Fatal(err)
	}
	in := []byte(`{ "a" : 1 }`)
	got, err := prog.Apply(in)
	if err != nil || string(got) != string(in) {
		t.Errorf("Apply = %s, %v; want the input unchanged", got, err)
	}
}

func TestApplyConcurrent(t *testing.T) {
	prog, err := Compile(benchRules)
	if err != nil {
		t.Fatal(err)
	}
	doc := benchDoc(t)
	want, err := prog.Apply(doc)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 20 {
				got, err := prog.Apply(doc)
				if err != nil || string(got) != string(want) {
					t.Errorf("concurrent Apply differs: %v", err)
					return
				}
			}
		})
	}
	wg.Wait()
}
