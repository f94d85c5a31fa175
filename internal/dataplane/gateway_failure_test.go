package dataplane_test

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/dataplane"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/tests/loopback"
	"github.com/s2r-project/s2r/internal/upstream"
)

// post sends body to the gateway and returns the status, body and error
// code.
func post(t testing.TB, c *http.Client, url string, body io.Reader) (int, []byte, error) {
	req, _ := http.NewRequest("POST", url+"/gateway/dev/calc", body)
	req.Header.Set("Content-Type", "text/xml")
	resp, err := c.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
}

func TestGatewayBackendFailures(t *testing.T) {
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(2 * time.Second):
		}
	}))
	defer hang.Close()
	refused := "http://" + loopback.FreeAddr(t)
	fault := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/xml")
		w.WriteHeader(500)
		io.WriteString(w, "<Fault/>")
	}))
	defer fault.Close()
	big := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "2097152")
		w.Write(bytes.Repeat([]byte("x"), 2<<20))
	}))
	defer big.Close()
	tests := []struct {
		name, url string
		status    int
		code      string
		result    string
	}{
		{name: "refused", url: refused, status: 502, code: apierr.RunBackendFault, result: model.ResultBackendFailure},
		{name: "timeout", url: hang.URL, status: 504, code: apierr.RunBackendTimeout, result: model.ResultTimeout},
		{name: "fault relayed untouched", url: fault.URL, status: 500, result: model.ResultBackendFailure},
		{name: "response over the limit", url: big.URL, status: 413, code: apierr.RunPayloadTooLarge, result: model.ResultBackendFailure},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svc := gwService(upstream.RoutingSingle, tt.url)
			ms := 200
			svc.Backends[0].Profile.TimeoutMs = &ms
			gw := newGW(t, svc, 1, dataplane.GatewayConfig{})
			status, body, err := post(t, http.DefaultClient, gw.front.URL, strings.NewReader("<x/>"))
			if err != nil {
				t.Fatal(err)
			}
			if status != tt.status {
				t.Fatalf("status %d %s, want %d", status, body, tt.status)
			}
			if tt.code != "" && errorCode(t, body) != tt.code {
				t.Fatalf("body %s, want code %s", body, tt.code)
			}
			if tt.code == "" && string(body) != "<Fault/>" {
				t.Fatalf("body %q not relayed", body)
			}
			rec := gw.recs.after(t, 0)
			if rec.HTTPStatus != tt.status || rec.ErrorCode != tt.code || rec.ResultCode != tt.result {
				t.Fatalf("record %+v", rec)
			}
		})
	}
}

// TestGatewayStreamedResponseOverLimit: a chunked answer over the limit
// is cut mid-stream (the status is already sent), so the client sees a
// broken response, never a truncated success; the record says 413.
func TestGatewayStreamedResponseOverLimit(t *testing.T) {
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for range 3 {
			w.Write(make([]byte, 1<<20))
			w.(http.Flusher).Flush()
		}
	}))
	defer backend.Close()
	gw := newGW(t, gwService(upstream.RoutingSingle, backend.URL), 1, dataplane.GatewayConfig{})
	_, body, err := post(t, http.DefaultClient, gw.front.URL, strings.NewReader("<x/>"))
	if err == nil {
		t.Fatalf("got a complete answer of %d bytes", len(body))
	}
	rec := gw.recs.after(t, 0)
	if rec.ErrorCode != apierr.RunPayloadTooLarge || rec.ResultCode != model.ResultBackendFailure || rec.ResponseBytes > 1<<20 {
		t.Fatalf("record %+v", rec)
	}
}

