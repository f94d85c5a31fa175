package upstream

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"net"
	"net/http"
	"strconv"
	"syscall"
	"time"

	"github.com/s2r-project/s2r/internal/fetch"
)

// cachedTransport is the transport of one profile at one update time.
type cachedTransport struct {
	version string
	rt      *backendTransport
}

// backendTransport is the RoundTripper of one backend profile: requests
// with a small in-memory body (publish envelopes, consume's JSON, small
// gateway bodies) take the direct HTTP/1.1 client, the rest (streamed
// bodies, 100-continue, upgrades) net/http's Transport. Both keep their own
// keep-alive connections with the profile's timing and TLS settings.
type backendTransport struct {
	h1  *h1Client
	std *http.Transport
}

// RoundTrip implements http.RoundTripper.
func (t *backendTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.h1.accepts(req) {
		return t.h1.RoundTrip(req)
	}
	return t.std.RoundTrip(req)
}

// CloseIdleConnections closes the idle connections of both clients.
func (t *backendTransport) CloseIdleConnections() {
	t.h1.closeIdle()
	t.std.CloseIdleConnections()
}

// transport returns the cached transport of b's profile, building a new
// one (and closing the idle connections of the old) when the profile was
// updated since.
func (c *Client) transport(b Backend) (*backendTransport, error) {
	p := b.Profile
	version := strconv.FormatInt(p.UpdatedAt.UnixNano(), 10)
	c.mu.Lock()
	defer c.mu.Unlock()
	if t, ok := c.transports[p.ProfileID]; ok && p.ProfileID != "" {
		if t.version == version {
			return t.rt, nil
		}
		t.rt.CloseIdleConnections()
		delete(c.transports, p.ProfileID)
	}
	rt, err := newTransport(b, c.control)
	if err != nil {
		return nil, err
	}
	if p.ProfileID != "" {
		c.transports[p.ProfileID] = &cachedTransport{version: version, rt: rt}
	}
	return rt, nil
}

// newTransport builds the keep-alive HTTP/1.1 clients with the profile's
// timing and TLS settings; control checks every address before connect.
// Proxies from the environment are not used: backends are called
// directly.
func newTransport(b Backend, control func(network, address string, c syscall.RawConn) error) (*backendTransport, error) {
	p := b.Profile
	tlsConf, err := tlsConfig(b)
	if err != nil {
		return nil, err
	}
	dialer := &net.Dialer{Timeout: ms(p.ConnectTimeoutMs, 5000), KeepAlive: 30 * time.Second, Control: control}
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		// A legacy IPv4 spelling (2130706433, 0x7f000001, 127.1) is the
		// address it spells, whatever the system resolver makes of it.
		if host, port, err := net.SplitHostPort(addr); err == nil {
			if ip, ok := fetch.LegacyIPv4(host); ok {
				addr = net.JoinHostPort(ip.String(), port)
			}
		}
		return dialer.DialContext(ctx, network, addr)
	}
	perHost := p.MaxIdleConnsPerHost
	if perHost <= 0 {
		perHost = 64
	}
	std := &http.Transport{
		Proxy:                 nil,
		DialContext:           dial,
		TLSClientConfig:       tlsConf,
		TLSHandshakeTimeout:   ms(p.TLSHandshakeTimeoutMs, 5000),
		IdleConnTimeout:       ms(p.IdleConnTimeoutMs, 90000),
		MaxIdleConns:          0,
		MaxIdleConnsPerHost:   perHost,
		ExpectContinueTimeout: time.Second,
		ForceAttemptHTTP2:     false,
		// A non-nil empty map disables HTTP/2 on TLS connections.
		TLSNextProto: map[string]func(string, *tls.Conn) http.RoundTripper{},
	}
	h1 := &h1Client{dialTCP: dial, tls: tlsConf, tlsTimeout: std.TLSHandshakeTimeout,
		idleTimeout: std.IdleConnTimeout, maxIdle: perHost, idle: map[string][]*h1Conn{}}
	return &backendTransport{h1: h1, std: std}, nil
}

// tlsConfig returns the client TLS configuration: the client certificate
// when mTLS is enabled, and the CA pool when a CA certificate is given
// (otherwise the system roots).
func tlsConfig(b Backend) (*tls.Config, error) {
	p := b.Profile
	conf := &tls.Config{MinVersion: tls.VersionTLS12}
	if p.MTLSEnabled {
		if p.ClientCertPEM == "" || b.Secrets.ClientKeyPEM == "" {
			return nil, authError("mTLS enabled without a client certificate and key")
		}
		cert, err := tls.X509KeyPair([]byte(p.ClientCertPEM), []byte(b.Secrets.ClientKeyPEM))
		if err != nil {
			// The key pair error never quotes the key.
			return nil, authError("mTLS client certificate: %w", err)
		}
		conf.Certificates = []tls.Certificate{cert}
	}
	if p.CACertPEM != "" {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM([]byte(p.CACertPEM)) {
			return nil, authError("CA certificate: no PEM certificate found")
		}
		conf.RootCAs = pool
	}
	return conf, nil
}

// ms returns v milliseconds, or def when v is not positive.
func ms(v, def int) time.Duration {
	if v <= 0 {
		v = def
	}
	return time.Duration(v) * time.Millisecond
}

// TLSConfig returns the client TLS configuration of b (client certificate
// when mTLS is enabled, CA pool when caCertPem is set), for diagnostics
// that handshake outside a call. An invalid configuration is an *Error of
// KindAuthConfig.
func TLSConfig(b Backend) (*tls.Config, error) {
	conf, err := tlsConfig(b)
	if err != nil {
		return nil, err
	}
	return conf, nil
}
