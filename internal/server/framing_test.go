package server

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/apierr"
)

// framingServer runs a Listener whose handler (behind the framingRefusal
// middleware, as in the real chain) echoes the path and the body it read.
func framingServer(t *testing.T, engine bool) string {
	t.Helper()
	h := framingRefusal(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			apierr.Render(w, r, apierr.New(apierr.ValBadRequest, "body: "+err.Error()), apierr.RunInternal)
			return
		}
		w.Header().Set("X-Path", r.URL.Path)
		w.Header().Set("X-Refusal-Seen", r.Header.Get(framingHeader))
		w.Write(b)
	}))
	return runListener(t, h, engine)
}

// runListener runs a main Listener on a free loopback port with h, on the
// engine or on net/http, until the test ends, and returns its address.
func runListener(t testing.TB, h http.Handler, engine bool) string {
	t.Helper()
	addr := make(chan net.Addr, 1)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	l := Listener{Name: "main", Addr: "127.0.0.1:0", Handler: h, Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)),
		Engine: engine, OnReady: func(_ string, a net.Addr) { addr <- a }}
	go func() { done <- l.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	return (<-addr).String()
}

// answer is one response read off a raw connection.
type answer struct {
	status int
	path   string
	body   string
	close  bool
}

// exchange writes raw to a new connection and reads every answer until
// the server closes it (or 2 s pass).
func exchange(t *testing.T, addr, raw string) []answer {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(2 * time.Second))
	go io.WriteString(c, raw)
	br := bufio.NewReader(c)
	var out []answer
	for {
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			return out
		}
		b, _ := io.ReadAll(resp.Body)
		out = append(out, answer{resp.StatusCode, resp.Header.Get("X-Path"), string(b), resp.Close})
	}
}

// TestFramingRefusals runs on both servers: the engine of the main
// listener and net/http behind the framing check.
func TestFramingRefusals(t *testing.T) {
	for _, engine := range []bool{true, false} {
		t.Run(engineName(engine), func(t *testing.T) { testFramingRefusals(t, framingServer(t, engine)) })
	}
}

func testFramingRefusals(t *testing.T, addr string) {
	const next = "GET /next HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
	refused := []struct{ name, raw, reason string }{
		{"content-length and transfer-encoding", "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n", "both Content-Length and Transfer-Encoding"},
		{"transfer-encoding first", "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n", "both Content-Length and Transfer-Encoding"},
		{"differing lengths", "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 5\r\n\r\nabcde", "differing Content-Length"},
		{"invalid length", "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: +3\r\n\r\nabc", "invalid Content-Length"},
		{"obsolete fold", "POST /a HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\nContent-Length: 3\r\n\r\nabc", "obsolete folded"},
		{"folded transfer-encoding", "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding:\r\n chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n", "obsolete folded"},
		{"bare LF", "POST /a HTTP/1.1\nHost: x\nContent-Length: 3\n\nabc", "bare LF"},
		{"bare LF in one line", "POST /a HTTP/1.1\r\nHost: x\nContent-Length: 3\r\n\r\nabc", "bare LF"},
		{"bare CR", "POST /a HTTP/1.1\r\nHost: x\rX: y\r\nContent-Length: 3\r\n\r\nabc", "bare CR"},
		{"HTTP/1.0 chunked", "POST /a HTTP/1.0\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n", "HTTP/1.0"},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			got := exchange(t, addr, tt.raw+next)
			if len(got) != 1 || got[0].status != 400 || !got[0].close || !strings.Contains(got[0].body, "S2R-VAL-0400") ||
				!strings.Contains(got[0].body, tt.reason) {
				t.Fatalf("answers %+v, want one 400 S2R-VAL-0400 naming %q and the connection closed", got, tt.reason)
			}
		})
	}
	t.Run("refusal after a good request", func(t *testing.T) {
		got := exchange(t, addr, "POST /ok HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi"+refused[0].raw+next)
		if len(got) != 2 || got[0].status != 200 || got[0].body != "hi" || got[1].status != 400 {
			t.Fatalf("answers %+v, want 200 then 400", got)
		}
	})
	accepted := []struct{ name, raw, body string }{
		{"content-length", "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc", "abc"},
		{"equal lengths", "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabc", "abc"},
		{"chunked with extension and trailer", "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\nA\r\n0123456789\r\n0\r\nX-T: 1\r\n\r\n", "abc0123456789"},
		{"no body", "GET /a HTTP/1.1\r\nHost: x\r\n\r\n", ""},
	}
	for _, tt := range accepted {
		t.Run(tt.name, func(t *testing.T) {
			got := exchange(t, addr, tt.raw+next)
			if len(got) != 2 || got[0].status != 200 || got[0].body != tt.body || got[1].path != "/next" {
				t.Fatalf("answers %+v, want %q then /next on the same connection", got, tt.body)
			}
		})
	}
	for _, tt := range []struct{ name, raw string }{
		{"invalid chunk size", "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n"},
		{"negative chunk size", "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n-3\r\nabc\r\n0\r\n\r\n"},
		{"huge chunk size", "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffffff\r\nabc\r\n0\r\n\r\n"},
		{"chunk size with bare LF", "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\nabc\r\n0\r\n\r\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			// net/http refuses the body; the connection ends there.
			got := exchange(t, addr, tt.raw+next)
			if len(got) != 1 || got[0].status != 400 || !got[0].close {
				t.Fatalf("answers %+v, want one 400 and the connection closed", got)
			}
		})
	}
	t.Run("a client cannot send the refusal header", func(t *testing.T) {
		got := exchange(t, addr, "GET /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"+framingHeader+": guess reason\r\n\r\n")
		if len(got) != 1 || got[0].status != 200 {
			t.Fatalf("answers %+v, want the request served", got)
		}
	})
}

