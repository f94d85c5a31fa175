package fetch

import (
	"context"
	"fmt"
	"net/netip"
	"strings"
	"syscall"
	"time"
)

// Defaults applied by New to zero fields of a Policy.
const (
	DefaultMaxBytes     int64 = 10 << 20
	DefaultTimeout            = 30 * time.Second
	DefaultMaxRedirects       = 5
)

// Policy is what a Fetcher may reach and how much it may read.
//
// Address rules, applied at dial time to every resolved IP (IPv4-mapped IPv6
// addresses are unmapped first, zones are ignored):
//
//  1. An address inside a DeniedCIDRs prefix is always refused, even when an
//     AllowedCIDRs prefix also contains it: denied wins.
//  2. An address inside an AllowedCIDRs prefix is accepted, even when it is
//     loopback, link-local, unspecified or otherwise refused by rule 3.
//  3. Loopback (127.0.0.0/8, ::1), link-local (169.254.0.0/16, which holds
//     the cloud metadata address 169.254.169.254, and fe80::/10),
//     unspecified and "this network" (0.0.0.0/8, ::), multicast, broadcast
//     (255.255.255.255), reserved (240.0.0.0/4), IPv4-compatible IPv6
//     (::/96), and NAT64 or 6to4 addresses that embed a refused IPv4 address
//     are refused.
//  4. Everything else is accepted, private ranges (10/8, 172.16/12,
//     192.168/16, fc00::/7) included, because SOAP backends live there.
//
// A host name is refused when ANY of its addresses is refused, so a DNS
// answer that mixes a public and a loopback address cannot be used to probe.
type Policy struct {
	// AllowedCIDRs lifts the built-in refusals (setting outbound_allowed_cidrs).
	AllowedCIDRs []netip.Prefix
	// DeniedCIDRs are always refused (setting outbound_denied_cidrs).
	DeniedCIDRs []netip.Prefix
	// MaxBytes bounds the response body; 0 means DefaultMaxBytes.
	MaxBytes int64
	// Timeout bounds the whole fetch, redirects and body included; 0 means
	// DefaultTimeout.
	Timeout time.Duration
	// MaxRedirects bounds the redirects followed; 0 means
	// DefaultMaxRedirects, a negative value follows none.
	MaxRedirects int
	// Resolver resolves host names; nil means net.DefaultResolver. Tests use
	// it to simulate hostile DNS answers.
	Resolver Resolver
}

// Resolver resolves a host name to IP addresses.
type Resolver interface {
	// LookupNetIP looks up host for network "ip", "ip4" or "ip6".
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

var (
	thisNetwork = netip.MustParsePrefix("0.0.0.0/8")
	reserved4   = netip.MustParsePrefix("240.0.0.0/4")
	broadcast4  = netip.MustParseAddr("255.255.255.255")
	compat6     = netip.MustParsePrefix("::/96")
	nat64       = netip.MustParsePrefix("64:ff9b::/96")
	sixToFour   = netip.MustParsePrefix("2002::/16")
)

// loopback4 and loopback6 are the loopback ranges ForBackends allows.
var (
	loopback4 = netip.MustParsePrefix("127.0.0.0/8")
	loopback6 = netip.MustParsePrefix("::1/128")
)

// ForBackends returns the policy of connections to backend endpoints
// (profile endpoint, health and token URLs): operator configuration
// that the runtime calls, where loopback backends (sidecars) are
// legitimate. It is p with loopback also allowed; everything else stays:
// DeniedCIDRs still win (an admin can refuse 127.0.0.0/8 for backends
// too), and link-local (the cloud metadata address 169.254.169.254),
// unspecified, multicast, broadcast and reserved addresses are refused
// unless AllowedCIDRs lists them: no SOAP backend lives there.
func (p Policy) ForBackends() Policy {
	p.AllowedCIDRs = append(append([]netip.Prefix(nil), p.AllowedCIDRs...), loopback4, loopback6)
	return p
}

// Control is a net.Dialer Control hook that refuses a connection to an
// address the policy does not allow, just before connect: whatever
// resolved the name, and whichever address of it is tried, the socket
// never connects to a refused address. The error is an *Error with
// ReasonBlockedAddress.
func (p Policy) Control(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return newError(ReasonBlockedAddress, "cannot check address before connecting", err)
	}
	return p.CheckAddr(ap.Addr())
}

