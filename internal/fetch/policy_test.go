package fetch

import (
	"net/netip"
	"testing"
)

func prefixes(s ...string) []netip.Prefix {
	out := make([]netip.Prefix, len(s))
	for i, p := range s {
		out[i] = netip.MustParsePrefix(p)
	}
	return out
}

func TestCheckAddr(t *testing.T) {
	tests := []struct {
		name    string
		policy  Policy
		addr    string
		wantErr string
	}{
		{name: "public v4", addr: "93.184.216.34"},
		{name: "public v6", addr: "2606:2800:220:1:248:1893:25c8:1946"},
		{name: "private 10", addr: "10.1.2.3"},
		{name: "private 172.16", addr: "172.20.0.5"},
		{name: "private 192.168", addr: "192.168.1.1"},
		{name: "unique local v6", addr: "fd00::1"},
		{name: "cgnat", addr: "100.64.0.1"},
		{name: "mapped private", addr: "::ffff:10.0.0.1"},
		{name: "loopback", addr: "127.0.0.1", wantErr: "fetch: address 127.0.0.1 is not allowed (loopback)"},
		{name: "loopback range", addr: "127.8.9.10", wantErr: "fetch: address 127.8.9.10 is not allowed (loopback)"},
		{name: "loopback v6", addr: "::1", wantErr: "fetch: address ::1 is not allowed (loopback)"},
		{name: "mapped loopback", addr: "::ffff:127.0.0.1", wantErr: "fetch: address 127.0.0.1 is not allowed (loopback)"},
		{name: "metadata", addr: "169.254.169.254", wantErr: "fetch: address 169.254.169.254 is not allowed (link-local)"},
		{name: "mapped metadata", addr: "::ffff:169.254.169.254", wantErr: "fetch: address 169.254.169.254 is not allowed (link-local)"},
		{name: "link-local v6", addr: "fe80::1", wantErr: "fetch: address fe80::1 is not allowed (link-local)"},
		{name: "link-local v6 zone", addr: "fe80::1%eth0", wantErr: "fetch: address fe80::1 is not allowed (link-local)"},
		{name: "unspecified v4", addr: "0.0.0.0", wantErr: "fetch: address 0.0.0.0 is not allowed (unspecified)"},
		{name: "this network", addr: "0.1.2.3", wantErr: "fetch: address 0.1.2.3 is not allowed (unspecified)"},
		{name: "unspecified v6", addr: "::", wantErr: "fetch: address :: is not allowed (unspecified)"},
		{name: "multicast v4", addr: "239.1.2.3", wantErr: "fetch: address 239.1.2.3 is not allowed (multicast)"},
		{name: "link-local multicast", addr: "224.0.0.251", wantErr: "fetch: address 224.0.0.251 is not allowed (link-local)"},
		{name: "multicast v6", addr: "ff05::2", wantErr: "fetch: address ff05::2 is not allowed (multicast)"},
		{name: "broadcast", addr: "255.255.255.255", wantErr: "fetch: address 255.255.255.255 is not allowed (broadcast)"},
		{name: "reserved", addr: "240.0.0.1", wantErr: "fetch: address 240.0.0.1 is not allowed (reserved)"},
		{name: "ipv4 compatible", addr: "::7f00:1", wantErr: "fetch: address ::7f00:1 is not allowed (IPv4-compatible IPv6)"},
		{name: "nat64 loopback", addr: "64:ff9b::7f00:1", wantErr: "fetch: address 64:ff9b::7f00:1 is not allowed (embeds a refused IPv4 address)"},
		{name: "nat64 public", addr: "64:ff9b::5db8:d822"},
		{name: "6to4 metadata", addr: "2002:a9fe:a9fe::1", wantErr: "fetch: address 2002:a9fe:a9fe::1 is not allowed (embeds a refused IPv4 address)"},
		{name: "allowed loopback", policy: Policy{AllowedCIDRs: prefixes("127.0.0.1/32")}, addr: "127.0.0.1"},
		{name: "allowed loopback mapped", policy: Policy{AllowedCIDRs: prefixes("127.0.0.1/32")}, addr: "::ffff:127.0.0.1"},
		{name: "allow written mapped", policy: Policy{AllowedCIDRs: prefixes("::ffff:127.0.0.0/104")}, addr: "127.0.0.1"},
		{name: "allowed other loopback", policy: Policy{AllowedCIDRs: prefixes("127.0.0.1/32")}, addr: "127.0.0.2", wantErr: "fetch: address 127.0.0.2 is not allowed (loopback)"},
		{name: "allowed v6 loopback", policy: Policy{AllowedCIDRs: prefixes("::1/128")}, addr: "::1"},
		{name: "denied private", policy: Policy{DeniedCIDRs: prefixes("10.0.0.0/8")}, addr: "10.1.2.3", wantErr: "fetch: address 10.1.2.3 is not allowed (inside a denied CIDR)"},
		{name: "denied mapped", policy: Policy{DeniedCIDRs: prefixes("10.0.0.0/8")}, addr: "::ffff:10.1.2.3", wantErr: "fetch: address 10.1.2.3 is not allowed (inside a denied CIDR)"},
		{name: "denied unmasked prefix", policy: Policy{DeniedCIDRs: prefixes("192.168.1.77/24")}, addr: "192.168.1.5", wantErr: "fetch: address 192.168.1.5 is not allowed (inside a denied CIDR)"},
		{name: "denied wins over allowed", policy: Policy{AllowedCIDRs: prefixes("127.0.0.0/8"), DeniedCIDRs: prefixes("127.0.0.1/32")}, addr: "127.0.0.1", wantErr: "fetch: address 127.0.0.1 is not allowed (inside a denied CIDR)"},
		{name: "denied public", policy: Policy{DeniedCIDRs: prefixes("93.184.216.0/24")}, addr: "93.184.216.34", wantErr: "fetch: address 93.184.216.34 is not allowed (inside a denied CIDR)"},
		{name: "invalid", addr: "", wantErr: "fetch: address invalid IP is not allowed (invalid address)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ip netip.Addr
			if tt.addr != "" {
				ip = netip.MustParseAddr(tt.addr)
			}
			err := tt.policy.CheckAddr(ip)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("CheckAddr(%s) = %v, want nil", tt.addr, err)
				}
				return
			}
			if err == nil {
				t.Fatalf("CheckAddr(%s) = nil, want %q", tt.addr, tt.wantErr)
			}
			if got := err.Error(); got != tt.wantErr {
				t.Errorf("CheckAddr(%s) = %q, want %q", tt.addr, got, tt.wantErr)
			}
			if r := ReasonOf(err); r != ReasonBlockedAddress {
				t.Errorf("reason = %q, want %q", r, ReasonBlockedAddress)
			}
		})
	}
}

