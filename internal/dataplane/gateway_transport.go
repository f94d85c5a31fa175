package dataplane

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"sync"
	"sync/atomic"
	"time"

	"github.com/s2r-project/s2r/internal/upstream"
)

// replayCap is how much of a request body the gateway keeps so that an
// attempt that failed before any answer can be replayed on the next
// backend (active_passive). Bodies are streamed: past this size the copy
// is dropped and a failure after the connection was obtained is final.
const replayCap = 64 << 10

var (
	errHeaderTimeout = errors.New("backend did not answer within its timeout")
	errStaleAttempt  = errors.New("gateway attempt superseded")
)

// gatewayTransport sends each gateway request to the backends the selector picks (routing mode, health, breaker) with
// each backend's own keep-alive transport, auth and traceparent.
//
// Failover (active_passive only) happens when no response header arrived
// and the backend cannot have acted on the request: the connection could
// not be made (nothing was sent), or the request body read so far is still
// held in full (at most replayCap) so the request can be sent again
// byte for byte. A 5xx answer is an answer: it is relayed, not retried.
type gatewayTransport struct{ g *gateway }

// send sends out to the backend the selector picks, failing over to the
// next when that is safe, and returns the answer whose body the caller
// closes.
func (t *gatewayTransport) send(out *http.Request, call *gwCall) (*http.Response, error) {
	var rb *replayBody
	if out.Body != nil && out.Body != http.NoBody && call.pool.Mode == upstream.RoutingActivePassive && len(call.pool.Backends) > 1 {
		rb = &replayBody{src: out.Body}
	}
	var resp *http.Response
	i, err := t.g.cfg.Selector.Do(out.Context(), call.pool, func(ctx context.Context, i int) (upstream.Verdict, error) {
		r, v, err := t.attempt(ctx, out, call, call.pool.Backends[i], rb)
		resp = r
		return v, err
	})
	if i >= 0 {
		call.backend = call.svc.Backends[i]
	}
	if err != nil {
		return nil, err
	}
	return resp, nil
}

// attempt sends out to backend b once.
func (t *gatewayTransport) attempt(ctx context.Context, out *http.Request, call *gwCall, b *upstream.Backend, rb *replayBody) (*http.Response, upstream.Verdict, error) {
	u, err := backendURL(b.Profile.EndpointURL)
	if err != nil {
		return nil, upstream.Verdict{Failover: true}, err
	}
	timeout := upstream.DefaultTimeout
	if p := b.Profile.TimeoutMs; p != nil && *p > 0 {
		timeout = time.Duration(*p) * time.Millisecond
	}
	actx, cancel := context.WithCancelCause(ctx)
	timer := time.AfterFunc(timeout, func() { cancel(errHeaderTimeout) })
	var gotConn atomic.Bool
	var req *http.Request
	if rb != nil {
		// Failover possible: each attempt gets pristine headers and
		// learns whether a connection was obtained.
		actx = httptrace.WithClientTrace(actx, &httptrace.ClientTrace{GotConn: func(httptrace.GotConnInfo) { gotConn.Store(true) }})
		req = out.Clone(actx)
		req.Body = rb.attempt()
	} else {
		// out is already the gateway's own outbound request.
		req = out.WithContext(actx)
		if call.small != nil {
			// A body read in full is handed to the transport as an
			// in-memory reader (outboundRequest wraps it), so the
			// headers and body leave in one write, through upstream's
			// direct HTTP/1.1 client (GetBody marks it replayable).
			small := call.small
			req.Body = io.NopCloser(bytes.NewReader(small))
			req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(small)), nil }
		}
	}
	req.URL, req.Host = u, ""
	rt, err := t.g.cfg.Client.Prepare(actx, *b, req)
	if err != nil {
		timer.Stop()
		cancel(nil)
		return nil, upstream.Verdict{Failover: true}, err
	}
	if call.debug {
		call.sentHeader = req.Header.Clone()
	}
	call.sentAt = time.Now()
	resp, err := rt.RoundTrip(req)
	timer.Stop()
	if err != nil && call.body != nil && call.body.failed.Load() && !call.body.over.Load() {
		// The client's body failed, not the backend: no breaker failure,
		// no failover (docs/security.md).
		cancel(nil)
		return nil, upstream.Verdict{}, errRequestBody
	}
	if err != nil {
		ue := classifyGateway(ctx, actx, err)
		cancel(nil)
		failover := !gotConn.Load() || rb == nil || rb.replayable()
		return nil, upstream.Verdict{Failure: upstream.IsBackendFailure(0, ue), Failover: failover && ue.Kind != upstream.KindCanceled}, ue
	}
	// The answer streams after the attempt returns: its place in the
	// backend's limiter is held until the relay closes the body.
	release := upstream.KeepSlot(ctx)
	resp.Body = &cancelOnClose{ReadCloser: resp.Body, cancel: func() { cancel(nil); release() }}
	return resp, upstream.Verdict{Failure: upstream.IsFailedAnswer(resp.StatusCode, resp.Header.Get("Content-Type"))}, nil
}

