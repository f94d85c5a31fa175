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

// DialContext is the http.Transport hook.
func (g *guardedDialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
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
	ips, err := g.resolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, newError(ReasonDNS, "cannot resolve host "+host, err)
	}
	if len(ips) == 0 {
		return nil, newError(ReasonDNS, "host "+host+" has no addresses", nil)
	}
	ips = append([]netip.Addr(nil), ips...) // the resolver's slice is not ours to change
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

// control runs after the socket is created and before it connects.
func (g *guardedDialer) control(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return newError(ReasonBlockedAddress, "cannot check address before connecting", err)
	}
	return g.policy.CheckAddr(ap.Addr())
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