// scriptConn returns its data in the given chunk sizes, then EOF; with
// timeoutAfter > 0 it fails once with a timeout after that many bytes.
type scriptConn struct {
	net.Conn
	data         []byte
	chunks       []int
	timeoutAfter int
	read         int
}

// timeoutError is what a read past a deadline returns.
type timeoutError struct{}

func (timeoutError) Error() string   { return "i/o timeout" }
func (timeoutError) Timeout() bool   { return true }
func (timeoutError) Temporary() bool { return true }

func (s *scriptConn) Read(p []byte) (int, error) {
	if s.timeoutAfter > 0 && s.read >= s.timeoutAfter {
		s.timeoutAfter = 0
		return 0, timeoutError{}
	}
	if s.timeoutAfter > 0 {
		p = p[:min(len(p), s.timeoutAfter-s.read)]
	}
	if len(s.data) == 0 {
		return 0, io.EOF
	}
	n := len(s.data)
	if len(s.chunks) > 0 {
		n, s.chunks = max(1, min(n, s.chunks[0])), s.chunks[1:]
	}
	n = copy(p, s.data[:n])
	s.data, s.read = s.data[n:], s.read+n
	return n, nil
}

// TestFramingDeadlineMidHead: net/http ends its background read with a
// past deadline; a head half read at that moment is kept, not cut off.
func TestFramingDeadlineMidHead(t *testing.T) {
	head := "GET /a HTTP/1.1\r\nHost: x\r\nX-Big: " + strings.Repeat("b", 10000) + "\r\n\r\n"
	c := newStrictConn(&scriptConn{data: []byte(head), timeoutAfter: 5000}, "tok")
	var out bytes.Buffer
	buf := make([]byte, 512)
	timeouts := 0
	for {
		n, err := c.Read(buf)
		out.Write(buf[:n])
		if ne, ok := err.(net.Error); ok && ne.Timeout() {
			timeouts++
			continue
		}
		if err != nil {
			break
		}
	}
	if timeouts != 1 || out.String() != head {
		t.Fatalf("%d timeouts, passed %d of %d bytes", timeouts, out.Len(), len(head))
	}
}

// FuzzStrictConn: whatever the bytes and however they arrive, the
// framing check passes them on unchanged, or a prefix of them (followed
// by the synthetic refusal when a head was refused); it never panics.
func FuzzStrictConn(f *testing.F) {
	f.Add([]byte("POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabcGET / HTTP/1.1\r\n\r\n"), []byte{5, 9})
	f.Add([]byte("POST /a HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nT: 1\r\n\r\n"), []byte{1})
	f.Add([]byte("POST /a HTTP/1.1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"), []byte{})
	f.Add([]byte("POST /a HTTP/1.1\nHost: x\n\n"), []byte{3})
	f.Add([]byte("GET / HTTP/1.1\r\nX: a\r\n b\r\n\r\n"), []byte{2, 2, 2})
	f.Fuzz(func(t *testing.T, data, chunks []byte) {
		sizes := make([]int, len(chunks))
		for i, c := range chunks {
			sizes[i] = int(c)
		}
		c := newStrictConn(&scriptConn{data: append([]byte(nil), data...), chunks: sizes}, "tok")
		var out bytes.Buffer
		buf := make([]byte, 7)
		for {
			n, err := c.Read(buf)
			out.Write(buf[:n])
			if err != nil {
				break
			}
		}
		got := out.Bytes()
		if c.state != stateRefused {
			if !bytes.Equal(got, data) {
				t.Fatalf("passed %q, want the input %q unchanged", got, data)
			}
			return
		}
		// Refused: a prefix of the input, then the synthetic refusal when
		// a head was refused (a lost body framing just ends).
		i := bytes.Index(got, []byte("GET / HTTP/1.1\r\nHost: refused\r\n"))
		if i < 0 {
			i = len(got)
		} else if !bytes.Contains(got[i:], []byte(framingHeader+": tok ")) {
			t.Fatalf("refusal without its header: %q", got[i:])
		}
		if !bytes.HasPrefix(data, got[:i]) {
			t.Fatalf("refused output %q is not a prefix of %q", got[:i], data)
		}
	})
}
