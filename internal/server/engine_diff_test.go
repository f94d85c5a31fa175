package server

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// describe is one request as a handler sees it: everything that decides
// how s2r treats it, and its body (or that reading it failed).
func describe(r *http.Request) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %q path=%q raw=%q query=%q host=%q %s len=%d te=%v close=%v\n", r.Method, r.RequestURI,
		r.URL.Path, r.URL.RawPath, r.URL.RawQuery, r.Host, r.Proto, r.ContentLength, r.TransferEncoding, r.Close)
	keys := make([]string, 0, len(r.Header))
	for k := range r.Header {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "%s=%q\n", k, r.Header[k])
	}
	body, err := io.ReadAll(r.Body)
	fmt.Fprintf(&b, "body=%q err=%v", body, err != nil)
	return b.String()
}

// diffServer runs a listener (the engine or net/http behind the framing
// check) whose handler notes every request it is given, the synthetic
// framing refusals apart, into the seen of the connection.
func diffServer(t testing.TB, engine bool) (string, func() []string) {
	t.Helper()
	var mu sync.Mutex
	var all []string
	h := framingRefusal(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d := describe(r)
		mu.Lock()
		all = append(all, d)
		mu.Unlock()
		w.Write([]byte("ok"))
	}))
	take := func() []string {
		mu.Lock()
		defer mu.Unlock()
		out := all
		all = nil
		return out
	}
	return runListener(t, h, engine), take
}

// rawRound writes raw on a new connection, closes the writing side and
// returns the statuses of the answers read until the server closes.
func rawRound(t testing.TB, addr string, raw []byte) []int {
	statuses, _ := rawRoundTimed(t, addr, raw)
	return statuses
}

// rawRoundTimed is rawRound that also reports whether the 3 s deadline
// ended the round (a starved machine: a handler may still run later).
func rawRoundTimed(t testing.TB, addr string, raw []byte) ([]int, bool) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(3 * time.Second))
	go func() {
		c.Write(raw)
		c.(*net.TCPConn).CloseWrite()
	}()
	br := bufio.NewReader(c)
	var statuses []int
	for {
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			var ne net.Error
			return statuses, errors.As(err, &ne) && ne.Timeout()
		}
		io.Copy(io.Discard, resp.Body)
		statuses = append(statuses, resp.StatusCode)
	}
}

// diffCases are raw request streams whose framing the two servers must
// agree on: the smuggling shapes, pipelining, bodies, targets and heads
// net/http refuses.
var diffCases = []string{
	"GET / HTTP/1.1\r\nHost: x\r\n\r\n",
	"GET /a/b?c=d&e HTTP/1.1\r\nHost: x\r\nX-A: 1\r\nx-a: 2\r\nAccept:  text/xml \r\n\r\nGET /n HTTP/1.1\r\nHost: y\r\n\r\n",
	"POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhelloGET /next HTTP/1.1\r\nHost: x\r\n\r\n",
	"POST /p HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3;e=1\r\nabc\r\n0\r\nT: 1\r\n\r\nGET /n HTTP/1.1\r\nHost: x\r\n\r\n",
	"POST /p HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\nGET /n HTTP/1.1\r\nHost: x\r\n\r\n",
	"POST /p HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX\r\n0\r\n\r\n",
	"POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
	"POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nshort",
	"POST /p HTTP/1.0\r\nHost: x\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nhiGET /n HTTP/1.0\r\n\r\n",
	"GET /p HTTP/1.0\r\n\r\nGET /n HTTP/1.0\r\n\r\n",
	"GET /p HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\nGET /n HTTP/1.1\r\nHost: x\r\n\r\n",
	"GET /p HTTP/1.1\r\n\r\n",
	"GET /p HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
	"GET /p HTTP/1.1\r\nHost: a b\r\n\r\n",
	"GET /p HTTP/1.1\r\nHost: x\r\nBad Name: v\r\n\r\n",
	"GET /p HTTP/1.1\r\nHost: x\r\nX: a\x01b\r\n\r\n",
	"G@T /p HTTP/1.1\r\nHost: x\r\n\r\n",
	"GET /p HTTP/2.0\r\nHost: x\r\n\r\n",
	"GET /p  HTTP/1.1\r\nHost: x\r\n\r\n",
	"GET http://other.example/q?x=1 HTTP/1.1\r\nHost: x\r\n\r\n",
	"GET /a%20b/%2F?q=%41 HTTP/1.1\r\nHost: x\r\n\r\n",
	"GET /a{b}!*(c)'#frag HTTP/1.1\r\nHost: x\r\n\r\n",
	"GET //double//slash HTTP/1.1\r\nHost: x\r\n\r\n",
	"GET * HTTP/1.1\r\nHost: x\r\n\r\n",
	"OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n",
	"GET relative HTTP/1.1\r\nHost: x\r\n\r\n",
	"\r\nGET /after-one-empty-line HTTP/1.1\r\nHost: x\r\n\r\n",
	"POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi\r\nGET /after-crlf HTTP/1.1\r\nHost: x\r\n\r\n",
	"\r\n\r\nGET /after-empty-lines HTTP/1.1\r\nHost: x\r\n\r\n",
	"GET /p HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\n\r\n",
	"GET /p HTTP/1.1\nHost: x\n\n",
	"POST /p HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\nhi",
	"GET /p HTTP/1.1\r\nHost: x\r\nX: " + strings.Repeat("v", 9000) + "\r\n\r\nGET /n HTTP/1.1\r\nHost: x\r\n\r\n",
	"GET /ümlaut HTTP/1.1\r\nHost: x\r\n\r\n",
}