func TestControlRefusesBeforeConnect(t *testing.T) {
	g := newGuardedDialer(Policy{})
	for _, addr := range []string{"169.254.169.254:80", "127.0.0.1:8080", "[::1]:443", "[::ffff:127.0.0.1]:80"} {
		if err := g.control("tcp", addr, nil); ReasonOf(err) != ReasonBlockedAddress {
			t.Errorf("control(%s) = %v, want blocked_address", addr, err)
		}
	}
	if err := g.control("tcp", "10.0.0.1:80", nil); err != nil {
		t.Errorf("control(10.0.0.1:80) = %v, want nil", err)
	}
}

func TestParseCIDRs(t *testing.T) {
	got, err := ParseCIDRs([]string{" 10.0.0.0/8", "", "192.168.1.77/24", "127.0.0.1", "::1", "fd00::/8 "})
	if err != nil {
		t.Fatal(err)
	}
	want := prefixes("10.0.0.0/8", "192.168.1.0/24", "127.0.0.1/32", "::1/128", "fd00::/8")
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("entry %d = %v, want %v", i, got[i], want[i])
		}
	}
	for _, bad := range []string{"10.0.0.0/33", "example.com", "fe80::1%eth0", "10.0.0.0/8/8"} {
		_, err := ParseCIDRs([]string{"10.0.0.0/8", bad})
		want := `invalid CIDR "` + bad + `": write an address range such as 10.0.0.0/8 or a single address`
		if err == nil || err.Error() != want {
			t.Errorf("ParseCIDRs(%q) error = %v, want %s", bad, err, want)
		}
	}
}

