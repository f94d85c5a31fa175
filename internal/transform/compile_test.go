package transform

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCompileErrors(t *testing.T) {
	tests := []struct {
		name  string
		rules []Rule
		want  string
	}{
		{"unknown kind", []Rule{rule(KindTrim, "/a"), rule("capitalize", "/b")},
			`transform rule 1 (capitalize on "/b"): unknown kind "capitalize"; known kinds: trim, uppercase, lowercase, default_value, rename, split, join, date_format`},
		{"missing kind", []Rule{rule("", "/b")},
			`transform rule 0 ( on "/b"): kind is missing; known kinds: trim, uppercase, lowercase, default_value, rename, split, join, date_format`},
		{"empty field", []Rule{rule(KindTrim, "")},
			`transform rule 0 (trim on ""): field is empty; write a JSON Pointer such as /order/id`},
		{"dotted field", []Rule{rule(KindTrim, "order.id")},
			`transform rule 0 (trim on "order.id"): field must be a JSON Pointer starting with "/", such as /order/id`},
		{"empty segment", []Rule{rule(KindTrim, "/a//b")},
			`transform rule 0 (trim on "/a//b"): field has an empty segment`},
		{"root", []Rule{rule(KindTrim, "/")},
			`transform rule 0 (trim on "/"): field has an empty segment`},
		{"bad escape", []Rule{rule(KindTrim, "/a~2")},
			`transform rule 0 (trim on "/a~2"): field has a "~" not followed by 0 or 1`},
		{"param on trim", []Rule{rule(KindTrim, "/a", "chars", " ")},
			`transform rule 0 (trim on "/a"): unknown parameter "chars"; this kind takes no parameters`},
		{"typo param", []Rule{rule(KindSplit, "/a", "seperator", ",")},
			`transform rule 0 (split on "/a"): unknown parameter "seperator"; allowed: separator, limit`},
		{"default missing value", []Rule{rule(KindDefaultValue, "/a")},
			`transform rule 0 (default_value on "/a"): missing parameter "value"`},
		{"default null value", []Rule{rule(KindDefaultValue, "/a", "value", nil)},
			`transform rule 0 (default_value on "/a"): parameter "value" must not be null`},
		{"default wildcard", []Rule{rule(KindDefaultValue, "/a/*", "value", 1.0)},
			`transform rule 0 (default_value on "/a/*"): the field must end with a member name, not "*"`},
		{"default unmarshalable", []Rule{rule(KindDefaultValue, "/a", "value", make(chan int))},
			`transform rule 0 (default_value on "/a"): parameter "value" is not JSON: json: unsupported type: chan int`},
		{"rename missing to", []Rule{rule(KindRename, "/a")},
			`transform rule 0 (rename on "/a"): missing parameter "to"`},
		{"rename to number", []Rule{rule(KindRename, "/a", "to", 3.0)},
			`transform rule 0 (rename on "/a"): parameter "to" must be a string, found number`},
		{"rename to empty", []Rule{rule(KindRename, "/a", "to", "")},
			`transform rule 0 (rename on "/a"): parameter "to" must not be empty`},
		{"rename to self", []Rule{rule(KindRename, "/x/a", "to", "a")},
			`transform rule 0 (rename on "/x/a"): parameter "to" is the field's own name`},
		{"rename wildcard", []Rule{rule(KindRename, "/a/*", "to", "b")},
			`transform rule 0 (rename on "/a/*"): the field must end with a member name, not "*"`},
		{"split no separator", []Rule{rule(KindSplit, "/a")},
			`transform rule 0 (split on "/a"): missing parameter "separator"`},
		{"split empty separator", []Rule{rule(KindSplit, "/a", "separator", "")},
			`transform rule 0 (split on "/a"): parameter "separator" must not be empty`},
		{"split zero limit", []Rule{rule(KindSplit, "/a", "separator", ",", "limit", 0.0)},
			`transform rule 0 (split on "/a"): parameter "limit" must be at least 1`},
		{"split fractional limit", []Rule{rule(KindSplit, "/a", "separator", ",", "limit", 1.5)},
			`transform rule 0 (split on "/a"): parameter "limit" must be an integer`},
		{"split string limit", []Rule{rule(KindSplit, "/a", "separator", ",", "limit", "2")},
			`transform rule 0 (split on "/a"): parameter "limit" must be an integer`},
		{"join no separator", []Rule{rule(KindJoin, "/a")},
			`transform rule 0 (join on "/a"): missing parameter "separator"`},
		{"join bool separator", []Rule{rule(KindJoin, "/a", "separator", true)},
			`transform rule 0 (join on "/a"): parameter "separator" must be a string, found boolean`},
		{"date missing to", []Rule{rule(KindDateFormat, "/d", "from", "yyyy")},
			`transform rule 0 (date_format on "/d"): missing parameter "to"`},
		{"date bad from", []Rule{rule(KindDateFormat, "/d", "from", "yyyy-MM-ddTHH:mm", "to", "yyyy")},
			`transform rule 0 (date_format on "/d"): parameter "from": unknown pattern letter 'T' (quote literal text, e.g. 'T')`},
		{"date bad to", []Rule{rule(KindDateFormat, "/d", "from", "yyyy", "to", "YYYY")},
			`transform rule 0 (date_format on "/d"): parameter "to": unknown pattern letter 'Y' (quote literal text, e.g. 'T')`},
		{"go layout is refused", []Rule{rule(KindDateFormat, "/d", "from", "2006-01-02", "to", "yyyy")},
			`transform rule 0 (date_format on "/d"): parameter "from": date pattern has no date or time field`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Compile(tt.rules)
			if err == nil {
				t.Fatalf("Compile succeeded, want %q", tt.want)
			}
			if err.Error() != tt.want {
				t.Errorf("error = %q\nwant    %q", err, tt.want)
			}
			var re *RuleError
			if !errors.As(err, &re) {
				t.Fatalf("error is %T, want *RuleError", err)
			}
		})
	}
}

