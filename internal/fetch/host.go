package fetch

import (
	"net/netip"
	"strconv"
	"strings"
)

// literalAddrs returns the addresses a host name means without asking
// DNS, and whether it has such a meaning:
//
//   - an IP literal (IPv6 with or without brackets and zone);
//   - an IPv4 address in one of the legacy spellings that browsers (the
//     WHATWG URL standard), curl and inet_aton accept: decimal
//     (2130706433), octal (0177.0.0.1), hexadecimal (0x7f000001,
//     0x7f.0.0.1) or with fewer than four parts (127.1), a trailing dot
//     allowed. Whether such a host reaches an address must not depend on
//     which resolver happens to run, so it is read as the address it
//     spells and checked like one;
//   - "localhost" and every name under it (RFC 6761 section 6.3: they
//     resolve to loopback and must not be sent to DNS), a trailing dot
//     allowed: 127.0.0.1, so an allow list of 127.0.0.0/8 covers them.
func literalAddrs(host string) ([]netip.Addr, bool) {
	h := strings.TrimSuffix(strings.Trim(host, "[]"), ".")
	if ip, err := netip.ParseAddr(h); err == nil {
		return []netip.Addr{ip}, true
	}
	if ip, ok := LegacyIPv4(h); ok {
		return []netip.Addr{ip}, true
	}
	lower := strings.ToLower(h)
	if lower == "localhost" || strings.HasSuffix(lower, ".localhost") {
		return []netip.Addr{netip.AddrFrom4([4]byte{127, 0, 0, 1})}, true
	}
	return nil, false
}

// LegacyIPv4 parses the WHATWG IPv4 host forms (browsers, curl and
// inet_aton read them too): one to four dot-separated parts, each decimal,
// octal (leading 0) or hexadecimal (0x), the last filling the remaining
// bytes; a trailing dot is allowed. 2130706433, 0177.0.0.1, 0x7f000001
// and 127.1 are all 127.0.0.1. It reports false for anything else.
func LegacyIPv4(h string) (netip.Addr, bool) {
	h = strings.TrimSuffix(h, ".")
	parts := strings.Split(h, ".")
	if len(parts) == 0 || len(parts) > 4 {
		return netip.Addr{}, false
	}
	var v uint64
	for i, p := range parts {
		n, ok := ipv4Part(p)
		if !ok {
			return netip.Addr{}, false
		}
		if i < len(parts)-1 {
			if n > 255 {
				return netip.Addr{}, false
			}
			v = v<<8 | n
			continue
		}
		rest := uint(8 * (4 - i)) // bits the last part fills
		if n >= 1<<rest {
			return netip.Addr{}, false
		}
		v = v<<rest | n
	}
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}

// ipv4Part parses one part of a legacy IPv4 host.
func ipv4Part(p string) (uint64, bool) {
	base := 10
	switch {
	case p == "":
		return 0, false
	case len(p) > 2 && (p[:2] == "0x" || p[:2] == "0X"):
		p, base = p[2:], 16
	case p == "0x" || p == "0X":
		return 0, true
	case len(p) > 1 && p[0] == '0':
		p, base = p[1:], 8
	}
	if len(p) > 32 || strings.ContainsAny(p, "+-_") {
		return 0, false
	}
	n, err := strconv.ParseUint(p, base, 64)
	if err != nil || n > 0xffffffff {
		return 0, false
	}
	return n, true
}
