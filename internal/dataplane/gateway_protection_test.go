package dataplane_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/dataplane"
	"github.com/s2r-project/s2r/internal/limit"
	"github.com/s2r-project/s2r/internal/upstream"
)

const gwEnvelope = `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><x/></soap:Body></soap:Envelope>`

func gwPost(t *testing.T, url string, header ...string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(gwEnvelope))
	req.Header.Set("Content-Type", "text/xml; charset=utf-8")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// checkFault reads resp and checks it is a SOAP 1.1 Fault with status,
// code and a Retry-After.
func checkFault(t *testing.T, resp *http.Response, status int, code string) {
	t.Helper()
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != status || !strings.Contains(string(b), "<s2r:code>"+code+"</s2r:code>") ||
		!strings.HasPrefix(resp.Header.Get("Content-Type"), "text/xml") {
		t.Fatalf("answer %d %s: %s", resp.StatusCode, resp.Header.Get("Content-Type"), b)
	}
	if ra := resp.Header.Get("Retry-After"); ra == "" || ra == "0" {
		t.Errorf("Retry-After %q", ra)
	}
}

// TestGatewayClientRateLimitByHeader: each value of the key header is a
// client of its own; one over its limit gets a 429 SOAP Fault with
// Retry-After and its call is not relayed.
func TestGatewayClientRateLimitByHeader(t *testing.T) {
	var arrived atomic.Int64
	backend := hashBackendCounting(t, &arrived)
	svc := gwService(upstream.RoutingSingle, backend.URL)
	p, err := limit.ClientSettings{ClientKey: "header:X-Api-Key", RequestsPerMinute: 60, Burst: 1}.Compile(svc.ID)
	if err != nil {
		t.Fatal(err)
	}
	svc.RateLimit = p
	gw := newGW(t, svc, 1, dataplane.GatewayConfig{})
	url := gw.front.URL + "/gateway/dev/calc"
	for _, key := range []string{"a", "b"} {
		resp := gwPost(t, url, "X-Api-Key", key)
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("first call of %s: %d", key, resp.StatusCode)
		}
	}
	n := gw.recs.count()
	checkFault(t, gwPost(t, url, "X-Api-Key", "a"), http.StatusTooManyRequests, apierr.RunClientRateLimit)
	if rec := gw.recs.after(t, n); rec.ErrorCode != apierr.RunClientRateLimit || rec.HTTPStatus != http.StatusTooManyRequests {
		t.Errorf("record: %s %d", rec.ErrorCode, rec.HTTPStatus)
	}
	if got := arrived.Load(); got != 2 {
		t.Errorf("backend received %d calls, want 2", got)
	}
}

// TestGatewayBackendCapHoldsUntilAnswerEnds: a relayed answer counts
// against maxConcurrentRequests until its body has been sent, so a call
// meanwhile is refused with a 503 SOAP Fault and never reaches the
// backend; once the answer ends the next call passes.
func TestGatewayBackendCapHoldsUntilAnswerEnds(t *testing.T) {
	var arrived atomic.Int64
	finish := make(chan struct{})
	backend := newStreamingBackend(t, &arrived, finish)
	svc := gwService(upstream.RoutingSingle, backend)
	one := int64(1)
	svc.Backends[0].Limiter = limit.NewLimiter(limit.BackendSettings{MaxConcurrentRequests: &one}, nil)
	gw := newGW(t, svc, 1, dataplane.GatewayConfig{})
	url := gw.front.URL + "/gateway/dev/calc"

	first := gwPost(t, url) // headers arrive, the body is still streaming
	if first.StatusCode != 200 {
		t.Fatalf("first call: %d", first.StatusCode)
	}
	checkFault(t, gwPost(t, url), http.StatusServiceUnavailable, apierr.RunBackendSaturated)
	close(finish)
	io.Copy(io.Discard, first.Body)
	first.Body.Close()
	deadline := time.Now().Add(5 * time.Second)
	for svc.Backends[0].Limiter.Snapshot().InFlight != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the slot of the finished answer was not released")
		}
		time.Sleep(time.Millisecond)
	}
	third := gwPost(t, url)
	io.Copy(io.Discard, third.Body)
	third.Body.Close()
	if third.StatusCode != 200 {
		t.Fatalf("call after the answer ended: %d", third.StatusCode)
	}
	if got := arrived.Load(); got != 2 {
		t.Errorf("backend received %d calls, want 2", got)
	}
}

// hashBackendCounting is a backend answering 200 that counts its calls.
func hashBackendCounting(t *testing.T, n *atomic.Int64) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/xml")
		io.WriteString(w, gwEnvelope)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// newStreamingBackend answers the first call's headers and 16 KB at once
// and the rest of its body only once finish is closed; later calls at once. It returns its
// URL.
func newStreamingBackend(t *testing.T, n *atomic.Int64, finish chan struct{}) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/xml")
		// More than the front server's 4 KB buffer, so the client has
		// the status while the rest is held back.
		io.WriteString(w, "<!--"+strings.Repeat("x", 16<<10)+"-->"+"<soap:Envelope")
		w.(http.Flusher).Flush()
		if n.Add(1) == 1 {
			<-finish
		}
		io.WriteString(w, gwEnvelope[len("<soap:Envelope"):])
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}
