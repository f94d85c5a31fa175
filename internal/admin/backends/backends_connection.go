package backends

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/fetch"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/upstream"
)

// Step statuses of a connection test (ConnectionReport).
const (
	StepOK      = "ok"
	StepFailed  = "failed"
	StepSkipped = "skipped"
)

// connectionStep is one step of a connection test.
type connectionStep struct {
	Name       string   `json:"name"`
	Status     string   `json:"status"`
	DurationMs int64    `json:"durationMs"`
	Message    string   `json:"message,omitempty"`
	Addresses  []string `json:"addresses,omitempty"`
	Address    string   `json:"address,omitempty"`
	URL        string   `json:"url,omitempty"`
	HTTPStatus int      `json:"httpStatus,omitempty"`
	Bytes      int      `json:"bytes,omitempty"`
}

// ConnectionReport answers :test-connection.
type ConnectionReport struct {
	ProfileID string           `json:"profileId"`
	Status    string           `json:"status"`
	Steps     []connectionStep `json:"steps"`
}

var docTestConnection = adminapi.Doc{
	Summary: "Connection diagnostics of a backend profile: DNS (resolved addresses), TCP connect to the first address " +
		"allowed by the outbound policy (latency), for https a TLS handshake with the profile's CA and client " +
		"certificate, and a WSDL pull of healthCheckUrl or endpointUrl?wsdl through the " +
		"guarded fetcher (settings outbound_allowed_cidrs / outbound_denied_cidrs); with wsSecurity, a SOAP request " +
		"carrying the configured WS-Security header, whose WS-Security fault is explained (clock skew, unknown user " +
		"or wrong password, digest mismatch, signature refused). Each step has a status (ok, failed, " +
		"skipped) and its duration; a down backend answers 200 with failed steps.",
	Response: ConnectionReport{},
}

// dnsTimeout bounds the DNS step.
const dnsTimeout = 5 * time.Second

// testConnection runs the DNS, TCP and WSDL steps.
func (s *Handlers) testConnection(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	p, err := profileOrNotFound(s.store.BackendProfile(ctx, r.PathValue("profileId")))
	if err != nil {
		return err
	}
	f, err := adminapi.GuardedFetcher(ctx, s.store)
	if err != nil {
		return err
	}
	u, _ := url.Parse(p.EndpointURL) // validated when written
	rep := ConnectionReport{ProfileID: p.ProfileID, Status: StepOK}
	addrs, dns := dnsStep(ctx, u.Hostname())
	tcp, conn := tcpStep(ctx, f, addrs, port(u), p)
	rep.Steps = append(rep.Steps, dns, tcp)
	if u.Scheme == "https" {
		rep.Steps = append(rep.Steps, s.tlsStep(ctx, conn, u.Hostname(), p))
	} else if conn != nil {
		conn.Close()
	}
	rep.Steps = append(rep.Steps, wsdlStep(ctx, f, p))
	if p.WSSecurity != nil {
		rep.Steps = append(rep.Steps, s.wssStep(ctx, p))
	}
	for _, st := range rep.Steps {
		if st.Status != StepOK {
			rep.Status = StepFailed
		}
	}
	return adminapi.WriteJSON(w, http.StatusOK, rep)
}

// dnsStep resolves host (an IP literal resolves to itself).
func dnsStep(ctx context.Context, host string) ([]netip.Addr, connectionStep) {
	st := connectionStep{Name: "dns"}
	start := time.Now()
	// Resolved as the fetcher resolves it: legacy IPv4 spellings and
	// localhost names are the addresses they spell, without DNS.
	dctx, cancel := context.WithTimeout(ctx, dnsTimeout)
	defer cancel()
	found, err := fetch.Policy{}.Lookup(dctx, host)
	if err != nil {
		st.Status, st.DurationMs, st.Message = StepFailed, since(start), "name resolution failed: "+dnsReason(err)
		return nil, st
	}
	var addrs []netip.Addr
	for _, a := range found {
		addrs = append(addrs, a.Unmap())
	}
	st.Status, st.DurationMs = StepOK, since(start)
	for _, a := range addrs {
		st.Addresses = append(st.Addresses, a.String())
	}
	return addrs, st
}

func dnsReason(err error) string {
	var de *net.DNSError
	if errors.As(err, &de) {
		switch {
		case de.IsNotFound:
			return "no such host"
		case de.IsTimeout:
			return "timeout"
		}
	}
	return "resolver error"
}