// CheckAddr reports whether the policy lets the fetcher connect to ip. The
// error is an *Error with ReasonBlockedAddress naming the address and why.
func (p Policy) CheckAddr(ip netip.Addr) error {
	ip = ip.Unmap().WithZone("")
	if !ip.IsValid() {
		return blocked(ip, "invalid address")
	}
	if containsAddr(p.DeniedCIDRs, ip) {
		return blocked(ip, "inside a denied CIDR")
	}
	if containsAddr(p.AllowedCIDRs, ip) {
		return nil
	}
	if why := refusedClass(ip); why != "" {
		return blocked(ip, why)
	}
	if embedded, ok := embeddedIPv4(ip); ok {
		if err := p.CheckAddr(embedded); err != nil {
			return blocked(ip, "embeds a refused IPv4 address")
		}
	}
	return nil
}

// refusedClass names the built-in class that refuses ip, or "".
func refusedClass(ip netip.Addr) string {
	switch {
	case ip.IsLoopback():
		return "loopback"
	case ip.IsLinkLocalUnicast(), ip.IsLinkLocalMulticast():
		return "link-local"
	case ip.IsUnspecified(), thisNetwork.Contains(ip):
		return "unspecified"
	case ip.IsMulticast():
		return "multicast"
	case ip == broadcast4:
		return "broadcast"
	case reserved4.Contains(ip):
		return "reserved"
	case compat6.Contains(ip):
		return "IPv4-compatible IPv6"
	}
	return ""
}

// embeddedIPv4 returns the IPv4 address carried by a NAT64 or 6to4 address.
func embeddedIPv4(ip netip.Addr) (netip.Addr, bool) {
	b := ip.As16()
	switch {
	case nat64.Contains(ip):
		return netip.AddrFrom4([4]byte(b[12:16])), true
	case sixToFour.Contains(ip):
		return netip.AddrFrom4([4]byte(b[2:6])), true
	}
	return netip.Addr{}, false
}

func containsAddr(prefixes []netip.Prefix, ip netip.Addr) bool {
	for _, p := range prefixes {
		if p.Masked().Contains(ip) {
			return true
		}
		if p.Addr().Is4In6() {
			// A prefix written as ::ffff:a.b.c.d/n covers the IPv4 range.
			if q, err := p.Addr().Unmap().Prefix(p.Bits() - 96); err == nil && q.Contains(ip) {
				return true
			}
		}
	}
	return false
}

func blocked(ip netip.Addr, why string) *Error {
	return newError(ReasonBlockedAddress, "address "+ip.String()+" is not allowed ("+why+")", nil)
}

// ParseCIDRs parses a CIDR list as settings hold it (outbound_allowed_cidrs,
// outbound_denied_cidrs): entries such as "10.0.0.0/8" or "fd00::/8", and
// bare addresses, which mean a single host (/32 or /128). Entries are
// trimmed; empty entries are skipped. The error names the bad entry.
func ParseCIDRs(entries []string) ([]netip.Prefix, error) {
	out := make([]netip.Prefix, 0, len(entries))
	for _, e := range entries {
		e = strings.TrimSpace(e)
		if e == "" {
			continue
		}
		if p, err := netip.ParsePrefix(e); err == nil {
			out = append(out, p.Masked())
			continue
		}
		ip, err := netip.ParseAddr(e)
		if err != nil || ip.Zone() != "" {
			return nil, fmt.Errorf("invalid CIDR %q: write an address range such as 10.0.0.0/8 or a single address", e)
		}
		out = append(out, netip.PrefixFrom(ip, ip.BitLen()))
	}
	return out, nil
}
