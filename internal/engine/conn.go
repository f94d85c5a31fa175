package engine

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Connection states, for Shutdown: only an idle connection (waiting for
// a request's first byte) is closed under its feet.
const (
	stateActive int32 = iota
	stateIdle
	stateClosed
)

// drainLimit is how much of a body the handler left unread is read to
// keep the connection (net/http's figure); past it the connection closes.
const drainLimit = 256 << 10

// readBufSize is the read buffer of a connection: a request head usually
// fits, a longer one is collected aside (readLongHead).
const readBufSize = 4 << 10

var readers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, readBufSize) }}

// conn is one client connection, served by one goroutine.
type conn struct {
	srv    *Server
	rwc    net.Conn
	remote string
	state  atomic.Int32
	br     *bufio.Reader
	src    connReader // br's source
	long   []byte     // a head over the read buffer
	// longHead: the head is in long and already discarded from br.
	longHead bool
	// lastMethod is the method of the request answered last.
	lastMethod string
	out        writer
	body       body
	resp       response
	// watch is the client-gone watch of the current request (watch.go).
	watch watch
}

func newConn(s *Server, rwc net.Conn) *conn {
	c := &conn{srv: s, rwc: rwc, remote: rwc.RemoteAddr().String()}
	c.src.c = c
	c.out.c = rwc
	return c
}

// serve reads and answers requests until the connection ends.
func (c *conn) serve() {
	c.br = readers.Get().(*bufio.Reader)
	c.br.Reset(&c.src)
	defer c.close()
	ctx := c.srv.baseContext()
	for {
		keep, err := c.serveOne(ctx)
		if !keep || err != nil || c.srv.shutdown.Load() {
			return
		}
	}
}

// serveOne reads one request and answers it; keep reports whether the
// connection may carry another.
func (c *conn) serveOne(base context.Context) (keep bool, err error) {
	head, err := c.nextHead()
	if err != nil {
		return false, c.headFailed(err)
	}
	f, reason := CheckHead(head)
	var p parsed
	if reason == "" {
		p, err = parseHead(head, f)
	}
	c.consumeHead(head)
	var bad badRequest
	switch {
	case reason != "":
		return false, c.refuse(base, reason)
	case errors.As(err, &bad):
		return false, c.refuse(base, bad.reason)
	case errors.Is(err, errExpectation):
		c.out.raw("HTTP/1.1 417 Expectation Failed\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n")
		return false, nil
	}
	return c.handle(base, p)
}

// nextHead waits for the next request (idle) and reads its head within
// the header timeout.
func (c *conn) nextHead() ([]byte, error) {
	if c.br.Buffered() == 0 {
		c.state.Store(stateIdle)
		if d := c.srv.IdleTimeout; d > 0 {
			c.rwc.SetReadDeadline(time.Now().Add(d))
		}
		_, err := c.br.Peek(1)
		if !c.state.CompareAndSwap(stateIdle, stateActive) {
			return nil, net.ErrClosed // Shutdown closed it
		}
		if err != nil {
			return nil, err
		}
	}
	c.state.Store(stateActive)
	if d := c.srv.ReadHeaderTimeout; d > 0 {
		c.rwc.SetReadDeadline(time.Now().Add(d))
	}
	head, err := c.readHead()
	c.rwc.SetReadDeadline(time.Time{})
	return head, err
}

// headFailed ends a connection whose head could not be read: an over-long
// head is refused; a closed connection, a timeout or a truncated head
// ends it without an answer (the client is gone or too slow).
func (c *conn) headFailed(err error) error {
	if errors.Is(err, errHeadTooLarge) {
		return c.refuse(c.srv.baseContext(), "the request head is over 1 MB")
	}
	return err
}

// consumeHead drops the head's bytes from the read buffer.
func (c *conn) consumeHead(head []byte) {
	if c.longHead {
		c.longHead = false
		if cap(c.long) > 64<<10 {
			c.long = nil // a rare long head does not pin its buffer to the connection
		}
		return
	}
	c.br.Discard(len(head))
}

// refuse answers a refused head through the handler chain and ends the
// connection after the answer.
func (c *conn) refuse(base context.Context, reason string) error {
	if c.srv.Refusal == nil {
		c.out.raw("HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n400 Bad Request")
		return nil
	}
	r := c.srv.Refusal(reason)
	r.RemoteAddr, r.Close = c.remote, true
	ctx, cancel := context.WithCancel(base)
	defer cancel()
	c.resp.reset(c, r.WithContext(ctx))
	c.run(c.srv.Handler, c.resp.req)
	c.resp.finish()
	return nil
}

