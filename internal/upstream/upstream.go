// Package upstream makes the outbound HTTP calls of s2r to its backends:
// the admin backend tests today and the runtime data plane next.
//
// A Client keeps one tuned keep-alive http.Transport per backend profile
// (cached by profile id and update time, so an edited profile gets a fresh
// transport), applies the profile's auth type (none, basic, bearer,
// api_key_header, oauth2_client_credentials with a cached, single-flight
// token) and mTLS, bounds each call by its timeout, retries only failures
// that happened before the request reached the backend (unless the caller
// opts in), propagates W3C traceparent and reads the response through a
// size limit. Failures are *Error values whose Kind maps to the SPEC 7.2
// codes (Error.APIError).
//
// Typical use:
//
//	b, err := upstream.Open(box, profile) // decrypts the credentials
//	resp, err := client.Do(ctx, b, upstream.Request{Method: "POST", Body: envelope,
//		Header: http.Header{"Content-Type": {"text/xml; charset=utf-8"}}})
package upstream

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/s2r-project/s2r/internal/fetch"
	"github.com/s2r-project/s2r/internal/limit"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/secret"
	"github.com/s2r-project/s2r/internal/wssec"
)

// Defaults of a call when neither the request nor the profile says.
const (
	DefaultTimeout          = 30 * time.Second
	DefaultMaxResponseBytes = 10 << 20
	maxBackoff              = 400 * time.Millisecond
	firstBackoff            = 50 * time.Millisecond
)

// Secrets are the decrypted credentials of a profile. They live only in
// memory and are never logged or rendered.
type Secrets struct {
	Password     string
	Token        string
	APIKey       string
	ClientSecret string
	ClientKeyPEM string
}

// Backend is a profile with its credentials opened.
type Backend struct {
	Profile model.BackendProfile
	Secrets Secrets
	// Limiter protects the backend on this instance (maxConcurrentRequests,
	// maxRequestsPerSecond): Selector.Do admits each call through it
	// (admit.go). nil: the calls are not counted (admin backend tests).
	Limiter *limit.Limiter
	// Signer applies the profile's wsSecurity (nil without one), compiled
	// by Open (wssecurity.go).
	Signer *wssec.Signer
}

// Open decrypts the credentials of p with box. A credential that does not
// authenticate gives an error of KindAuthConfig.
func Open(box *secret.Box, p model.BackendProfile) (Backend, error) {
	b := Backend{Profile: p}
	for _, f := range []struct {
		name string
		dst  *string
	}{
		{model.CredPassword, &b.Secrets.Password},
		{model.CredToken, &b.Secrets.Token},
		{model.CredAPIKey, &b.Secrets.APIKey},
		{model.CredClientSecret, &b.Secrets.ClientSecret},
		{model.CredClientKeyPEM, &b.Secrets.ClientKeyPEM},
	} {
		c := p.Credentials.Field(f.name)
		if !c.IsSet() {
			continue
		}
		if box == nil {
			return Backend{}, authError("credential %s: no secret key configured", f.name)
		}
		plain, err := box.Open(c.Sealed(), model.CredentialAAD(p.ProfileID, f.name))
		if err != nil {
			return Backend{}, authError("credential %s: %w", f.name, err)
		}
		*f.dst = string(plain)
	}
	if err := openWSSecurity(box, &b); err != nil {
		return Backend{}, err
	}
	return b, nil
}

// Request is one outbound call.
type Request struct {
	Method string // default POST
	// URL is the absolute URL to call; empty means the profile's endpoint.
	URL    string
	Header http.Header
	Body   []byte
	// Timeout bounds the whole call, retries included; 0 means the
	// profile's timeoutMs, then DefaultTimeout.
	Timeout time.Duration
	// Retries is the number of extra attempts; nil means the profile's
	// retryCount, then none.
	Retries *int
	// RetryAfterSend opts in to retrying failures that happened after the
	// request was written (read errors, broken connections). Without it
	// only failures before the request reached the backend (connect
	// errors, connect timeouts) are retried. HTTP answers are never retried.
	RetryAfterSend bool
	// MaxResponseBytes limits the response body; 0 means
	// DefaultMaxResponseBytes.
	MaxResponseBytes int64
	// SOAP marks Body as a SOAP envelope: the backend's wsSecurity is
	// applied to it on every attempt, with a fresh nonce and timestamp.
	SOAP bool
	// ForBackend, when set, adapts Body to the backend of the attempt
	// (its WS-Addressing To) before wsSecurity is applied.
	ForBackend func(b *Backend, body []byte) []byte
}

