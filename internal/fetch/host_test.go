package fetch

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"testing"

	"github.com/s2r-project/s2r/internal/tests/loopback"
)

func TestLiteralAddrs(t *testing.T) {
	tests := []struct {
		host string
		want string // "" when the host is a name for DNS
	}{
		{"127.0.0.1", "127.0.0.1"},
		{"[::1]", "::1"},
		{"::ffff:127.0.0.1", "::ffff:127.0.0.1"},
		{"2130706433", "127.0.0.1"},
		{"0177.0.0.1", "127.0.0.1"},
		{"0x7f000001", "127.0.0.1"},
		{"0X7F.0.0.1", "127.0.0.1"},
		{"0x7f.1", "127.0.0.1"},
		{"127.1", "127.0.0.1"},
		{"127.0.1", "127.0.0.1"},
		{"127.0.0.1.", "127.0.0.1"},
		{"2852039166", "169.254.169.254"},
		{"0251.0376.0251.0376", "169.254.169.254"},
		{"0", "0.0.0.0"},
		{"0x", "0.0.0.0"},
		{"4294967295", "255.255.255.255"},
		{"localhost", "127.0.0.1"},
		{"LocalHost.", "127.0.0.1"},
		{"a.b.localhost", "127.0.0.1"},
		{"4294967296", ""},   // over 32 bits: not an address
		{"256.1.1.1", ""},    // a part over 255
		{"1.2.3.4.5", ""},    // five parts
		{"08.0.0.1", ""},     // 8 is not an octal digit
		{"0xg.0.0.1", ""},    // not hexadecimal
		{"1..1", ""},         // empty part
		{"example.com", ""},  // a name
		{"123.example", ""},  // a name that starts with digits
		{"notlocalhost", ""}, // not under localhost
		{"localhost.example", ""},
		{"+1.2.3.4", ""},
	}
	for _, tt := range tests {
		got, ok := literalAddrs(tt.host)
		switch {
		case tt.want == "" && ok:
			t.Errorf("literalAddrs(%q) = %v, want a name for DNS", tt.host, got)
		case tt.want != "" && (!ok || len(got) != 1 || got[0] != netip.MustParseAddr(tt.want)):
			t.Errorf("literalAddrs(%q) = %v %v, want %s", tt.host, got, ok, tt.want)
		}
	}
}

// failingResolver fails the test when asked: the legacy spellings and
// localhost names must be answered without DNS.
type failingResolver struct{ t *testing.T }

func (f failingResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	f.t.Errorf("DNS was asked for %q", host)
	return nil, errors.New("no DNS in this test")
}

// TestLegacySpellingsRefusedWithoutDNS: every spelling of a refused
// address is refused as that address (blocked_address), whatever DNS
// would say; allowed, the same spelling connects.
func TestLegacySpellingsRefusedWithoutDNS(t *testing.T) {
	l := loopback.Listen(t, nil)
	_, port, _ := net.SplitHostPort(l.Addr().String())
	ctx := context.Background()
	for _, host := range []string{"2130706433", "0177.0.0.1", "0x7f000001", "0x7f.0.0.1", "127.1", "localhost", "localhost.",
		"sec.localhost", "2852039166", "0251.0376.0251.0376"} {
		var fe *Error
		p := Policy{Resolver: failingResolver{t}}
		if _, err := p.DialContext(ctx, "tcp", net.JoinHostPort(host, port)); !errors.As(err, &fe) || fe.Reason != ReasonBlockedAddress {
			t.Errorf("%s: %v, want blocked_address", host, err)
		}
		if host == "2852039166" || host == "0251.0376.0251.0376" {
			continue
		}
		p.AllowedCIDRs = prefixes("127.0.0.0/8")
		c, err := p.DialContext(ctx, "tcp", net.JoinHostPort(host, port))
		if err != nil {
			t.Errorf("%s allowed: %v", host, err)
			continue
		}
		c.Close()
	}
}

// FuzzLegacyIPv4: any host either is no address or one whose canonical
// form reads back as the same address; nothing panics.
func FuzzLegacyIPv4(f *testing.F) {
	for _, s := range []string{"2130706433", "0177.0.0.1", "0x7f000001", "127.1", "1.2.3.4.", "0x", "08", "1..1", "4294967296", "0xffffffff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, host string) {
		ip, ok := LegacyIPv4(host)
		if !ok {
			return
		}
		if !ip.Is4() {
			t.Fatalf("LegacyIPv4(%q) = %v, not IPv4", host, ip)
		}
		if back, ok := LegacyIPv4(ip.String()); !ok || back != ip {
			t.Fatalf("LegacyIPv4(%q) = %v, whose canonical form reads back as %v %v", host, ip, back, ok)
		}
	})
}
