package engine

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// start serves h on a loopback port with the listener's settings and
// returns the address; the server closes with the test.
func start(t *testing.T, h http.Handler, tune ...func(*Server)) (string, *Server) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 120 * time.Second, MaxHeaderBytes: 1 << 20}
	for _, f := range tune {
		f(s)
	}
	done := make(chan error, 1)
	go func() { done <- s.Serve(ln) }()
	t.Cleanup(func() {
		s.Close()
		if err := <-done; !errors.Is(err, ErrServerClosed) {
			t.Errorf("Serve: %v", err)
		}
	})
	return ln.Addr().String(), s
}

// dial opens a raw connection with a deadline.
func dial(t *testing.T, addr string) (net.Conn, *bufio.Reader) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(5 * time.Second))
	return c, bufio.NewReader(c)
}

func readResp(t *testing.T, br *bufio.Reader, method string) (*http.Response, string) {
	t.Helper()
	resp, err := http.ReadResponse(br, &http.Request{Method: method})
	if err != nil {
		t.Fatalf("read response: %v", err)
	}
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("read body: %v", err)
	}
	return resp, string(b)
}

func TestKeepAliveAndFraming(t *testing.T) {
	addr, _ := start(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		switch r.URL.Path {
		case "/small":
			w.Write([]byte("<a>" + string(b) + "</a>"))
		case "/big":
			w.Write([]byte(strings.Repeat("x", 10000)))
		case "/declared":
			w.Header().Set("Content-Length", "3")
			w.Write([]byte("abc"))
		case "/empty":
			w.WriteHeader(http.StatusNoContent)
			if _, err := w.Write([]byte("no")); err != http.ErrBodyNotAllowed {
				t.Errorf("Write on 204: %v", err)
			}
		}
	}))
	c, br := dial(t, addr)
	io.WriteString(c, "POST /small HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi"+
		"GET /big HTTP/1.1\r\nHost: x\r\n\r\n"+
		"HEAD /small HTTP/1.1\r\nHost: x\r\n\r\n"+
		"GET /declared HTTP/1.1\r\nHost: x\r\n\r\n"+
		"GET /empty HTTP/1.1\r\nHost: x\r\n\r\n")
	resp, body := readResp(t, br, "POST")
	if body != "<a>hi</a>" || resp.ContentLength != 9 || resp.Header.Get("Content-Type") != http.DetectContentType([]byte(body)) || resp.Header.Get("Date") == "" {
		t.Fatalf("small: %d %q %v", resp.ContentLength, body, resp.Header)
	}
	resp, body = readResp(t, br, "GET")
	if len(body) != 10000 || resp.TransferEncoding[0] != "chunked" {
		t.Fatalf("big: %d bytes, %v", len(body), resp.TransferEncoding)
	}
	resp, body = readResp(t, br, "HEAD")
	if body != "" || resp.ContentLength != int64(len("<a></a>")) {
		t.Fatalf("head: %d %q", resp.ContentLength, body)
	}
	if _, body = readResp(t, br, "GET"); body != "abc" {
		t.Fatalf("declared: %q", body)
	}
	if resp, _ = readResp(t, br, "GET"); resp.StatusCode != 204 || resp.Close {
		t.Fatalf("empty: %d close=%v", resp.StatusCode, resp.Close)
	}
}

func TestExpectContinue(t *testing.T) {
	addr, _ := start(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/refuse" {
			w.WriteHeader(http.StatusRequestEntityTooLarge)
			return
		}
		b, _ := io.ReadAll(r.Body)
		w.Write(b)
	}))
	c, br := dial(t, addr)
	io.WriteString(c, "POST /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
	if line, _ := br.ReadString('\n'); line != "HTTP/1.1 100 Continue\r\n" {
		t.Fatalf("interim %q", line)
	}
	br.ReadString('\n')
	io.WriteString(c, "body")
	if _, body := readResp(t, br, "POST"); body != "body" {
		t.Fatalf("echo %q", body)
	}
	// Refused before the body was asked for: no 100, and the
	// connection closes (the client may or may not send the body).
	io.WriteString(c, "POST /refuse HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
	if resp, _ := readResp(t, br, "POST"); resp.StatusCode != 413 || !resp.Close {
		t.Fatalf("refuse: %d close=%v", resp.StatusCode, resp.Close)
	}
}

// TestFlushSendsHead: a flushed answer reaches the client at once, before
// the handler ends (a streamed relay must not wait for 4 KB).
func TestFlushSendsHead(t *testing.T) {
	release := make(chan struct{})
	addr, _ := start(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("first"))
		http.NewResponseController(w).Flush()
		<-release
		w.Write([]byte("second"))
	}))
	c, br := dial(t, addr)
	io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 5)
	if _, err := io.ReadFull(resp.Body, buf); err != nil || string(buf) != "first" {
		t.Fatalf("first bytes %q %v", buf, err)
	}
	close(release)
	if rest, _ := io.ReadAll(resp.Body); string(rest) != "second" {
		t.Fatalf("rest %q", rest)
	}
}

// TestAbortHandlerCutsConnection: http.ErrAbortHandler mid-answer ends
// the connection without completing the answer, and the server goes on.
func TestAbortHandlerCutsConnection(t *testing.T) {
	addr, _ := start(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(strings.Repeat("y", 6000)))
		panic(http.ErrAbortHandler)
	}))
	resp, err := http.Get("http://" + addr + "/")
	if err == nil {
		_, err = io.ReadAll(resp.Body)
		resp.Body.Close()
	}
	if err == nil {
		t.Fatal("a cut answer read as complete")
	}
}