// Response is the backend's answer, its body read in full.
type Response struct {
	StatusCode int
	Header     http.Header
	Body       []byte
	// Latency is the time of the successful attempt, from sending to the
	// end of the body.
	Latency  time.Duration
	Attempts int
	// SentHeader is the request's header as sent on the answered attempt,
	// auth and trace headers included (debug captures mask credentials).
	SentHeader http.Header
}

// Client makes outbound calls. It is safe for concurrent use; create one
// per process and share it.
type Client struct {
	mu         sync.Mutex
	transports map[string]*cachedTransport
	tokens     tokenCache
	now        func() time.Time
	policy     atomic.Pointer[fetch.Policy]
	tracer     Tracer // nil: no CLIENT spans (client_span.go)
}

// SetPolicy makes every later connection of c (calls, OAuth2 token
// requests) check its address against p just before connecting; a
// refused address fails the call as unreachable with p's reason. s2r
// serve sets the backend policy (fetch.Policy.ForBackends of the outbound
// settings) and renews it when they change. Without a policy nothing is
// checked.
func (c *Client) SetPolicy(p fetch.Policy) { c.policy.Store(&p) }

// control is the dialer Control hook of c's transports: the current
// policy, read at every connect, so a changed setting applies to cached
// transports too.
func (c *Client) control(network, address string, raw syscall.RawConn) error {
	if p := c.policy.Load(); p != nil {
		return p.Control(network, address, raw)
	}
	return nil
}

// NewClient returns a client with empty caches.
func NewClient() *Client {
	return &Client{transports: map[string]*cachedTransport{}, now: time.Now,
		tokens: tokenCache{entries: map[string]tokenEntry{}}}
}

// Close releases the idle connections of every cached transport.
func (c *Client) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for id, t := range c.transports {
		t.rt.CloseIdleConnections()
		delete(c.transports, id)
	}
}

// Forget drops the cached transport (closing its idle connections) and
// OAuth2 tokens of a profile, for example when it was deleted.
func (c *Client) Forget(profileID string) {
	c.mu.Lock()
	if t, ok := c.transports[profileID]; ok {
		t.rt.CloseIdleConnections()
		delete(c.transports, profileID)
	}
	c.mu.Unlock()
	c.tokens.mu.Lock()
	for key := range c.tokens.entries {
		if id, _, _ := strings.Cut(key, "\x00"); id == profileID {
			delete(c.tokens.entries, key)
		}
	}
	c.tokens.mu.Unlock()
}

// Do sends req to the backend b with its auth, timeout and retry policy
// and returns the answer, whatever its status. Failures are *Error.
func (c *Client) Do(ctx context.Context, b Backend, req Request) (*Response, error) {
	if err := checkAuth(b); err != nil {
		return nil, err
	}
	rt, err := c.transport(b)
	if err != nil {
		return nil, err
	}
	timeout := req.Timeout
	if timeout <= 0 && b.Profile.TimeoutMs != nil && *b.Profile.TimeoutMs > 0 {
		timeout = time.Duration(*b.Profile.TimeoutMs) * time.Millisecond
	}
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	retries := 0
	if req.Retries != nil {
		retries = *req.Retries
	} else if b.Profile.RetryCount != nil {
		retries = *b.Profile.RetryCount
	}
	attempt := 0
	for {
		attempt++
		resp, err := c.attempt(ctx, rt, b, req)
		if err == nil {
			resp.Attempts = attempt
			return resp, nil
		}
		ue := classify(ctx, err, attempt)
		ue.Attempts = attempt
		if attempt > retries || !retryable(err, req.RetryAfterSend) || ctx.Err() != nil {
			return nil, ue
		}
		if !sleep(ctx, backoff(attempt)) {
			return nil, classify(ctx, ctx.Err(), attempt)
		}
	}
}

