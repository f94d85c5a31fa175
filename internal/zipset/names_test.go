package zipset

import "testing"

func FuzzCleanName(f *testing.F) {
	for _, s := range []string{"a/b.xsd", "../x", `a\..\b`, "C:/x", "./a//b/", "a:b", "\x00", "ü/ß.xsd"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		clean, err := cleanName(name)
		if err != nil {
			return
		}
		again, err := cleanName(clean)
		if err != nil || again != clean {
			t.Fatalf("cleanName(%q) = %q is not a fixed point (%q, %v)", name, clean, again, err)
		}
		for _, seg := range []string{"..", "."} {
			if clean == seg || len(clean) > 0 && (clean[0] == '/' || clean[len(clean)-1] == '/') {
				t.Fatalf("cleanName(%q) = %q", name, clean)
			}
		}
	})
}
