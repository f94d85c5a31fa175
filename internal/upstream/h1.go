package upstream

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"sync"
	"time"
)

// h1MaxBody is the largest request body the direct HTTP/1.1 client sends:
// the body is in memory and small enough to leave in one write that the
// kernel's socket buffers absorb, so writing it cannot block on a backend
// that answers early without reading it. Larger and streamed bodies go
// through net/http's Transport, which reads the answer while it writes.
const h1MaxBody = 64 << 10

// h1MaxHeader bounds the response head a backend may send (net/http's
// Transport default is larger; a SOAP backend's head is a few hundred
// bytes).
const h1MaxHeader = 1 << 20

// h1Client is a synchronous HTTP/1.1 keep-alive client for requests whose
// body is in memory: the caller's goroutine writes the request (head and
// body in one write) and reads the answer on a pooled connection. Against
// net/http's Transport it saves the two goroutines per connection and the
// channel hand-offs per request (about a quarter of a bare
// httputil.ReverseProxy's CPU per 1 KB request, docs/PERFORMANCE.md) and
// the 32 KB copy buffer per request body. Connections idle in the pool are
// checked for a close by the backend before reuse.
type h1Client struct {
	dialTCP     func(ctx context.Context, network, addr string) (net.Conn, error)
	tls         *tls.Config // nil: https is not offered to this client
	tlsTimeout  time.Duration
	idleTimeout time.Duration
	maxIdle     int // per scheme and host

	mu   sync.Mutex
	idle map[string][]*h1Conn
}

// h1Conn is one backend connection.
type h1Conn struct {
	c         net.Conn
	key       string
	idleSince time.Time
	reused    bool
}

// accepts reports whether req can take the direct path: http or https, no
// upgrade or 100-continue handshake, and no body or an in-memory one
// (GetBody set, as http.NewRequest does for byte readers) of known, small
// length.
func (h *h1Client) accepts(req *http.Request) bool {
	switch req.URL.Scheme {
	case "http":
	case "https":
		if h.tls == nil {
			return false
		}
	default:
		return false
	}
	if req.Method == http.MethodConnect || req.Header.Get("Expect") != "" || req.Header.Get("Upgrade") != "" {
		return false
	}
	if req.Body == nil || req.Body == http.NoBody {
		return true
	}
	return req.GetBody != nil && req.ContentLength > 0 && req.ContentLength <= h1MaxBody
}

// errNothingRead marks a failure before the first byte of the answer.
var errNothingRead = errors.New("connection closed before the answer began")

// RoundTrip sends req and returns the answer; its body must be read to
// the end (the connection goes back to the pool) or closed (the
// connection is closed).
func (h *h1Client) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	key := req.URL.Scheme + "://" + urlHostPort(req.URL)
	for retried := false; ; retried = true {
		pc, err := h.get(ctx, key, req)
		if err != nil {
			return nil, ctxErr(ctx, err)
		}
		if tr := httptrace.ContextClientTrace(ctx); tr != nil && tr.GotConn != nil {
			tr.GotConn(httptrace.GotConnInfo{Conn: pc.c, Reused: pc.reused, WasIdle: pc.reused})
		}
		resp, err := h.exchange(ctx, pc, req)
		if err == nil {
			return resp, nil
		}
		// A reused connection the backend closed just as it was taken:
		// the request was written, so it is sent again on a new one only
		// when that cannot repeat an action (the net/http Transport's rule).
		if retried || !pc.reused || !errors.Is(err, errNothingRead) || ctx.Err() != nil || !replayable(req) {
			return nil, ctxErr(ctx, err)
		}
		if req.Body != nil && req.Body != http.NoBody {
			body, gerr := req.GetBody()
			if gerr != nil {
				return nil, err
			}
			req = req.Clone(ctx)
			req.Body = body
		}
	}
}

// replayable is net/http's rule for sending a request a second time.
func replayable(req *http.Request) bool {
	switch req.Method {
	case "", http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace:
		return true
	}
	return req.Header.Get("Idempotency-Key") != "" || req.Header.Get("X-Idempotency-Key") != ""
}

// ctxErr reports a failure caused by the request's context as the
// context's error (cancellation is not a network timeout).
func ctxErr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%w (%v)", context.Cause(ctx), err)
	}
	return err
}

