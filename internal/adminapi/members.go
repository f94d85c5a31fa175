package adminapi

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
)

// Handlers of partial updates decode the body as a map of members
// (map[string]jsontext.Value) so that every member is checked by name;
// these read one member, naming it in the 400 of a wrong value.

// StringMember reads member field as a string.
func StringMember(field string, v jsontext.Value) (string, error) {
	var s string
	if v.Kind() != '"' || json.Unmarshal(v, &s) != nil {
		return "", FieldError(field, "must be a string")
	}
	return s, nil
}

// IntMember reads member field as an integer in [lo, hi].
func IntMember(field string, v jsontext.Value, lo, hi int) (int, error) {
	var n int
	if v.Kind() != '0' || json.Unmarshal(v, &n) != nil || n < lo || n > hi {
		return 0, FieldError(field, "must be an integer between "+strconv.Itoa(lo)+" and "+strconv.Itoa(hi))
	}
	return n, nil
}

// NullableInt reads member field as null (nil) or an integer in [lo, hi].
func NullableInt(field string, v jsontext.Value, lo, hi int) (*int, error) {
	if v.Kind() == 'n' {
		return nil, nil
	}
	n, err := IntMember(field, v, lo, hi)
	if err != nil {
		return nil, err
	}
	return &n, nil
}

// SortedNames returns the member names of m in order.
func SortedNames(m map[string]jsontext.Value) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

// CredentialChange is a requested change of one write-only credential
// member: set to Value, or cleared when Clear (the member was null).
type CredentialChange struct {
	Value string
	Clear bool
}