var (
	alwaysRefused = prefixes("127.0.0.0/8", "169.254.0.0/16", "0.0.0.0/8", "224.0.0.0/4", "240.0.0.0/4",
		"::1/128", "::/128", "fe80::/10", "ff00::/8")
	privateRanges = prefixes("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7")
)

// FuzzCheckAddr checks the default policy over arbitrary 16-byte addresses:
// refused classes stay refused in every spelling (plain, IPv4-mapped), and
// private ranges stay allowed.
func FuzzCheckAddr(f *testing.F) {
	for _, s := range []string{"127.0.0.1", "::ffff:169.254.169.254", "10.1.2.3", "fe80::1", "2002:7f00:1::", "8.8.8.8", "fd12::1"} {
		b := netip.MustParseAddr(s).As16()
		f.Add(b[:])
	}
	var def Policy
	f.Fuzz(func(t *testing.T, raw []byte) {
		var b [16]byte
		copy(b[:], raw)
		ip := netip.AddrFrom16(b)
		err := def.CheckAddr(ip)
		if err != nil && ReasonOf(err) != ReasonBlockedAddress {
			t.Fatalf("CheckAddr(%v) = %v without reason blocked_address", ip, err)
		}
		plain := ip.Unmap()
		if (def.CheckAddr(plain) == nil) != (err == nil) {
			t.Fatalf("CheckAddr(%v) and CheckAddr(%v) disagree", ip, plain)
		}
		if containsAddr(alwaysRefused, plain) && err == nil {
			t.Fatalf("CheckAddr(%v) allowed a refused address", ip)
		}
		if containsAddr(privateRanges, plain) && err != nil {
			t.Fatalf("CheckAddr(%v) refused a private address: %v", ip, err)
		}
		allow := Policy{AllowedCIDRs: []netip.Prefix{netip.PrefixFrom(plain, plain.BitLen())}}
		if allow.CheckAddr(ip) != nil {
			t.Fatalf("CheckAddr(%v) refused an address its allow list names", ip)
		}
		deny := Policy{AllowedCIDRs: allow.AllowedCIDRs, DeniedCIDRs: allow.AllowedCIDRs}
		if deny.CheckAddr(ip) == nil {
			t.Fatalf("CheckAddr(%v) allowed an address its deny list names", ip)
		}
	})
}

// TestForBackends: the backend policy allows loopback on top of the
// fetch policy, and nothing else: link-local (metadata), unspecified and
// multicast stay refused, denied CIDRs still win, allowed CIDRs still lift.
func TestForBackends(t *testing.T) {
	tests := []struct {
		policy Policy
		addr   string
		ok     bool
	}{
		{Policy{}, "127.0.0.1", true},
		{Policy{}, "127.9.9.9", true},
		{Policy{}, "::1", true},
		{Policy{}, "::ffff:127.0.0.1", true},
		{Policy{}, "10.1.2.3", true},
		{Policy{}, "169.254.169.254", false},
		{Policy{}, "fe80::1", false},
		{Policy{}, "0.0.0.0", false},
		{Policy{}, "::", false},
		{Policy{}, "224.0.0.1", false},
		{Policy{DeniedCIDRs: prefixes("127.0.0.0/8")}, "127.0.0.1", false},
		{Policy{DeniedCIDRs: prefixes("10.0.0.0/8")}, "10.1.2.3", false},
		{Policy{AllowedCIDRs: prefixes("169.254.169.254/32")}, "169.254.169.254", true},
	}
	for _, tt := range tests {
		err := tt.policy.ForBackends().CheckAddr(netip.MustParseAddr(tt.addr))
		if (err == nil) != tt.ok {
			t.Errorf("%+v ForBackends().CheckAddr(%s) = %v, want ok=%v", tt.policy, tt.addr, err, tt.ok)
		}
	}
	// The receiver's allow list is not changed.
	p := Policy{AllowedCIDRs: make([]netip.Prefix, 0, 8)}
	p.ForBackends()
	if len(p.AllowedCIDRs) != 0 {
		t.Error("ForBackends changed the receiver's AllowedCIDRs")
	}
}
