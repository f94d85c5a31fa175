// Package fetch is the guarded HTTP fetcher the control plane uses for
// anything a user can point it at: WSDL import by URL, external reference
// previews, remote schema imports and wsdl_fetch health checks.
//
// Every connection goes through a dialer that resolves the host itself and
// checks each resolved address against a Policy before dialing the checked
// IP, so DNS rebinding cannot reach loopback, link-local (cloud metadata) or
// other refused addresses. Redirects are re-validated, proxies from the
// environment are ignored, and the body is read through a size limit within
// an overall deadline. Every failure is an *Error with a machine-readable
// Reason and a message that is safe to show: it never contains userinfo or
// the values of query parameters whose names suggest a secret (Redact).
package fetch

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Result is a successful fetch.
type Result struct {
	// Body is the complete response body, at most Policy.MaxBytes long.
	Body []byte
	// FinalURL is the URL of the last request, after redirects, to resolve
	// relative references (schema imports) against. It has no userinfo but
	// may carry query values: show it through RedactString.
	FinalURL string
	// ContentType is the Content-Type header of the response.
	ContentType string
	// StatusCode is the 2xx status of the response.
	StatusCode int
}

// Fetcher performs guarded GET requests. It is safe for concurrent use.
type Fetcher struct {
	policy Policy
	client *http.Client
}

// New returns a Fetcher enforcing p, with zero fields set to the defaults.
func New(p Policy) *Fetcher {
	if p.MaxBytes <= 0 {
		p.MaxBytes = DefaultMaxBytes
	}
	if p.Timeout <= 0 {
		p.Timeout = DefaultTimeout
	}
	if p.MaxRedirects == 0 {
		p.MaxRedirects = DefaultMaxRedirects
	}
	dialer := newGuardedDialer(p)
	transport := &http.Transport{
		Proxy:                  nil,
		DialContext:            dialer.DialContext,
		TLSClientConfig:        &tls.Config{MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout:    10 * time.Second,
		ResponseHeaderTimeout:  p.Timeout,
		MaxResponseHeaderBytes: 64 << 10,
		MaxIdleConns:           16,
		IdleConnTimeout:        30 * time.Second,
		ForceAttemptHTTP2:      true,
	}
	f := &Fetcher{policy: p}
	f.client = &http.Client{Transport: transport, CheckRedirect: f.checkRedirect}
	return f
}

// CloseIdleConnections closes kept-alive connections; call it when the
// Fetcher is dropped (for example when the CIDR settings change).
func (f *Fetcher) CloseIdleConnections() { f.client.CloseIdleConnections() }

// Policy returns the effective policy, defaults applied.
func (f *Fetcher) Policy() Policy { return f.policy }

// CheckAddr reports whether the fetcher's policy allows connecting to ip; see
// Policy.CheckAddr.
func (f *Fetcher) CheckAddr(ip netip.Addr) error { return f.policy.CheckAddr(ip) }

// checkRedirect re-validates every redirect target and bounds the chain; the
// target's addresses are checked when it is dialed.
func (f *Fetcher) checkRedirect(req *http.Request, via []*http.Request) error {
	if f.policy.MaxRedirects < 0 || len(via) > f.policy.MaxRedirects {
		e := newError(ReasonTooManyRedirects,
			"more than "+strconv.Itoa(max(f.policy.MaxRedirects, 0))+" redirects", nil)
		e.URL = Redact(via[0].URL)
		return e
	}
	if err := checkURL(req.URL); err != nil {
		err.Msg = "redirect to " + Redact(req.URL) + " refused: " + err.Msg
		return err
	}
	return nil
}

// Get fetches rawURL with GET and returns the body of a 2xx response.
func (f *Fetcher) Get(ctx context.Context, rawURL string) (*Result, error) {
	u, err := ValidateURL(rawURL)
	if err != nil {
		return nil, err
	}
	shown := Redact(u)
	ctx, cancel := context.WithTimeout(ctx, f.policy.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, withURL(newError(ReasonBadURL, "cannot build request", nil), shown)
	}
	req.Header.Set("User-Agent", "s2r-fetch/1")
	req.Header.Set("Accept", "application/wsdl+xml, application/xml, text/xml, */*;q=0.5")
	resp, err := f.client.Do(req)
	if err != nil {
		return nil, withURL(f.classify(ctx, err), shown)
	}
	defer resp.Body.Close()
	final := Redact(resp.Request.URL)
	finalURL := *resp.Request.URL
	finalURL.Fragment, finalURL.RawFragment = "", ""
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		// The reason phrase comes from the server; show the standard one.
		status := strings.TrimSpace(strconv.Itoa(resp.StatusCode) + " " + http.StatusText(resp.StatusCode))
		e := newError(ReasonHTTPStatus, "server answered "+status, nil)
		e.StatusCode = resp.StatusCode
		return nil, withURL(e, final)
	}
	body, ferr := f.readBody(ctx, resp)
	if ferr != nil {
		return nil, withURL(ferr, final)
	}
	return &Result{Body: body, FinalURL: finalURL.String(), ContentType: resp.Header.Get("Content-Type"), StatusCode: resp.StatusCode}, nil
}

// readBody reads at most MaxBytes, failing as soon as one more byte arrives.
func (f *Fetcher) readBody(ctx context.Context, resp *http.Response) ([]byte, *Error) {
	limit := f.policy.MaxBytes
	if resp.ContentLength > limit {
		return nil, tooLarge(limit)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, f.classify(ctx, err)
	}
	if int64(len(body)) > limit {
		return nil, tooLarge(limit)
	}
	return body, nil
}

func tooLarge(limit int64) *Error {
	return newError(ReasonTooLarge, fmt.Sprintf("response body exceeds the limit of %d bytes", limit), nil)
}

// classify turns a transport error into an *Error.
func (f *Fetcher) classify(ctx context.Context, err error) *Error {
	var fe *Error
	if errors.As(err, &fe) {
		return fe
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded) {
		return newError(ReasonTimeout, "no complete answer within "+f.policy.Timeout.String(), err)
	}
	if errors.Is(err, context.Canceled) {
		return newError(ReasonCanceled, "request canceled", err)
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return newError(ReasonTimeout, "no complete answer within "+f.policy.Timeout.String(), err)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // url.Error repeats the full URL, query included
	}
	return newError(ReasonConnect, "request failed"+connectDetail(err), err)
}

// connectDetail names common connection failures without echoing URLs.
func connectDetail(err error) string {
	var errno syscall.Errno
	var certErr *tls.CertificateVerificationError
	var recordErr tls.RecordHeaderError
	switch {
	case errors.As(err, &certErr):
		return ": TLS certificate not trusted"
	case errors.As(err, &recordErr), strings.Contains(err.Error(), "HTTP response to HTTPS client"):
		return ": server did not answer with TLS"
	case errors.As(err, &errno):
		return ": " + errno.Error()
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return ": connection closed by the server"
	}
	return ""
}

func withURL(e *Error, shown string) *Error {
	if e.URL == "" {
		e.URL = shown
	}
	return e
}
