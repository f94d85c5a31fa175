package transform

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

// fuzzRules exercises every kind over paths that fuzzed documents can hit.
var fuzzRules = []Rule{
	rule(KindTrim, "/a"),
	rule(KindUppercase, "/items/*/name"),
	rule(KindLowercase, "/b/0"),
	rule(KindDefaultValue, "/items/*/qty", "value", 1.0),
	rule(KindRename, "/c", "to", "cc"),
	rule(KindSplit, "/s", "separator", ",", "limit", 3.0),
	rule(KindJoin, "/j", "separator", "|"),
	rule(KindDateFormat, "/d", "from", "yyyy-MM-dd", "to", "dd.MM.yyyy"),
}

func FuzzApply(f *testing.F) {
	for _, s := range []string{
		`{"a":" x ","items":[{"name":"n"},{}],"b":["Q"],"c":1,"s":"1,2,3,4","j":["x","y"],"d":"2024-01-02"}`,
		`{"items":[null,1,"x",[]],"s":"","j":[],"d":null}`,
		`{"j":[1]}`, `{"d":"2024-02-30"}`, `[1,2]`, `"x"`, `{"a":1e999}`, `{"cc":1,"c":2}`,
	} {
		f.Add([]byte(s))
	}
	prog, err := Compile(fuzzRules)
	if err != nil {
		f.Fatal(err)
	}
	noop, err := Compile([]Rule{rule(KindTrim, "/no/such/member")})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		out, err := prog.Apply(doc)
		var ae *ApplyError
		switch {
		case errors.Is(err, ErrInvalidJSON):
			return
		case errors.As(err, &ae):
			if ae.Field == "" || ae.Reason == "" {
				t.Fatalf("incomplete error %#v", ae)
			}
			return
		case err != nil:
			t.Fatalf("unexpected error type %T: %v", err, err)
		}
		again, err := noop.Apply(out)
		if err != nil {
			t.Fatalf("output %q is not valid JSON: %v", out, err)
		}
		if string(again) != string(out) {
			t.Fatalf("re-encoding changed the output:\n%s\n%s", out, again)
		}
		same, err := noop.Apply(doc)
		if err != nil {
			t.Fatalf("noop failed on a document the program accepted: %v", err)
		}
		if !reflect.DeepEqual(decodeAny(t, doc), decodeAny(t, same)) {
			t.Fatalf("a rule that matches nothing changed the document:\n%s\n%s", doc, same)
		}
	})
}

// decodeAny decodes with encoding/json, numbers as json.Number.
func decodeAny(t *testing.T, b []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("encoding/json cannot decode %q: %v", b, err)
	}
	return v
}

func FuzzDatePattern(f *testing.F) {
	f.Add("yyyy-MM-dd'T'HH:mm:ss.SSSXXX", "2024-03-04T05:06:07.089+05:30")
	f.Add("dd MMM yy hh:mm a", "07 Sep 24 12:00 pm")
	f.Add("EEEE d.M.yyyy X", "Saturday 7.9.2024 +01")
	f.Add("'''x''' Z", "'x' -0130")
	f.Fuzz(func(t *testing.T, pattern, value string) {
		p, err := compileDatePattern(pattern)
		if err != nil {
			return
		}
		tm, err := p.parse(value)
		if err != nil {
			return
		}
		s := p.format(tm)
		if _, err := p.parse(s); err != nil {
			t.Fatalf("pattern %q: parse(%q) ok, but its formatting %q does not parse: %v", pattern, value, s, err)
		}
	})
}