// handle runs the handler for p and finishes its answer.
func (c *conn) handle(base context.Context, p parsed) (bool, error) {
	r := p.req
	r.RemoteAddr = c.remote
	if p.framing.Chunked || p.framing.Length > 0 {
		c.body.reset(c, p)
		r.Body = &c.body
	} else {
		c.body.reset(c, parsed{})
		c.body.err = io.EOF
	}
	ctx, cancel := context.WithCancel(base)
	defer cancel()
	r = r.WithContext(ctx)
	c.resp.reset(c, r)
	c.watch.begin(c, cancel, c.body.err != nil)
	h := c.srv.Handler
	if r.Method == http.MethodOptions && r.RequestURI == "*" {
		h = optionsStar // answered by the server, as net/http does
	}
	ok := c.run(h, r)
	c.watch.end()
	if !ok {
		return false, errAborted
	}
	if !c.body.drain(drainLimit) {
		c.resp.closeAfter = true
	}
	c.resp.finish()
	c.lastMethod = r.Method
	return !c.resp.closeAfter && !c.watch.gone, c.out.err
}

// errAborted: the handler panicked; the connection ends.
var errAborted = errors.New("handler aborted")

// run calls the handler; a panic (http.ErrAbortHandler from a relay cut
// mid-stream, or a bug the recovery middleware did not catch) ends the
// connection after what was already committed to it, as net/http does.
func (c *conn) run(h http.Handler, r *http.Request) (ok bool) {
	defer func() {
		if v := recover(); v != nil {
			if v != http.ErrAbortHandler {
				buf := make([]byte, 16<<10)
				buf = buf[:runtime.Stack(buf, false)]
				c.srv.logger().Error("panic serving request", "remoteAddr", c.remote, "panic", v, "stack", string(buf))
			}
			c.out.flush()
			ok = false
		}
	}()
	h.ServeHTTP(&c.resp, r)
	return true
}

// optionsStar answers "OPTIONS *", a request about the server itself.
var optionsStar = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Length", "0")
})

// writeContinue answers Expect: 100-continue before the body is read.
func (c *conn) writeContinue() error {
	if c.resp.headSent {
		return nil // the answer began: the client reads it instead
	}
	c.out.raw("HTTP/1.1 100 Continue\r\n\r\n")
	return c.out.err
}

// close flushes and closes the connection. When the client may still be
// sending (a refused or unread request), the write side is closed first
// and the connection lingers (lingerUnread).
func (c *conn) close() {
	c.out.flush()
	c.out.release()
	if c.state.Swap(stateClosed) != stateClosed {
		if tc, ok := c.rwc.(*net.TCPConn); ok && c.resp.closeAfter {
			tc.CloseWrite()
			lingerUnread(tc)
		}
		c.rwc.Close()
	}
	c.br.Reset(nil)
	readers.Put(c.br)
	c.srv.track(c, false)
}

// rstAvoidance is how long a connection closed with unread input is kept
// open after its answer (net/http waits as long).
const rstAvoidance = 500 * time.Millisecond

// lingerDrain bounds what is read while lingering: a client still sending
// a huge refused body is then left to its full socket buffers, not read
// at the server's expense.
const lingerDrain = 256 << 10

// lingerUnread keeps a connection whose write side is closed open for
// rstAvoidance, so the kernel does not reset it (destroying the answer
// in flight) while the client still sends. It returns early when the
// client closes; after lingerDrain bytes it stops reading and waits out
// the rest.
func lingerUnread(tc *net.TCPConn) {
	deadline := time.Now().Add(rstAvoidance)
	tc.SetReadDeadline(deadline)
	n, err := io.CopyN(io.Discard, tc, lingerDrain)
	if n == lingerDrain && err == nil {
		time.Sleep(time.Until(deadline))
	}
}

// connReader is the source of the read buffer: a byte the client-gone
// watch read ahead comes first.
type connReader struct {
	c *conn
}

func (r *connReader) Read(p []byte) (int, error) {
	if w := &r.c.watch; w.held && len(p) > 0 {
		p[0], w.held = w.byte, false
		return 1, nil
	}
	return r.c.rwc.Read(p)
}