// tcpStep connects to the first resolved address the outbound policy
// allows, within the profile's connect timeout, and returns the open
// connection (nil on failure) for the TLS step.
func tcpStep(ctx context.Context, f *fetch.Fetcher, addrs []netip.Addr, port string, p model.BackendProfile) (connectionStep, net.Conn) {
	st := connectionStep{Name: "tcp"}
	if len(addrs) == 0 {
		st.Status, st.Message = StepSkipped, "no address to connect to"
		return st, nil
	}
	var target netip.Addr
	for _, a := range addrs {
		if f.CheckAddr(a) == nil {
			target = a
			break
		}
	}
	if !target.IsValid() {
		st.Status, st.Message = StepFailed, "every resolved address is refused by the outbound policy "+
			"(settings outbound_allowed_cidrs / outbound_denied_cidrs)"
		return st, nil
	}
	st.Address = net.JoinHostPort(target.String(), port)
	d := net.Dialer{Timeout: time.Duration(p.ConnectTimeoutMs) * time.Millisecond}
	start := time.Now()
	conn, err := d.DialContext(ctx, "tcp", st.Address)
	st.DurationMs = since(start)
	if err != nil {
		st.Status, st.Message = StepFailed, dialReason(err)
		return st, nil
	}
	st.Status = StepOK
	return st, conn
}

// tlsStep handshakes on conn with the profile's TLS settings (CA, client
// certificate) and reports the negotiated version and the server
// certificate; it closes conn.
func (s *Handlers) tlsStep(ctx context.Context, conn net.Conn, host string, p model.BackendProfile) connectionStep {
	st := connectionStep{Name: "tls"}
	if conn == nil {
		st.Status, st.Message = StepSkipped, "no TCP connection"
		return st
	}
	defer conn.Close()
	b, err := upstream.Open(s.secrets, p)
	var conf *tls.Config
	if err == nil {
		conf, err = upstream.TLSConfig(b)
	}
	if err != nil {
		st.Status, st.Message = StepFailed, "TLS settings invalid: client certificate, key or CA"
		return st
	}
	conf.ServerName = host
	hctx, cancel := context.WithTimeout(ctx, time.Duration(p.TLSHandshakeTimeoutMs)*time.Millisecond)
	defer cancel()
	tc := tls.Client(conn, conf)
	start := time.Now()
	err = tc.HandshakeContext(hctx)
	st.DurationMs = since(start)
	if err != nil {
		st.Status, st.Message = StepFailed, tlsReason(err)
		return st
	}
	cs := tc.ConnectionState()
	st.Status, st.Message = StepOK, tls.VersionName(cs.Version)
	if len(cs.PeerCertificates) > 0 {
		c := cs.PeerCertificates[0]
		st.Message += "; server certificate " + c.Subject.String() + " valid until " + c.NotAfter.UTC().Format(time.RFC3339)
	}
	return st
}

// tlsReason classifies a handshake failure without quoting peer data.
func tlsReason(err error) string {
	var (
		unknownCA x509.UnknownAuthorityError
		hostErr   x509.HostnameError
		invalid   x509.CertificateInvalidError
		ne        net.Error
	)
	switch {
	case errors.As(err, &unknownCA):
		return "server certificate signed by an unknown authority (set caCertPem)"
	case errors.As(err, &hostErr):
		return "server certificate does not match the host name"
	case errors.As(err, &invalid):
		return "server certificate invalid or expired"
	case errors.As(err, &ne) && ne.Timeout(), errors.Is(err, context.DeadlineExceeded):
		return "handshake timeout"
	}
	return "handshake failed"
}

func dialReason(err error) string {
	var ne net.Error
	switch {
	case errors.As(err, &ne) && ne.Timeout():
		return "connect timeout"
	case strings.Contains(err.Error(), "refused"):
		return "connection refused"
	case strings.Contains(err.Error(), "unreachable"):
		return "network unreachable"
	}
	return "connect failed"
}

// wsdlStep fetches the health URL or the endpoint's ?wsdl through the
// guarded fetcher.
func wsdlStep(ctx context.Context, f *fetch.Fetcher, p model.BackendProfile) connectionStep {
	target := p.HealthCheckURL
	if target == "" {
		u, _ := url.Parse(p.EndpointURL)
		u.RawQuery, u.Fragment = "wsdl", ""
		target = u.String()
	}
	st := connectionStep{Name: "wsdl", URL: fetch.RedactString(target)}
	start := time.Now()
	res, err := f.Get(ctx, target)
	st.DurationMs = since(start)
	if err != nil {
		var fe *fetch.Error
		if errors.As(err, &fe) {
			st.HTTPStatus = fe.StatusCode
			st.Message = string(fe.Reason) + ": " + fe.Msg
		} else {
			st.Message = "fetch failed"
		}
		st.Status = StepFailed
		return st
	}
	st.HTTPStatus, st.Bytes = res.StatusCode, len(res.Body)
	if p.HealthCheckURL == "" && !strings.Contains(string(res.Body), "definitions") {
		st.Status, st.Message = StepFailed, "the answer is not a WSDL document"
		return st
	}
	st.Status = StepOK
	return st
}

// port returns the URL's port or the scheme's default.
func port(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if u.Scheme == "https" {
		return "443"
	}
	return "80"
}

func since(t time.Time) int64 { return time.Since(t).Milliseconds() }