// TestGatewayRequestOverLimitWhileStreaming sends a chunked body larger
// than the limit: no Content-Length tells in advance, the stream is cut.
func TestGatewayRequestOverLimitWhileStreaming(t *testing.T) {
	var got atomic.Int64
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := io.Copy(io.Discard, r.Body)
		got.Store(n)
	}))
	defer backend.Close()
	gw := newGW(t, gwService(upstream.RoutingSingle, backend.URL), 1, dataplane.GatewayConfig{})
	// Served in process: over a socket the client may see the server's
	// early 413 as a reset of the upload it is still writing.
	serve := func(body io.Reader, length int64) *httptest.ResponseRecorder {
		r := httptest.NewRequest("POST", "/gateway/dev/calc", body)
		r.ContentLength = length
		r.RemoteAddr = "127.0.0.1:5000"
		w := httptest.NewRecorder()
		gw.d.ServeHTTP(w, r)
		return w
	}
	w := serve(io.LimitReader(zeros{}, 3<<20), -1) // chunked: unknown length
	if w.Code != 413 || errorCode(t, w.Body.Bytes()) != apierr.RunPayloadTooLarge || !strings.Contains(w.Body.String(), `"maxPayloadMb":1`) {
		t.Fatalf("got %d %s", w.Code, w.Body)
	}
	if n := got.Load(); n > 1<<20 {
		t.Fatalf("backend received %d bytes, over the 1 MB limit", n)
	}
	// Declared too large: refused before reading.
	w = serve(untouchable{t}, 2<<20)
	if w.Code != 413 || errorCode(t, w.Body.Bytes()) != apierr.RunPayloadTooLarge {
		t.Fatalf("declared length: got %d %s", w.Code, w.Body)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestGatewayFailoverUnderLoad kills the primary of an active_passive
// service under concurrent load: once the in-flight requests are done,
// every request succeeds on the secondary.
func TestGatewayFailoverUnderLoad(t *testing.T) {
	var onA, onB atomic.Int64
	a := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		onA.Add(1)
		io.WriteString(w, "A")
	}))
	b := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		onB.Add(1)
		io.WriteString(w, "B")
	}))
	defer b.Close()
	gw := newGW(t, gwService(upstream.RoutingActivePassive, a.URL, b.URL), 10, dataplane.GatewayConfig{})
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	var killed atomic.Bool
	var mu sync.Mutex
	var afterErrs []string
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				after := killed.Load()
				status, body, err := post(t, client, gw.front.URL, strings.NewReader(strings.Repeat("<x/>", 100)))
				if after && (err != nil || status != 200) {
					mu.Lock()
					afterErrs = append(afterErrs, string(body))
					mu.Unlock()
				}
			}
		}()
	}
	time.Sleep(300 * time.Millisecond)
	a.CloseClientConnections()
	a.Close() // waits for the in-flight requests
	killed.Store(true)
	beforeB := onB.Load()
	// Wait for the secondary to serve a few requests rather than for a
	// fixed time: on a starved machine 500 ms may hold none.
	for deadline := time.Now().Add(10 * time.Second); onB.Load()-beforeB < 20 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	close(stop)
	wg.Wait()
	if onA.Load() == 0 {
		t.Fatal("the primary served nothing before it was killed")
	}
	if onB.Load()-beforeB < 10 {
		t.Fatalf("the secondary served %d requests after the kill", onB.Load()-beforeB)
	}
	if len(afterErrs) > 0 {
		t.Fatalf("%d client errors after the kill, e.g. %q", len(afterErrs), afterErrs[0])
	}
	t.Logf("primary %d, secondary %d after the kill", onA.Load(), onB.Load()-beforeB)
}

// TestGatewayBreaker opens the breaker of a failing backend (503
// S2R-RUN-0529), then lets a probe through after the open period and
// closes it when the backend recovered.
func TestGatewayBreaker(t *testing.T) {
	var healthy atomic.Bool
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !healthy.Load() {
			http.Error(w, "down", 503)
			return
		}
		io.WriteString(w, "ok")
	}))
	defer backend.Close()
	// OpenFor is long enough that the call after the trip still meets an
	// open breaker on a starved machine; recovery is polled, not slept.
	const openFor = time.Second
	br := upstream.NewBreakers(upstream.BreakerConfig{ConsecutiveFailures: 3, OpenFor: openFor, HalfOpenProbes: 1})
	svc := gwService(upstream.RoutingSingle, backend.URL)
	gw := newGW(t, svc, 1, dataplane.GatewayConfig{Selector: upstream.NewSelector(upstream.NewHealth(), br)})
	for i := range 3 {
		if status, _, _ := post(t, http.DefaultClient, gw.front.URL, strings.NewReader("<x/>")); status != 503 {
			t.Fatalf("call %d: status %d, want the backend's 503", i, status)
		}
	}
	status, body, _ := post(t, http.DefaultClient, gw.front.URL, strings.NewReader("<x/>"))
	if status != 503 || errorCode(t, body) != apierr.RunCircuitOpen {
		t.Fatalf("after the threshold: %d %s", status, body)
	}
	healthy.Store(true)
	time.Sleep(openFor)
	for i := range 3 {
		if status, body, _ := post(t, http.DefaultClient, gw.front.URL, strings.NewReader("<x/>")); status != 200 || string(body) != "ok" {
			t.Fatalf("after recovery call %d: %d %s", i, status, body)
		}
	}
	if st := br.State(svc.Backends[0].ID()); st != upstream.BreakerClosed {
		t.Fatalf("breaker %v, want closed", st)
	}
}

// TestGatewayNoHealthyBackend answers 503 S2R-RUN-0503 when every
// backend is unhealthy.
func TestGatewayNoHealthyBackend(t *testing.T) {
	backend := hashBackend(t)
	svc := gwService(upstream.RoutingRoundRobin, backend.URL)
	h := upstream.NewHealth()
	for range upstream.UnhealthyAfter {
		h.Report(upstream.HealthTarget{Mode: upstream.HealthTCP, Backend: &svc.Backends[0].Backend}, time.Now(), io.EOF)
	}
	gw := newGW(t, svc, 1, dataplane.GatewayConfig{Selector: upstream.NewSelector(h, nil)})
	status, body, _ := post(t, http.DefaultClient, gw.front.URL, strings.NewReader("<x/>"))
	if status != 503 || errorCode(t, body) != apierr.RunUnavailable {
		t.Fatalf("got %d %s", status, body)
	}
}

