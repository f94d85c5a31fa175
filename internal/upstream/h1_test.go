package upstream_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/upstream"
)

// rawBackend is a loopback HTTP/1.1 server scripted per request: answer
// gets the connection's number (from 1), the request's number on it and
// the request, and writes the raw answer; it returns false to close the
// connection.
type rawBackend struct {
	ln    net.Listener
	conns atomic.Int32
}

func newRawBackend(t *testing.T, answer func(conn, n int, req *http.Request, w *bufio.Writer) bool) *rawBackend {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	rb := &rawBackend{ln: ln}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			id := int(rb.conns.Add(1))
			go func() {
				defer c.Close()
				br, bw := bufio.NewReader(c), bufio.NewWriter(c)
				for n := 1; ; n++ {
					req, err := http.ReadRequest(br)
					if err != nil {
						return
					}
					io.Copy(io.Discard, req.Body)
					keep := answer(id, n, req, bw)
					bw.Flush()
					if !keep {
						return
					}
				}
			}()
		}
	}()
	return rb
}

func (rb *rawBackend) url() string { return "http://" + rb.ln.Addr().String() + "/svc" }

func post(t *testing.T, c *upstream.Client, b upstream.Backend, body string) (*upstream.Response, error) {
	t.Helper()
	return c.Do(context.Background(), b, upstream.Request{Body: []byte(body), Retries: intp(0),
		Header: http.Header{"Content-Type": {"text/xml"}}})
}

const okAnswer = "HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Length: 2\r\n\r\nok"

// TestDirectClientKeepAlive: small in-memory bodies reuse one connection;
// chunked answers, informational 1xx answers and bodiless answers keep it
// too; "Connection: close" and HTTP/1.0 answers do not.
func TestDirectClientKeepAlive(t *testing.T) {
	answers := []string{
		okAnswer,
		"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n" + okAnswer,
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\no\r\n1\r\nk\r\n0\r\n\r\n",
		"HTTP/1.1 204 No Content\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok",
		"HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok",
		okAnswer,
	}
	var i atomic.Int32
	rb := newRawBackend(t, func(_, _ int, req *http.Request, w *bufio.Writer) bool {
		a := answers[i.Add(1)-1]
		w.WriteString(a)
		return !strings.Contains(a, "close") && !strings.HasPrefix(a, "HTTP/1.0")
	})
	c := upstream.NewClient()
	defer c.Close()
	b := backend(rb.url())
	wantConns := []int32{1, 1, 1, 1, 1, 2, 3}
	for k, a := range answers {
		resp, err := post(t, c, b, "<x/>")
		if err != nil {
			t.Fatalf("answer %d: %v", k, err)
		}
		want := "ok"
		if strings.Contains(a, "204") {
			want = ""
		}
		if string(resp.Body) != want {
			t.Errorf("answer %d: body %q", k, resp.Body)
		}
		if got := rb.conns.Load(); got != wantConns[k] {
			t.Errorf("after answer %d: %d connections, want %d", k, got, wantConns[k])
		}
	}
}

// TestDirectClientIdleClosedByBackend: a pooled connection the backend
// closed while it was idle is not used again: the next call dials.
func TestDirectClientIdleClosedByBackend(t *testing.T) {
	rb := newRawBackend(t, func(_, _ int, _ *http.Request, w *bufio.Writer) bool {
		w.WriteString(okAnswer)
		return false // answers, then closes without "Connection: close"
	})
	c := upstream.NewClient()
	defer c.Close()
	b := backend(rb.url())
	for k := 0; k < 3; k++ {
		if k > 0 {
			time.Sleep(50 * time.Millisecond) // let the FIN arrive
		}
		if _, err := post(t, c, b, "<x/>"); err != nil {
			t.Fatalf("call %d: %v", k, err)
		}
	}
	if got := rb.conns.Load(); got != 3 {
		t.Errorf("%d connections, want 3", got)
	}
}

