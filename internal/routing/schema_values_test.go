package routing

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestValueViolations: after a lax conversion only the facets are the
// schema's to report (a null is a value that did not convert, noted by
// the conversion); undeclared members are one violation each, and only
// those no alternative may declare are removable.
func TestValueViolations(t *testing.T) {
	s, err := CompileSchema("mem://v.json", map[string]any{
		"$schema": "https://json-schema.org/draft/2020-12/schema",
		"type":    "object", "additionalProperties": false,
		"required": []any{"state", "n"},
		"properties": map[string]any{
			"state": map[string]any{"type": "string", "enum": []any{"OPEN", "CLOSED"}},
			"n":     map[string]any{"type": "integer", "maximum": 9},
			"alt": map[string]any{"oneOf": []any{
				map[string]any{"type": "object", "additionalProperties": false, "properties": map[string]any{"x": map[string]any{}}},
				map[string]any{"type": "object", "additionalProperties": false, "properties": map[string]any{"y": map[string]any{}}},
			}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := DecodeJSON([]byte(`{"state":"WEIRD","n":10,"p":1,"q":2,"alt":{"x":1,"z":1}}`))
	vs, found := ValueViolations(s, doc)
	want := []Violation{{Pointer: "/n", Reason: "10 > maximum 9"}, {Pointer: "/state", Reason: "value must be one of 'OPEN', 'CLOSED'"}}
	if diff := cmp.Diff(want, vs); diff != "" || found != 2 {
		t.Errorf("value violations (-want +got), found %d:\n%s", found, diff)
	}
	// A null (did not convert) and a missing member are not facets.
	doc, _ = DecodeJSON([]byte(`{"state":null}`))
	if vs, found := ValueViolations(s, doc); len(vs) != 0 || found != 0 {
		t.Errorf("null and missing: %+v (%d)", vs, found)
	}
	doc, _ = DecodeJSON([]byte(`{"state":"OPEN","n":1,"p":1,"q":2,"alt":{"x":1,"z":1}}`))
	all, found := AllSchemaViolations(s, doc)
	var pointers []string
	for _, v := range all {
		pointers = append(pointers, v.Pointer)
	}
	// The oneOf's alternatives each refuse a member of alt: listed, as
	// the whole schema lists them, but not removable.
	if !cmp.Equal(pointers, []string{"/alt/x", "/alt/z", "/p", "/q"}) || found != len(all) || all[2].Reason != `unknown member "p"` {
		t.Errorf("all violations = %+v (%d)", all, found)
	}
	if got := UndeclaredMembers(s, doc); !cmp.Equal(got, []string{"/p", "/q"}) {
		t.Errorf("undeclared members = %v, want /p and /q (not those of the oneOf)", got)
	}
}
