package policies

import (
	"net/netip"
	"testing"
)

// FuzzGrantCIDR: an accepted grant entry is stored in a canonical form
// that parses back to itself.
func FuzzGrantCIDR(f *testing.F) {
	for _, s := range []string{"10.0.0.0/8", "192.0.2.7", "2001:db8::/32", "::ffff:10.0.0.1", "10.1.2.3/8", "fe80::1%eth0", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, err := normalizeCIDRs([]string{in})
		if err != nil {
			return
		}
		p, err := netip.ParsePrefix(out[0])
		if err != nil || p.String() != out[0] || p.Masked() != p {
			t.Fatalf("%q stored as %q, which does not parse back canonically", in, out[0])
		}
	})
}
