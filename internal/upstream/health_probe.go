package upstream

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	probing "github.com/prometheus-community/pro-bing"

	"github.com/s2r-project/s2r/internal/fetch"
)

// hostPort returns host:port of an endpoint URL, with the scheme's default
// port when none is given.
func hostPort(endpoint string) (string, error) {
	u, err := url.Parse(endpoint)
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("endpoint URL has no host")
	}
	return urlHostPort(u), nil
}

// checkTCP opens and closes a TCP connection to the endpoint's host and
// port, refusing an address policy (when set) does not allow.
func checkTCP(ctx context.Context, policy *fetch.Policy, endpoint string) error {
	addr, err := hostPort(endpoint)
	if err != nil {
		return err
	}
	var d net.Dialer
	if policy != nil {
		// Resolve and check here (legacy IPv4 spellings and localhost
		// names as the addresses they are), then dial the checked
		// address, checked once more just before connect.
		host, port, _ := net.SplitHostPort(addr)
		ip, err := checkedAddr(ctx, *policy, host)
		if err != nil {
			return fmt.Errorf("tcp connect %s: %w", addr, err)
		}
		addr, d.Control = net.JoinHostPort(ip, port), policy.Control
	}
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("tcp connect %s: %w", addr, err)
	}
	return conn.Close()
}

// pingMode remembers which ICMP socket works on this host: 0 untried,
// 1 privileged (raw socket, needs CAP_NET_RAW), 2 unprivileged (UDP ICMP,
// needs net.ipv4.ping_group_range), 3 neither (TCP fallback).
var pingMode atomic.Int32

// checkPing sends one ICMP echo to the endpoint's host. When the process
// may open neither a raw nor an unprivileged ICMP socket, it falls back to
// the tcp check (documented in docs/decisions-gateway.md).
func checkPing(ctx context.Context, policy *fetch.Policy, endpoint string) error {
	u, err := url.Parse(endpoint)
	if err != nil || u.Hostname() == "" {
		return fmt.Errorf("endpoint URL has no host")
	}
	host := u.Hostname()
	if policy != nil {
		// Resolve and check here, then ping the checked address itself.
		if host, err = checkedAddr(ctx, *policy, host); err != nil {
			return fmt.Errorf("ping %s: %w", u.Hostname(), err)
		}
	}
	for {
		switch pingMode.Load() {
		case 0, 1:
			err := ping(ctx, host, true)
			if !isSocketPermission(err) {
				pingMode.Store(1)
				return err
			}
			pingMode.CompareAndSwap(0, 2)
			pingMode.CompareAndSwap(1, 2)
		case 2:
			err := ping(ctx, host, false)
			if !isSocketPermission(err) {
				return err
			}
			pingMode.Store(3)
		default:
			return checkTCP(ctx, policy, endpoint)
		}
	}
}

// checkedAddr resolves host as the fetcher does and returns its first
// address when policy allows every one of them.
func checkedAddr(ctx context.Context, policy fetch.Policy, host string) (string, error) {
	addrs, err := policy.Lookup(ctx, host)
	if err != nil {
		return "", err
	}
	for _, a := range addrs {
		if err := policy.CheckAddr(a); err != nil {
			return "", err
		}
	}
	return addrs[0].Unmap().String(), nil
}

// ping sends one echo request and waits for its reply until ctx ends.
func ping(ctx context.Context, host string, privileged bool) error {
	p, err := probing.NewPinger(host)
	if err != nil {
		return fmt.Errorf("ping %s: %w", host, err)
	}
	p.SetPrivileged(privileged)
	p.Count = 1
	p.Timeout = time.Until(deadline(ctx))
	if err := p.RunWithContext(ctx); err != nil {
		return fmt.Errorf("ping %s: %w", host, err)
	}
	if p.PacketsRecv == 0 {
		return fmt.Errorf("ping %s: no echo reply", host)
	}
	return nil
}

func deadline(ctx context.Context) time.Time {
	if d, ok := ctx.Deadline(); ok {
		return d
	}
	return time.Now().Add(MaxCheckTimeout)
}

// isSocketPermission reports whether err says the ICMP socket may not be
// opened (as opposed to the host not answering).
func isSocketPermission(err error) bool {
	if err == nil {
		return false
	}
	s := err.Error()
	return strings.Contains(s, "operation not permitted") || strings.Contains(s, "permission denied") ||
		strings.Contains(s, "protocol not supported") || strings.Contains(s, "socket: ")
}

// checkWSDL fetches the backend's healthCheckUrl, else its endpoint with
// ?wsdl, through the guarded fetcher, and checks that the targetNamespace
// and the operation names of t are still declared in it (a text search of
// targetNamespace="…" and name="…": the check runs off the request path
// but need not parse a WSDL to say whether they are gone).
func checkWSDL(ctx context.Context, f *fetch.Fetcher, t HealthTarget) error {
	if f == nil {
		return errors.New("wsdl_fetch: no fetcher configured")
	}
	target := t.Backend.Profile.HealthCheckURL
	if target == "" {
		target = wsdlURL(t.Backend.Profile.EndpointURL)
	}
	res, err := f.Get(ctx, target)
	if err != nil {
		return fmt.Errorf("wsdl_fetch: %w", err)
	}
	if t.Namespace != "" && !bytes.Contains(res.Body, []byte(`targetNamespace="`+t.Namespace+`"`)) &&
		!bytes.Contains(res.Body, []byte(`targetNamespace='`+t.Namespace+`'`)) {
		return fmt.Errorf("wsdl_fetch: targetNamespace %q no longer declared", t.Namespace)
	}
	for _, op := range t.Operations {
		if !bytes.Contains(res.Body, []byte(`name="`+op+`"`)) && !bytes.Contains(res.Body, []byte(`name='`+op+`'`)) {
			return fmt.Errorf("wsdl_fetch: operation %q no longer declared", op)
		}
	}
	return nil
}

// wsdlURL appends the wsdl query to an endpoint URL.
func wsdlURL(endpoint string) string {
	u, err := url.Parse(endpoint)
	if err != nil {
		return endpoint + "?wsdl"
	}
	if u.RawQuery == "" {
		u.RawQuery = "wsdl"
	} else {
		u.RawQuery += "&wsdl"
	}
	return u.String()
}