// exchange writes req on pc and reads the answer's head.
func (h *h1Client) exchange(ctx context.Context, pc *h1Conn, req *http.Request) (*http.Response, error) {
	stop := context.AfterFunc(ctx, func() { pc.c.SetDeadline(time.Unix(1, 0)) })
	fail := func(err error) (*http.Response, error) {
		stop()
		pc.c.Close()
		return nil, err
	}
	bw := writerPool.Get().(*bufio.Writer)
	bw.Reset(pc.c)
	err := writeRequest(bw, req)
	if err == nil {
		err = bw.Flush()
	}
	bw.Reset(nil)
	writerPool.Put(bw)
	if err != nil {
		return fail(fmt.Errorf("write request: %w", err))
	}
	lr := &headLimit{r: pc.c, n: h1MaxHeader}
	br := readerPool.Get().(*bufio.Reader)
	br.Reset(lr)
	release := func() { br.Reset(nil); readerPool.Put(br) }
	if _, err := br.Peek(1); err != nil {
		release()
		if errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed) || isConnReset(err) {
			err = fmt.Errorf("%w: %w", errNothingRead, err)
		}
		return fail(fmt.Errorf("read response: %w", err))
	}
	resp, err := http.ReadResponse(br, req)
	for err == nil && resp.StatusCode >= 100 && resp.StatusCode < 200 {
		if resp.StatusCode == http.StatusSwitchingProtocols {
			err = errors.New("backend switched protocols")
			break
		}
		resp, err = http.ReadResponse(br, req) // 100 Continue, 103 Early Hints: informational
	}
	if err != nil {
		release()
		if errors.Is(err, errHeadTooLarge) {
			err = fmt.Errorf("response head over %d bytes", h1MaxHeader)
		}
		return fail(fmt.Errorf("read response: %w", err))
	}
	lr.n = -1 // the body is bounded by the caller
	b := &h1Body{h: h, pc: pc, br: br, src: resp.Body, ctx: ctx, stop: stop,
		keep: !resp.Close && !req.Close}
	if resp.Body == http.NoBody {
		b.finish(true)
		return resp, nil
	}
	resp.Body = b
	return resp, nil
}

var (
	writerPool = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, h1MaxBody+4<<10) }}
	readerPool = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 4<<10) }}
)

// headLimit reads from the connection, failing once n bytes were read
// while n >= 0 (the head of the answer is being parsed).
type headLimit struct {
	r io.Reader
	n int64
}

var errHeadTooLarge = errors.New("response head too large")

func (l *headLimit) Read(p []byte) (int, error) {
	if l.n < 0 {
		return l.r.Read(p)
	}
	if l.n == 0 {
		return 0, errHeadTooLarge
	}
	if int64(len(p)) > l.n {
		p = p[:l.n]
	}
	n, err := l.r.Read(p)
	l.n -= int64(n)
	return n, err
}

// h1Body is the answer's body; at its end the connection goes back to the
// pool when both sides allow keep-alive and nothing unread follows it.
type h1Body struct {
	h    *h1Client
	pc   *h1Conn
	br   *bufio.Reader
	src  io.ReadCloser
	ctx  context.Context
	stop func() bool
	keep bool

	mu   sync.Mutex
	done bool
	eof  bool // done because the body was read to its end
}

func (b *h1Body) Read(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.done {
		if b.eof {
			return 0, io.EOF
		}
		return 0, errors.New("read on a closed response body")
	}
	n, err := b.src.Read(p)
	switch {
	case err == io.EOF:
		b.finish(true)
	case err != nil:
		b.finish(false)
		err = ctxErr(b.ctx, err)
	}
	return n, err
}

// Close closes the connection unless the body was read to its end: what
// is left of it may be large or slow, so it is not drained.
func (b *h1Body) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.done {
		b.finish(false)
	}
	return nil
}

func (b *h1Body) finish(ok bool) {
	b.done, b.eof = true, ok
	stopped := b.stop()
	reuse := ok && b.keep && stopped && b.br.Buffered() == 0
	b.br.Reset(nil)
	readerPool.Put(b.br)
	if reuse {
		b.h.put(b.pc)
		return
	}
	b.pc.c.Close()
}
