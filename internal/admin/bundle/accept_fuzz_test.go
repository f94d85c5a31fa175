package bundle

import (
	"strings"
	"testing"
)

// FuzzWantsYAML: any Accept header is answered without a panic, and only
// a header that names a YAML type asks for YAML.
func FuzzWantsYAML(f *testing.F) {
	for _, s := range []string{"", "application/yaml", "application/json, application/yaml", "text/yaml;q=0.9, */*",
		"application/x-yaml; charset=utf-8", ";;,,=", "application/json;q=\"1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, accept string) {
		if wantsYAML(accept) && !strings.Contains(strings.ToLower(accept), "yaml") {
			t.Fatalf("YAML for %q", accept)
		}
	})
}
