package fetch

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"strings"
	"syscall"
)

// guardedDialer resolves host names itself, checks every candidate address
// against the policy, and dials only checked IP literals. The dialer's
// Control hook checks the socket address once more just before connect, so
// no path (DNS rebinding between lookup and dial included) reaches a refused
// address.
type guardedDialer struct {
	policy   Policy
	resolver Resolver
	dialer   net.Dialer
}

func newGuardedDialer(p Policy) *guardedDialer {
	g := &guardedDialer{policy: p, resolver: p.Resolver}
	if g.resolver == nil {
		g.resolver = net.DefaultResolver
	}
	g.dialer.Control = g.control
	return g
}

// DialContext is the http.Transport hook. The dial (name resolution
// included) is bounded by the policy's timeout on its own: net/http
// finishes a dial in the background even when the request that started
// it is gone, so a resolver that never answers would hold the dialling
// goroutine forever.
func (g *guardedDialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	timeout := g.policy.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, newError(ReasonBadURL, "invalid host and port", err)
	}
	ips, err := g.resolve(ctx, host)
	if err != nil {
		return nil, err
	}
	var lastErr error
	for _, ip := range ips {
		conn, err := g.dialer.DialContext(ctx, network, net.JoinHostPort(ip.String(), port))
		if err == nil {
			return conn, nil
		}
		var fe *Error
		if errors.As(err, &fe) {
			return nil, fe
		}
		if ctx.Err() != nil {
			return nil, ctx.Err() // reported as timeout or canceled
		}
		lastErr = err
	}
	return nil, newError(ReasonConnect, "cannot connect to "+host, lastErr)
}

// resolve returns the addresses of host after checking every one of them.
func (g *guardedDialer) resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	if ip, err := netip.ParseAddr(host); err == nil {
		if err := g.policy.CheckAddr(ip); err != nil {
			return nil, err
		}
		return []netip.Addr{ip.Unmap()}, nil
	}
	ips, err := lookup(ctx, g.resolver, host)
	if err != nil {
		return nil, err
	}
	for i, ip := range ips {
		if err := g.policy.CheckAddr(ip); err != nil {
			fe := err.(*Error)
			fe.Msg = "host " + host + " resolves to " + strings.TrimPrefix(fe.Msg, "address ")
			return nil, fe
		}
		ips[i] = ip.Unmap().WithZone("")
	}
	return ips, nil
}

// lookup resolves host: literalAddrs first (IP literals, legacy IPv4
// spellings, localhost names, without DNS), else resolver. The slice is
// the caller's.
func lookup(ctx context.Context, resolver Resolver, host string) ([]netip.Addr, error) {
	if ips, ok := literalAddrs(host); ok {
		return ips, nil
	}
	ips, err := resolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, newError(ReasonDNS, "cannot resolve host "+host, err)
	}
	if len(ips) == 0 {
		return nil, newError(ReasonDNS, "host "+host+" has no addresses", nil)
	}
	return append([]netip.Addr(nil), ips...), nil // the resolver's slice is not ours to change
}

// Lookup resolves host as the fetcher and DialContext do, without
// checking the addresses: IP literals, the legacy IPv4 spellings
// (2130706433, 0177.0.0.1, 0x7f000001, 127.1) and localhost names
// (RFC 6761) are answered without DNS, anything else by the policy's
// resolver. Diagnostics that report what a host resolves to use it so
// they show what a fetch would reach.
func (p Policy) Lookup(ctx context.Context, host string) ([]netip.Addr, error) {
	r := p.Resolver
	if r == nil {
		r = net.DefaultResolver
	}
	return lookup(ctx, r, host)
}

// control runs after the socket is created and before it connects.
func (g *guardedDialer) control(network, address string, c syscall.RawConn) error {
	return g.policy.Control(network, address, c)
}

// DialContext connects to addr ("host:port") over TCP as the fetcher
// does: the host is resolved here, every address is checked against the
// policy, and the socket address is checked again just before connect.
// Other outbound connections a user can aim (the SMTP relay of alert mail)
// use it so they cannot reach what a fetch may not. A refusal is an *Error
// with ReasonBlockedAddress. network must be tcp, tcp4 or tcp6.
func (p Policy) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	switch network {
	case "tcp", "tcp4", "tcp6":
	default:
		return nil, newError(ReasonBadURL, "network "+network+" is not allowed", nil)
	}
	return newGuardedDialer(p).DialContext(ctx, network, addr)
}