// TestRuleErrorDetails checks the fields the admin API puts in details.
func TestRuleErrorDetails(t *testing.T) {
	_, err := Compile([]Rule{rule(KindTrim, "/a"), rule(KindJoin, "/tags/*")})
	var re *RuleError
	if !errors.As(err, &re) {
		t.Fatalf("error = %v", err)
	}
	got, _ := json.Marshal(re)
	want := `{"index":1,"field":"/tags/*","reason":"missing parameter \"separator\"","kind":"join"}`
	if string(got) != want {
		t.Errorf("details = %s, want %s", got, want)
	}
}

// TestRulesFromJSON decodes rules the way the admin API will, so numbers
// arrive as float64 or json.Number.
func TestRulesFromJSON(t *testing.T) {
	src := `[{"kind":"split","field":"/p","params":{"separator":",","limit":2}},
	         {"kind":"default_value","field":"/n","params":{"value":100000000000000000001}}]`
	var rules []Rule
	if err := json.Unmarshal([]byte(src), &rules); err != nil {
		t.Fatal(err)
	}
	want := []Rule{
		{Kind: KindSplit, Field: "/p", Params: map[string]any{"separator": ",", "limit": 2.0}},
		{Kind: KindDefaultValue, Field: "/n", Params: map[string]any{"value": 1e20}},
	}
	if diff := cmp.Diff(want, rules); diff != "" {
		t.Fatalf("decoded rules (-want +got):\n%s", diff)
	}
	prog, err := Compile(rules)
	if err != nil {
		t.Fatal(err)
	}
	got, err := prog.Apply([]byte(`{"p":"a,b,c"}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"p":["a","b,c"],"n":100000000000000000000}`; string(got) != want {
		t.Errorf("Apply = %s, want %s", got, want)
	}
	if prog.Len() != 2 {
		t.Errorf("Len = %d", prog.Len())
	}
}