// TestEngineFramesLikeNetHTTP feeds each raw stream to the engine and to
// net/http behind the framing check and compares what their handlers
// were given: the same requests, split at the same places, with the same
// method, target, host, headers, framing and body. Where net/http answers
// a malformed head itself (400 or 417 in plain text), the engine refuses
// it too; only the answer's shape differs (its 400 is in the error shape).
func TestEngineFramesLikeNetHTTP(t *testing.T) {
	stdAddr, stdSeen := diffServer(t, false)
	engAddr, engSeen := diffServer(t, true)
	for _, raw := range diffCases {
		std := rawRound(t, stdAddr, []byte(raw))
		eng := rawRound(t, engAddr, []byte(raw))
		if s, e := stdSeen(), engSeen(); !slices.Equal(s, e) {
			t.Errorf("%q:\nnet/http handler saw %q\nengine handler saw   %q", raw, s, e)
		}
		if !sameStatuses(std, eng) {
			t.Errorf("%q: net/http answered %v, engine %v", raw, std, eng)
		}
	}
}

// sameStatuses compares the answers' statuses; a refusal is 400 on both
// (net/http's 417 for an unknown Expect is the engine's as well).
func sameStatuses(std, eng []int) bool {
	return slices.Equal(std, eng)
}

// FuzzEngineFraming is the differential test on arbitrary bytes: the
// engine's handler is never given a request net/http's would not have
// been given, and both see the same ones.
func FuzzEngineFraming(f *testing.F) {
	for _, raw := range diffCases {
		f.Add([]byte(raw))
	}
	stdAddr, stdSeen := diffServer(f, false)
	engAddr, engSeen := diffServer(f, true)
	f.Fuzz(func(t *testing.T, raw []byte) {
		_, slow1 := rawRoundTimed(t, stdAddr, raw)
		_, slow2 := rawRoundTimed(t, engAddr, raw)
		if slow1 || slow2 {
			// Starved past the deadline: a handler of this round may still
			// run; let it, forget both rounds and move on.
			time.Sleep(3 * time.Second)
			stdSeen()
			engSeen()
			t.Skip("round past its deadline")
		}
		if s, e := stdSeen(), engSeen(); !slices.Equal(s, e) {
			t.Fatalf("%q:\nnet/http handler saw %q\nengine handler saw   %q", raw, s, e)
		}
	})
}
