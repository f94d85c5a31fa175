package dataplane_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/dataplane"
	"github.com/s2r-project/s2r/internal/tests/loopback"
	"github.com/s2r-project/s2r/internal/upstream"
)

// TestGatewayHopByHopBothWays: the fields a Connection header names are
// hop-by-hop (RFC 9110 7.6.1) and never cross the gateway, in either
// direction, nor do the standard hop-by-hop fields; end-to-end fields do,
// and "Te: trailers" survives.
func TestGatewayHopByHopBothWays(t *testing.T) {
	seen := make(chan http.Header, 1)
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		seen <- r.Header.Clone()
		w.Header().Set("Connection", "X-Back-Hop, X-Back-Other")
		w.Header().Set("X-Back-Hop", "secret")
		w.Header().Set("X-Back-Other", "secret")
		w.Header().Set("Keep-Alive", "timeout=9")
		w.Header().Set("Proxy-Authenticate", "Basic")
		w.Header().Set("X-End", "kept")
		io.WriteString(w, "<ok/>")
	}))
	defer backend.Close()
	gw := newGW(t, gwService(upstream.RoutingSingle, backend.URL), 1, dataplane.GatewayConfig{})
	req, _ := http.NewRequest("POST", gw.front.URL+"/gateway/dev/calc", strings.NewReader("<x/>"))
	req.Header.Set("Connection", "X-Secret-Hop,  x-other-hop ")
	req.Header.Set("X-Secret-Hop", "1")
	req.Header.Set("X-Other-Hop", "1")
	req.Header.Set("Proxy-Authorization", "Basic Zm9vOmJhcg==")
	req.Header.Set("Te", "trailers, deflate")
	req.Header.Set("X-Custom", "kept")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(body) != "<ok/>" {
		t.Fatalf("got %d %q", resp.StatusCode, body)
	}
	in := <-seen
	for _, k := range []string{"X-Secret-Hop", "X-Other-Hop", "Proxy-Authorization", "Connection"} {
		if v, ok := in[k]; ok {
			t.Errorf("the backend got %s: %q", k, v)
		}
	}
	if got := in.Get("Te"); got != "trailers" {
		t.Errorf("backend got Te %q, want trailers", got)
	}
	if in.Get("X-Custom") != "kept" {
		t.Errorf("backend lost X-Custom: %v", in)
	}
	for _, k := range []string{"X-Back-Hop", "X-Back-Other", "Keep-Alive", "Proxy-Authenticate"} {
		if v, ok := resp.Header[k]; ok {
			t.Errorf("the client got %s: %q", k, v)
		}
	}
	if resp.Header.Get("X-End") != "kept" {
		t.Errorf("client lost X-End: %v", resp.Header)
	}
}

// TestGatewayStreamsSlowAnswer: an answer of unknown length reaches the
// client as it arrives; its first bytes are read while the backend is
// still holding the rest.
func TestGatewayStreamsSlowAnswer(t *testing.T) {
	held := loopback.NewHeldAnswer()
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		held.Write(w)
	}))
	defer backend.Close()
	defer held.Release() // before the backend closes: its handler may still wait
	gw := newGW(t, gwService(upstream.RoutingSingle, backend.URL), 1, dataplane.GatewayConfig{})
	held.CheckStreamed(t, 5*time.Second, func() (*http.Response, []byte, error) {
		resp, err := http.Post(gw.front.URL+"/gateway/dev/calc", "text/xml", strings.NewReader("<x/>"))
		if err != nil {
			return nil, nil, err
		}
		first, err := loopback.ReadFirst(resp)
		return resp, first, err
	})
}

// TestGatewayKnownLengthAndTrailers: an answer of known length keeps its
// Content-Length; a chunked answer's trailers reach the client.
func TestGatewayKnownLengthAndTrailers(t *testing.T) {
	big := strings.Repeat("<a>x</a>", 2<<10) // over every server buffer
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		if r.URL.Path == "/trailer" {
			w.Header().Set("Trailer", "X-Sum")
			io.WriteString(w, "<ok/>")
			w.(http.Flusher).Flush()
			w.Header().Set("X-Sum", "42")
			return
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(big)))
		io.WriteString(w, big)
	}))
	defer backend.Close()
	gw := newGW(t, gwService(upstream.RoutingSingle, backend.URL), 1, dataplane.GatewayConfig{})
	resp, err := http.Post(gw.front.URL+"/gateway/dev/calc", "text/xml", strings.NewReader("<x/>"))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.ContentLength != int64(len(big)) || len(resp.TransferEncoding) != 0 || string(body) != big {
		t.Fatalf("length %d, transfer encoding %v, %d bytes; want Content-Length %d", resp.ContentLength, resp.TransferEncoding, len(body), len(big))
	}

	gwT := newGW(t, gwService(upstream.RoutingSingle, backend.URL+"/trailer"), 1, dataplane.GatewayConfig{})
	resp, err = http.Post(gwT.front.URL+"/gateway/dev/calc", "text/xml", strings.NewReader("<x/>"))
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "<ok/>" || resp.Trailer.Get("X-Sum") != "42" {
		t.Fatalf("body %q, trailer %v", body, resp.Trailer)
	}
}

// flushCounter is a ResponseWriter that counts flushes.
type flushCounter struct {
	*httptest.ResponseRecorder
	flushes int
}

func (f *flushCounter) Flush() { f.flushes++; f.ResponseRecorder.Flush() }

// TestGatewayCoalescesSmallChunks: a burst of tiny chunks the backend
// sent at once is relayed in a few flushes, not one per chunk, and before
// the backend sends more.
func TestGatewayCoalescesSmallChunks(t *testing.T) {
	const chunks = 200
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/xml")
		w.(http.Flusher).Flush() // chunked, whatever the body
		for burst := range 2 {
			for i := range chunks / 2 {
				// Each Write of the handler is a chunk of its own; they
				// reach the socket together (the server's 4 KB buffer).
				io.WriteString(w, "<i>"+strconv.Itoa(burst*chunks/2+i)+"</i>")
			}
			w.(http.Flusher).Flush()
			// A pause: the gateway must send the burst it has before
			// the answer ends.
			time.Sleep(50 * time.Millisecond)
		}
	}))
	defer backend.Close()
	gw := newGW(t, gwService(upstream.RoutingSingle, backend.URL), 1, dataplane.GatewayConfig{})
	r := httptest.NewRequest("POST", "/gateway/dev/calc", strings.NewReader("<x/>"))
	r.RemoteAddr = "127.0.0.1:5000"
	w := &flushCounter{ResponseRecorder: httptest.NewRecorder()}
	gw.d.ServeHTTP(w, r)
	if w.Code != 200 || !strings.HasSuffix(w.Body.String(), "<i>199</i>") {
		t.Fatalf("got %d %q", w.Code, w.Body)
	}
	t.Logf("%d chunks relayed in %d flushes", chunks, w.flushes)
	if w.flushes == 0 || w.flushes > chunks/10 {
		t.Fatalf("%d flushes for %d chunks sent at once", w.flushes, chunks)
	}
}