// TestDirectClientReusedConnRace: the backend closes a reused connection
// on reading the next request, before answering. A POST is not sent again
// (it may have been acted on); a request with an Idempotency-Key is, on a
// new connection.
func TestDirectClientReusedConnRace(t *testing.T) {
	rb := newRawBackend(t, func(_, n int, _ *http.Request, w *bufio.Writer) bool {
		if n == 2 {
			return false
		}
		w.WriteString(okAnswer)
		return true
	})
	c := upstream.NewClient()
	defer c.Close()
	b := backend(rb.url())
	if _, err := post(t, c, b, "<x/>"); err != nil {
		t.Fatal(err)
	}
	if _, err := post(t, c, b, "<x/>"); upstream.KindOf(err) != upstream.KindUnreachable {
		t.Fatalf("POST on a connection closed before the answer: %v, want unreachable", err)
	}
	if _, err := post(t, c, b, "<x/>"); err != nil { // fresh connection (2)
		t.Fatal(err)
	}
	resp, err := c.Do(context.Background(), b, upstream.Request{Body: []byte("<x/>"), Retries: intp(0),
		Header: http.Header{"Idempotency-Key": {"k1"}}})
	if err != nil || string(resp.Body) != "ok" {
		t.Fatalf("idempotent request not sent again: %v", err)
	}
	// connections: 1 (closed on its 2nd request), 2 (the third call,
	// then closed on the idempotent one), 3 (its second sending)
	if got := rb.conns.Load(); got != 3 {
		t.Errorf("%d connections, want 3", got)
	}
}

// TestDirectClientFailures: a head over the limit, a body cut short and a
// backend hanging mid-body are errors of the right kind, and their
// connections are not reused.
func TestDirectClientFailures(t *testing.T) {
	hang := make(chan struct{})
	defer close(hang)
	rb := newRawBackend(t, func(_, _ int, req *http.Request, w *bufio.Writer) bool {
		switch req.Header.Get("X-Case") {
		case "big-head":
			w.WriteString("HTTP/1.1 200 OK\r\nX-Big: " + strings.Repeat("a", 2<<20) + "\r\n\r\n")
		case "short":
			w.WriteString("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc")
		case "hang":
			w.WriteString("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc")
			w.Flush()
			<-hang
		}
		return false
	})
	c := upstream.NewClient()
	defer c.Close()
	b := backend(rb.url())
	for _, tc := range []struct {
		name string
		kind upstream.Kind
	}{{"big-head", upstream.KindUnreachable}, {"short", upstream.KindUnreachable}, {"hang", upstream.KindTimeout}} {
		_, err := c.Do(context.Background(), b, upstream.Request{Body: []byte("<x/>"), Retries: intp(0),
			Timeout: 300 * time.Millisecond, Header: http.Header{"X-Case": {tc.name}}})
		if upstream.KindOf(err) != tc.kind {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.kind)
		}
	}
}

// TestDirectClientCancel: the caller's context ending while the backend
// has not answered is a cancellation, not a timeout.
func TestDirectClientCancel(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	rb := newRawBackend(t, func(_, _ int, _ *http.Request, _ *bufio.Writer) bool { <-release; return false })
	c := upstream.NewClient()
	defer c.Close()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	_, err := c.Do(ctx, backend(rb.url()), upstream.Request{Body: []byte("<x/>"), Retries: intp(0)})
	if upstream.KindOf(err) != upstream.KindCanceled || !errors.Is(err, context.Canceled) {
		t.Fatalf("%v, want canceled", err)
	}
}

// TestDirectClientLargeBodyStreams: a body over the direct client's limit
// still arrives whole (net/http's Transport sends it).
func TestDirectClientLargeBodyStreams(t *testing.T) {
	body := strings.Repeat("x", 200<<10)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		fmt.Fprint(w, len(b))
	}))
	defer srv.Close()
	c := upstream.NewClient()
	defer c.Close()
	resp, err := post(t, c, backend(srv.URL), body)
	if err != nil || string(resp.Body) != fmt.Sprint(len(body)) {
		t.Fatalf("%v %q", err, resp.Body)
	}
}

// TestDirectClientBodyEOF: a body read to its end keeps answering EOF, as
// net/http's bodies do, and a body closed early is an error to read.
func TestDirectClientBodyEOF(t *testing.T) {
	rb := newRawBackend(t, func(_, _ int, _ *http.Request, w *bufio.Writer) bool {
		w.WriteString(okAnswer)
		return true
	})
	c := upstream.NewClient()
	defer c.Close()
	for _, early := range []bool{false, true} {
		req, _ := http.NewRequest("POST", rb.url(), strings.NewReader("<x/>"))
		rt, err := c.Prepare(context.Background(), backend(rb.url()), req)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := rt.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		if early {
			resp.Body.Close()
			if _, err := resp.Body.Read(make([]byte, 1)); err == nil || err == io.EOF {
				t.Errorf("read after an early close: %v", err)
			}
			continue
		}
		if b, err := io.ReadAll(resp.Body); err != nil || string(b) != "ok" {
			t.Fatalf("%q %v", b, err)
		}
		if n, err := resp.Body.Read(make([]byte, 1)); n != 0 || err != io.EOF {
			t.Errorf("read after EOF: %d %v", n, err)
		}
		resp.Body.Close()
	}
}