// classifyGateway turns a transport failure into an *upstream.Error: the
// attempt's timer or a network timeout is a timeout, the client going away
// a cancellation, the rest unreachable.
func classifyGateway(parent, attempt context.Context, err error) *upstream.Error {
	var ue *upstream.Error
	if errors.As(err, &ue) {
		return ue
	}
	kind := upstream.KindUnreachable
	var ne net.Error
	switch {
	case errors.Is(context.Cause(attempt), errHeaderTimeout):
		kind = upstream.KindTimeout
	case errors.As(err, &ne) && ne.Timeout():
		kind = upstream.KindTimeout
	case parent.Err() != nil:
		kind = upstream.KindCanceled
	}
	return &upstream.Error{Kind: kind, Err: err}
}

// cancelOnClose ends the attempt's context when the relay is done with the
// response body.
type cancelOnClose struct {
	io.ReadCloser
	cancel func()
}

func (c *cancelOnClose) Close() error {
	err := c.ReadCloser.Close()
	c.cancel()
	return err
}

// replayBody is the request body shared by the attempts of one request. It
// keeps the bytes read so far while they fit in replayCap, so a later
// attempt reads them again before continuing from the source; past the cap
// it keeps nothing and no further attempt is possible.
type replayBody struct {
	mu   sync.Mutex
	src  io.ReadCloser
	buf  []byte
	over bool
	gen  int
}

// attempt returns the body of a new attempt; reads of earlier attempts
// fail from now on (a transport goroutine may still hold them).
func (rb *replayBody) attempt() io.ReadCloser {
	rb.mu.Lock()
	defer rb.mu.Unlock()
	rb.gen++
	return &attemptBody{rb: rb, gen: rb.gen}
}

// replayable reports whether everything read so far is still held.
func (rb *replayBody) replayable() bool {
	rb.mu.Lock()
	defer rb.mu.Unlock()
	return !rb.over
}

type attemptBody struct {
	rb  *replayBody
	gen int
	off int
}

func (a *attemptBody) Read(p []byte) (int, error) {
	rb := a.rb
	rb.mu.Lock()
	defer rb.mu.Unlock()
	if a.gen != rb.gen {
		return 0, errStaleAttempt
	}
	if !rb.over && a.off < len(rb.buf) {
		n := copy(p, rb.buf[a.off:])
		a.off += n
		return n, nil
	}
	n, err := rb.src.Read(p)
	if !rb.over {
		if len(rb.buf)+n <= replayCap {
			rb.buf = append(rb.buf, p[:n]...)
			a.off += n
		} else {
			rb.over, rb.buf = true, nil
		}
	}
	return n, err
}

// Close does not close the source: another attempt may still need it;
// the server closes the request body when the handler returns.
func (a *attemptBody) Close() error { return nil }