// TestGatewayInBodyFault: a SOAP Fault in an HTTP 200 is relayed untouched
// and recorded as success with InBodyFault.
func TestGatewayInBodyFault(t *testing.T) {
	const fault = `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><s:Fault><faultcode>s:Server</faultcode></s:Fault></s:Body></s:Envelope>`
	for _, tt := range []struct {
		answer string
		want   bool
	}{{fault, true}, {`<s:Envelope xmlns:s="x"><s:Body><r>Faultless</r></s:Body></s:Envelope>`, false}} {
		backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, tt.answer)
		}))
		gw := newGW(t, gwService(upstream.RoutingSingle, backend.URL), 1, dataplane.GatewayConfig{})
		status, body, err := post(t, http.DefaultClient, gw.front.URL, strings.NewReader("<x/>"))
		backend.Close()
		if err != nil || status != 200 || string(body) != tt.answer {
			t.Fatalf("got %d %q %v", status, body, err)
		}
		rec := gw.recs.after(t, 0)
		if rec.InBodyFault != tt.want || rec.ResultCode != model.ResultSuccess {
			t.Fatalf("answer %q: record %+v", tt.answer, rec)
		}
	}
}

// TestGatewaySOAPFaultsKeepBreakerClosed: SOAP delivers Faults as HTTP 500
// with an XML body; they are application answers and never open the
// breaker, whereas a 500 of another type does.
func TestGatewaySOAPFaultsKeepBreakerClosed(t *testing.T) {
	var ct atomic.Value
	ct.Store("text/xml; charset=utf-8")
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", ct.Load().(string))
		w.WriteHeader(500)
		io.WriteString(w, "<Fault/>")
	}))
	defer backend.Close()
	br := upstream.NewBreakers(upstream.BreakerConfig{ConsecutiveFailures: 2, OpenFor: time.Hour})
	gw := newGW(t, gwService(upstream.RoutingSingle, backend.URL), 1, dataplane.GatewayConfig{Selector: upstream.NewSelector(nil, br)})
	for i := range 5 {
		if status, body, _ := post(t, http.DefaultClient, gw.front.URL, strings.NewReader("<x/>")); status != 500 || string(body) != "<Fault/>" {
			t.Fatalf("fault %d: %d %s", i, status, body)
		}
	}
	ct.Store("text/html")
	for range 2 {
		post(t, http.DefaultClient, gw.front.URL, strings.NewReader("<x/>"))
	}
	if status, body, _ := post(t, http.DefaultClient, gw.front.URL, strings.NewReader("<x/>")); status != 503 || errorCode(t, body) != apierr.RunCircuitOpen {
		t.Fatalf("after two HTML 500s: %d %s", status, body)
	}
}

// brokenBody yields some bytes, then fails as a malformed chunk does.
type brokenBody struct{ sent bool }

func (b *brokenBody) Read(p []byte) (int, error) {
	if !b.sent {
		b.sent = true
		return copy(p, "<s:Envelope"), nil
	}
	return 0, errors.New("invalid byte in chunk length")
}

// TestGatewayClientBodyFailure: a request body that breaks off (a
// malformed chunk, the client gone) is the client's mistake: 400
// S2R-VAL-0400, never a 502 that blames the backend, and it does not count
// against the backend's circuit breaker, however often it happens.
func TestGatewayClientBodyFailure(t *testing.T) {
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
	}))
	defer backend.Close()
	var opened atomic.Bool
	breakers := upstream.NewBreakers(upstream.BreakerConfig{ConsecutiveFailures: 2, OpenFor: time.Minute,
		OnStateChange: func(string, upstream.BreakerState, upstream.BreakerState) { opened.Store(true) }})
	gw := newGW(t, gwService(upstream.RoutingSingle, backend.URL), 1,
		dataplane.GatewayConfig{Selector: upstream.NewSelector(upstream.NewHealth(), breakers)})
	for range 5 {
		r := httptest.NewRequest("POST", "/gateway/dev/calc", &brokenBody{})
		r.ContentLength, r.RemoteAddr = -1, "127.0.0.1:5000"
		w := httptest.NewRecorder()
		gw.d.ServeHTTP(w, r)
		if w.Code != 400 || errorCode(t, w.Body.Bytes()) != apierr.ValBadRequest {
			t.Fatalf("got %d %s, want 400 S2R-VAL-0400", w.Code, w.Body)
		}
	}
	if opened.Load() {
		t.Fatal("client body failures opened the backend's circuit breaker")
	}
	if status, _, err := post(t, gw.front.Client(), gw.front.URL, strings.NewReader("<x/>")); err != nil || status != 200 {
		t.Fatalf("a good request after them: %d %v", status, err)
	}
}