// TestClientGoneCancels: a request still running when its client closes
// the connection sees its context canceled.
func TestClientGoneCancels(t *testing.T) {
	canceled := make(chan error, 1)
	addr, _ := start(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body) // as net/http, watched once the body was read
		select {
		case <-r.Context().Done():
			canceled <- r.Context().Err()
		case <-time.After(5 * time.Second):
			canceled <- nil
		}
	}))
	c, _ := dial(t, addr)
	io.WriteString(c, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi")
	time.Sleep(2 * watchAfter)
	c.Close()
	if err := <-canceled; !errors.Is(err, context.Canceled) {
		t.Fatalf("context: %v, want canceled", err)
	}
}

// TestPipelinedWhileWatched: a request kept long enough to be watched
// does not lose the start of the next one the watch read.
func TestPipelinedWhileWatched(t *testing.T) {
	addr, _ := start(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			time.Sleep(3 * watchAfter)
		}
		w.Write([]byte(r.URL.Path))
	}))
	c, br := dial(t, addr)
	io.WriteString(c, "GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
	time.Sleep(2 * watchAfter)
	io.WriteString(c, "GET /next HTTP/1.1\r\nHost: x\r\n\r\n")
	if _, body := readResp(t, br, "GET"); body != "/slow" {
		t.Fatalf("first %q", body)
	}
	if _, body := readResp(t, br, "GET"); body != "/next" {
		t.Fatalf("second %q", body)
	}
}

// TestHeaderTimeout: a client that starts a head and stalls (slowloris)
// is disconnected after ReadHeaderTimeout, an idle one after IdleTimeout.
func TestHeaderTimeout(t *testing.T) {
	addr, _ := start(t, http.NotFoundHandler(), func(s *Server) {
		s.ReadHeaderTimeout, s.IdleTimeout = 100*time.Millisecond, 200*time.Millisecond
	})
	for _, sent := range []string{"GET / HTTP/1.1\r\nHost:", ""} {
		c, _ := dial(t, addr)
		io.WriteString(c, sent)
		began := time.Now()
		if _, err := c.Read(make([]byte, 1)); err != io.EOF {
			t.Fatalf("%q: read %v, want EOF", sent, err)
		}
		if d := time.Since(began); d > 2*time.Second {
			t.Fatalf("%q: closed after %v", sent, d)
		}
	}
}

// TestLongHead: a head longer than the read buffer is served; one over
// the limit is refused through Refusal.
func TestLongHead(t *testing.T) {
	addr, _ := start(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if reason := r.Header.Get("Refused"); reason != "" {
			w.Header().Set("Connection", "close")
			http.Error(w, reason, http.StatusBadRequest)
			return
		}
		w.Write([]byte(r.Header.Get("X-Long")[:3]))
	}), func(s *Server) {
		s.MaxHeaderBytes = 64 << 10
		s.Refusal = func(reason string) *http.Request {
			return &http.Request{Method: "GET", Header: http.Header{"Refused": {reason}}, Body: http.NoBody,
				Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}
		}
	})
	c, br := dial(t, addr)
	io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\nX-Long: "+strings.Repeat("l", 20000)+"\r\n\r\n")
	if _, body := readResp(t, br, "GET"); body != "lll" {
		t.Fatalf("long head: %q", body)
	}
	io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\nX-Long: "+strings.Repeat("l", 80000)+"\r\n\r\n")
	if resp, body := readResp(t, br, "GET"); resp.StatusCode != 400 || !strings.Contains(body, "over") {
		t.Fatalf("over-long head: %d %q", resp.StatusCode, body)
	}
}

// TestShutdownDrains: Shutdown waits for the request in flight (answered
// with Connection: close) and closes idle connections at once.
func TestShutdownDrains(t *testing.T) {
	inHandler := make(chan struct{})
	var finished atomic.Bool
	addr, s := start(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			close(inHandler)
			time.Sleep(200 * time.Millisecond)
			finished.Store(true)
		}
		w.Write([]byte("done"))
	}))
	idle, idleBR := dial(t, addr)
	io.WriteString(idle, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	readResp(t, idleBR, "GET")
	busy, busyBR := dial(t, addr)
	io.WriteString(busy, "GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
	<-inHandler
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil || !finished.Load() {
		t.Fatalf("Shutdown: %v, handler finished %v", err, finished.Load())
	}
	if resp, body := readResp(t, busyBR, "GET"); body != "done" || !resp.Close {
		t.Fatalf("in-flight answer %q close=%v", body, resp.Close)
	}
	if _, err := idle.Read(make([]byte, 1)); err != io.EOF {
		t.Fatalf("idle connection: %v, want EOF", err)
	}
}

// TestTrailers: trailers declared in the head, or set with
// http.TrailerPrefix, follow a chunked body.
func TestTrailers(t *testing.T) {
	addr, _ := start(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Trailer", "X-Sum")
		w.Write([]byte("body"))
		w.Header().Set("X-Sum", "42")
		w.Header().Set(http.TrailerPrefix+"X-Late", "yes")
	}))
	resp, err := http.Get("http://" + addr + "/")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "body" || resp.Trailer.Get("X-Sum") != "42" || resp.Trailer.Get("X-Late") != "yes" {
		t.Fatalf("body %q trailers %v", b, resp.Trailer)
	}
}
