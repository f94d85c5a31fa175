package onboarding

import "testing"

func TestRelativePath(t *testing.T) {
	for _, tc := range []struct{ dir, target, want string }{
		{".", "external/h/a.xsd", "external/h/a.xsd"},
		{"types", "external/h/a.xsd", "../external/h/a.xsd"},
		{"external/h/x", "external/h/a.xsd", "../a.xsd"},
		{"external/h", "external/h/a.xsd", "a.xsd"},
	} {
		if got := relativePath(tc.dir, tc.target); got != tc.want {
			t.Errorf("relativePath(%q, %q) = %q, want %q", tc.dir, tc.target, got, tc.want)
		}
	}
}
