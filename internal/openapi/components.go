package openapi

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// componentNameOK is the OpenAPI rule for component names.
var componentNameOK = regexp.MustCompile(`^[a-zA-Z0-9._-]+$`)

// hoistDefinitions moves the contract definitions (doc["x-s2r-contract"],
// referenced as contractPrefix+name) into components/schemas. A name that
// is a valid component name and free keeps it; others are sanitized and
// numbered in sorted order, so the result is stable. Names of the S2R
// components are never taken.
func hoistDefinitions(doc map[string]any) {
	defs, _ := doc["x-s2r-contract"].(map[string]any)
	delete(doc, "x-s2r-contract")
	comps := doc["components"].(map[string]any)
	schemas := comps["schemas"].(map[string]any)
	names := make([]string, 0, len(defs))
	for name := range defs {
		names = append(names, name)
	}
	sort.Strings(names)
	taken := map[string]bool{}
	for name := range schemas {
		taken[name] = true
	}
	rename := map[string]string{}
	for _, name := range names {
		if componentNameOK.MatchString(name) && !taken[name] {
			rename[name] = name
			taken[name] = true
		}
	}
	for _, name := range names {
		if _, done := rename[name]; done {
			continue
		}
		base := sanitize(name)
		cand := base
		for i := 2; taken[cand]; i++ {
			cand = base + "_" + strconv.Itoa(i)
		}
		rename[name] = cand
		taken[cand] = true
	}
	for name, s := range defs {
		schemas[rename[name]] = s
	}
	rewriteRefs(doc, rename)
}

// sanitize maps a definition name to the component name alphabet.
func sanitize(name string) string {
	var b strings.Builder
	for _, r := range name {
		if r < 0x80 && componentNameOK.MatchString(string(r)) {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "Type"
	}
	return b.String()
}

// rewriteRefs walks v and points every contract "$ref" at its component.
// Schema trees hold maps, []any and []map[string]any; other slices ([]string
// of required names or enumerations) hold no references.
func rewriteRefs(v any, rename map[string]string) {
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			if s, ok := val.(string); ok && k == "$ref" && strings.HasPrefix(s, contractPrefix) {
				x[k] = refPrefix + rename[strings.TrimPrefix(s, contractPrefix)]
				continue
			}
			rewriteRefs(val, rename)
		}
	case []any:
		for _, val := range x {
			rewriteRefs(val, rename)
		}
	case []map[string]any:
		for _, val := range x {
			rewriteRefs(val, rename)
		}
	}
}