// attempt sends the request once.
func (c *Client) attempt(ctx context.Context, rt http.RoundTripper, b Backend, req Request) (*Response, error) {
	hreq, err := c.newRequest(ctx, rt, b, req)
	if err != nil {
		return nil, err
	}
	span := c.startSpan(ctx, hreq)
	start := time.Now()
	resp, err := roundTrip(rt, hreq)
	if err != nil {
		span.End(0, err)
		return nil, err
	}
	defer resp.Body.Close()
	defer span.End(resp.StatusCode, nil)
	limit := req.MaxResponseBytes
	if limit <= 0 {
		limit = DefaultMaxResponseBytes
	}
	if resp.ContentLength > limit {
		return nil, &Error{Kind: KindTooLarge, Limit: limit, Err: fmt.Errorf("response Content-Length %d over %d bytes", resp.ContentLength, limit)}
	}
	body, n, err := readBody(resp, limit)
	if err != nil {
		return nil, &sentError{classify(ctx, fmt.Errorf("read response: %w", err), 0)}
	}
	if n > limit {
		return nil, &Error{Kind: KindTooLarge, Limit: limit, Err: fmt.Errorf("response body over %d bytes", limit)}
	}
	return &Response{StatusCode: resp.StatusCode, Header: resp.Header, Body: body, Latency: time.Since(start), SentHeader: hreq.Header}, nil
}

// readPool recycles the scratch buffers of bodies of unknown length.
var readPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooledRead bounds the scratch buffers kept in readPool.
const maxPooledRead = 1 << 20

// readBody reads at most limit+1 bytes of the response body. With a
// Content-Length the buffer is sized once; otherwise (chunked answers) it
// is read into a pooled scratch buffer and copied out at its exact size,
// instead of doubling a fresh buffer from 512 bytes (about three times the
// body in garbage per call).
func readBody(resp *http.Response, limit int64) ([]byte, int64, error) {
	r := io.LimitReader(resp.Body, limit+1)
	if cl := resp.ContentLength; cl > 0 {
		var buf bytes.Buffer
		buf.Grow(int(cl) + bytes.MinRead) // room for the EOF read too
		n, err := buf.ReadFrom(r)
		return buf.Bytes(), n, err
	}
	buf := readPool.Get().(*bytes.Buffer)
	buf.Reset()
	n, err := buf.ReadFrom(r)
	body := append(make([]byte, 0, buf.Len()), buf.Bytes()...)
	if buf.Cap() <= maxPooledRead {
		readPool.Put(buf)
	}
	return body, n, err
}

// newRequest builds the HTTP request of one attempt with auth and trace
// headers.
func (c *Client) newRequest(ctx context.Context, rt http.RoundTripper, b Backend, req Request) (*http.Request, error) {
	method, target := req.Method, req.URL
	if method == "" {
		method = http.MethodPost
	}
	if target == "" {
		target = b.Profile.EndpointURL
	}
	var body io.Reader
	raw := req.Body
	if req.ForBackend != nil {
		raw = req.ForBackend(&b, raw)
	}
	if req.SOAP {
		signed, err := b.secureEnvelope(raw)
		if err != nil {
			return nil, err
		}
		body = bytes.NewReader(signed)
	} else if raw != nil {
		body = bytes.NewReader(raw)
	}
	hreq, err := http.NewRequestWithContext(ctx, method, target, body)
	if err != nil {
		return nil, &Error{Kind: KindUnreachable, Err: fmt.Errorf("build request: %w", err)}
	}
	for k, vs := range req.Header {
		hreq.Header[k] = append([]string(nil), vs...)
	}
	setTrace(ctx, hreq.Header)
	if err := c.applyAuth(ctx, rt, b, hreq); err != nil {
		return nil, err
	}
	return hreq, nil
}

// sleep waits d or until ctx ends; false when ctx ended.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// backoff is the pause before retry number attempt: 50 ms doubling, at
// most 400 ms.
func backoff(attempt int) time.Duration {
	d := firstBackoff << (attempt - 1)
	if d > maxBackoff || d <= 0 {
		d = maxBackoff
	}
	return d
}
