package bundle

import (
	"encoding/json"
	"reflect"
	"slices"
)

// changedFields lists, sorted, the JSON members of want and have (bundle
// values of the same type) that differ, skipping the members in skip. An
// absent member, null, an empty array and an empty object are the same.
func changedFields(want, have any, skip ...string) []string {
	w, _ := canonical(want).(map[string]any)
	h, _ := canonical(have).(map[string]any)
	var out []string
	for k := range w {
		if !slices.Contains(skip, k) && !reflect.DeepEqual(w[k], h[k]) {
			out = append(out, k)
		}
	}
	for k := range h {
		if _, ok := w[k]; !ok && !slices.Contains(skip, k) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// same reports whether a and b encode to the same canonical JSON.
func same(a, b any) bool { return reflect.DeepEqual(canonical(a), canonical(b)) }

// canonical is v's JSON encoding read back as a generic value without
// nulls, empty arrays or empty objects.
func canonical(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return nil
	}
	return prune(out)
}

// prune drops nulls and empty containers from v.
func prune(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, c := range t {
			if c = prune(c); c == nil {
				delete(t, k)
			} else {
				t[k] = c
			}
		}
		if len(t) == 0 {
			return nil
		}
	case []any:
		for i := range t {
			t[i] = prune(t[i])
		}
		if len(t) == 0 {
			return nil
		}
	}
	return v
}
