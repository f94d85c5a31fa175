package access

import (
	"net/http"
	"slices"
	"strings"
	"testing"
)

// FuzzIdentityFromHeader checks that any header values give either no
// identity or a normalized one: trimmed lower-case e-mail, groups trimmed,
// non-empty, comma-free and unique.
func FuzzIdentityFromHeader(f *testing.F) {
	f.Add("a@example.com", "g1,g2")
	f.Add("  A@Example.COM ", " , ,x,x")
	f.Add("", "admins")
	f.Add("\t", "\x00,\xff")
	f.Fuzz(func(t *testing.T, email, groups string) {
		h := http.Header{}
		h.Set(HeaderEmail, email)
		h.Set(HeaderGroups, groups)
		id, ok := IdentityFromHeader(h)
		if !ok {
			if strings.TrimSpace(email) != "" {
				t.Fatalf("identity refused for %q", email)
			}
			return
		}
		if id.Email != strings.ToLower(strings.TrimSpace(email)) || id.Email == "" {
			t.Fatalf("email %q from %q", id.Email, email)
		}
		for i, g := range id.Groups {
			if g == "" || g != strings.TrimSpace(g) || strings.Contains(g, ",") || slices.Contains(id.Groups[:i], g) {
				t.Fatalf("bad group %q in %q", g, id.Groups)
			}
		}
	})
}
