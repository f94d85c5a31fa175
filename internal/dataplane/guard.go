package dataplane

import (
	"errors"
	"net"
	"net/netip"
	"strings"
)

// Gateway guards (SPEC 4.3 rules 2 and 4, DESIGN 6.9). Both are pure
// functions of the request's peer address, its X-Forwarded-For values and
// the configured prefixes, so the gateway can refuse before a byte of the
// body is read.

// Errors of the ingress guard, for logs (the answer is S2R-GW-0403).
var (
	errUntrustedPeer = errors.New("X-Forwarded-For from a peer that is not a trusted proxy")
	errBadForwarded  = errors.New("malformed X-Forwarded-For entry")
	errBadPeer       = errors.New("unparsable peer address")
)

// maxForwardedHops bounds the X-Forwarded-For entries examined.
const maxForwardedHops = 32

// ClientAddr is the ingress guard. It returns the attributed client
// address of a request whose immediate peer is remoteAddr ("ip:port") and
// whose X-Forwarded-For header values are xff, given the trusted proxies:
//
//   - no X-Forwarded-For: the peer itself, trusted or not;
//   - an X-Forwarded-For from a peer that is not a trusted proxy: refused
//     (a client cannot choose its own attributed address);
//   - from a trusted proxy: the rightmost entry that is not a trusted
//     proxy, walking the chain right to left (every hop left of a trusted
//     one was added by it); when every entry is a trusted proxy, the
//     leftmost one.
//
// Any malformed entry in the part of the chain examined is refused, and so
// is a chain longer than 32 hops. Entries may carry a port ("ip:port",
// "[v6]:port"); IPv4-mapped IPv6 addresses are unmapped.
func ClientAddr(remoteAddr string, xff []string, trusted []netip.Prefix) (netip.Addr, error) {
	peer, err := parseHost(remoteAddr)
	if err != nil {
		return netip.Addr{}, errBadPeer
	}
	if len(xff) == 0 {
		return peer, nil
	}
	if !inAny(peer, trusted) {
		return netip.Addr{}, errUntrustedPeer
	}
	var hops []string
	for _, v := range xff {
		for h := range strings.SplitSeq(v, ",") {
			hops = append(hops, strings.TrimSpace(h))
			if len(hops) > maxForwardedHops {
				return netip.Addr{}, errBadForwarded
			}
		}
	}
	client := peer
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := parseHost(hops[i])
		if err != nil {
			return netip.Addr{}, errBadForwarded
		}
		client = a
		if !inAny(a, trusted) {
			return a, nil
		}
	}
	return client, nil
}

// Granted is the consumer IP grant guard: addr must fall in one of the
// service's grant prefixes. No grant grants nobody (deny by default,
// docs/decisions-gateway.md).
func Granted(addr netip.Addr, grants []netip.Prefix) bool {
	return addr.IsValid() && inAny(addr, grants)
}

func inAny(a netip.Addr, prefixes []netip.Prefix) bool {
	for _, p := range prefixes {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// parseHost parses "ip", "ip:port" or "[ipv6]:port" and drops any zone.
func parseHost(s string) (netip.Addr, error) {
	s = strings.TrimSpace(s)
	if a, err := netip.ParseAddr(strings.Trim(s, "[]")); err == nil {
		return a.Unmap().WithZone(""), nil
	}
	host, _, err := net.SplitHostPort(s)
	if err != nil {
		return netip.Addr{}, err
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}, err
	}
	return a.Unmap().WithZone(""), nil
}
