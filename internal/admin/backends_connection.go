package admin

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/s2r-project/s2r/internal/fetch"
	"github.com/s2r-project/s2r/internal/model"
)

// Step statuses of a connection test.
const (
	stepOK      = "ok"
	stepFailed  = "failed"
	stepSkipped = "skipped"
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

// connectionReport answers :test-connection.
type connectionReport struct {
	ProfileID string           `json:"profileId"`
	Status    string           `json:"status"`
	Steps     []connectionStep `json:"steps"`
}

var docTestConnection = opDoc{
	summary: "Connection diagnostics of a backend profile: DNS (resolved addresses), TCP connect to the first address " +
		"allowed by the outbound policy (latency), and a WSDL pull of healthCheckUrl or endpointUrl?wsdl through the " +
		"guarded fetcher (settings outbound_allowed_cidrs / outbound_denied_cidrs). Each step has a status (ok, failed, " +
		"skipped) and its duration; a down backend answers 200 with failed steps.",
	response: connectionReport{},
}

// dnsTimeout bounds the DNS step.
const dnsTimeout = 5 * time.Second

// testConnection runs the DNS, TCP and WSDL steps.
func (s *server) testConnection(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	p, err := profileOrNotFound(s.store.BackendProfile(ctx, r.PathValue("profileId")))
	if err != nil {
		return err
	}
	f, err := s.guardedFetcher(ctx)
	if err != nil {
		return err
	}
	u, _ := url.Parse(p.EndpointURL) // validated when written
	rep := connectionReport{ProfileID: p.ProfileID, Status: stepOK}
	addrs, dns := dnsStep(ctx, u.Hostname())
	rep.Steps = append(rep.Steps, dns, tcpStep(ctx, f, addrs, port(u), p), wsdlStep(ctx, f, p))
	for _, st := range rep.Steps {
		if st.Status != stepOK {
			rep.Status = stepFailed
		}
	}
	return writeJSON(w, http.StatusOK, rep)
}

// dnsStep resolves host (an IP literal resolves to itself).
func dnsStep(ctx context.Context, host string) ([]netip.Addr, connectionStep) {
	st := connectionStep{Name: "dns"}
	start := time.Now()
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		addrs = []netip.Addr{a.Unmap()}
	} else {
		dctx, cancel := context.WithTimeout(ctx, dnsTimeout)
		defer cancel()
		found, err := net.DefaultResolver.LookupNetIP(dctx, "ip", host)
		if err != nil {
			st.Status, st.DurationMs, st.Message = stepFailed, since(start), "name resolution failed: "+dnsReason(err)
			return nil, st
		}
		for _, a := range found {
			addrs = append(addrs, a.Unmap())
		}
	}
	st.Status, st.DurationMs = stepOK, since(start)
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
// allows, within the profile's connect timeout.
func tcpStep(ctx context.Context, f *fetch.Fetcher, addrs []netip.Addr, port string, p model.BackendProfile) connectionStep {
	st := connectionStep{Name: "tcp"}
	if len(addrs) == 0 {
		st.Status, st.Message = stepSkipped, "no address to connect to"
		return st
	}
	var target netip.Addr
	for _, a := range addrs {
		if f.CheckAddr(a) == nil {
			target = a
			break
		}
	}
	if !target.IsValid() {
		st.Status, st.Message = stepFailed, "every resolved address is refused by the outbound policy "+
			"(settings outbound_allowed_cidrs / outbound_denied_cidrs)"
		return st
	}
	st.Address = net.JoinHostPort(target.String(), port)
	d := net.Dialer{Timeout: time.Duration(p.ConnectTimeoutMs) * time.Millisecond}
	start := time.Now()
	conn, err := d.DialContext(ctx, "tcp", st.Address)
	st.DurationMs = since(start)
	if err != nil {
		st.Status, st.Message = stepFailed, dialReason(err)
		return st
	}
	conn.Close()
	st.Status = stepOK
	return st
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
		st.Status = stepFailed
		return st
	}
	st.HTTPStatus, st.Bytes = res.StatusCode, len(res.Body)
	if p.HealthCheckURL == "" && !strings.Contains(string(res.Body), "definitions") {
		st.Status, st.Message = stepFailed, "the answer is not a WSDL document"
		return st
	}
	st.Status = stepOK
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
