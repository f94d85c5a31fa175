package dataplane

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/limit"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/routing"
)

// slowBackend makes e's backend count the calls it receives and hold each
// one until release is closed before answering Add.
func slowBackend(e *publishEnv) (arrived *atomic.Int64, release chan struct{}) {
	arrived, release = &atomic.Int64{}, make(chan struct{})
	e.backend.set(func(w http.ResponseWriter, r *http.Request) {
		arrived.Add(1)
		<-release
		answer(200, "text/xml", envelope11(addOK))(w, r)
	})
	return arrived, release
}

// protect gives the calc backend of src a limiter with s.
func protect(s limit.BackendSettings) func(*routing.Source) {
	return func(src *routing.Source) { src.Backends[0].Limiter = limit.NewLimiter(s, nil) }
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// checkRefusal checks a JSON refusal: its status, code and Retry-After.
func checkRefusal(t *testing.T, res publishResult, status int, code string) {
	t.Helper()
	if res.status != status || res.err.Error.Code != code {
		t.Fatalf("answer %d %s, want %d %s: %s", res.status, res.err.Error.Code, status, code, res.body)
	}
	ra := res.header.Get("Retry-After")
	if ra == "" || ra == "0" || fmt.Sprint(res.err.Error.Details["retryAfterSeconds"]) != ra {
		t.Errorf("Retry-After %q, details %v", ra, res.err.Error.Details)
	}
}

// TestBackendConcurrencyCap: with maxConcurrentRequests 2 and a slow
// backend, of 6 concurrent publish calls exactly 4 are refused at once
// with 503 S2R-RUN-0509 and Retry-After, and only 2 reach the backend.
func TestBackendConcurrencyCap(t *testing.T) {
	two := int64(2)
	e := newPublishEnv(t, protect(limit.BackendSettings{MaxConcurrentRequests: &two}))
	arrived, release := slowBackend(e)
	const n = 6
	results := make(chan publishResult, n)
	for i := range n {
		go func() {
			results <- e.call(t, "POST", "/publish/dev/calc/add", "application/json", `{"a":1,"b":2}`, fmt.Sprintf("cap-%d", i))
		}()
	}
	var refused []publishResult
	for len(refused) < n-2 {
		select {
		case res := <-results:
			refused = append(refused, res)
		case <-time.After(5 * time.Second):
			t.Fatalf("only %d answers before the backend was released", len(refused))
		}
	}
	for _, res := range refused {
		checkRefusal(t, res, http.StatusServiceUnavailable, apierr.RunBackendSaturated)
	}
	close(release)
	for range 2 {
		if res := <-results; res.status != http.StatusOK {
			t.Errorf("admitted call: %d %s", res.status, res.body)
		}
	}
	if got := arrived.Load(); got != 2 {
		t.Errorf("backend received %d calls, want 2", got)
	}
	refusedRecs := 0
	for i := range n {
		for _, r := range e.log.byCID(fmt.Sprintf("cap-%d", i)) {
			if r.ErrorCode == apierr.RunBackendSaturated && r.BackendTarget == "" {
				refusedRecs++
			}
		}
	}
	if refusedRecs != n-2 {
		t.Errorf("%d refusals recorded without a backend, want %d", refusedRecs, n-2)
	}
}

// TestBackendQueueTimeout: a call over maxConcurrentRequests 1 waits up to
// queueTimeoutMs and goes through when the call ahead of it ends.
func TestBackendQueueTimeout(t *testing.T) {
	one := int64(1)
	var l *limit.Limiter
	e := newPublishEnv(t, func(src *routing.Source) {
		protect(limit.BackendSettings{MaxConcurrentRequests: &one, QueueTimeoutMs: 5000})(src)
		l = src.Backends[0].Limiter
	})
	arrived, release := slowBackend(e)
	results := make(chan publishResult, 2)
	for i := range 2 {
		go func() {
			results <- e.call(t, "POST", "/publish/dev/calc/add", "application/json", `{"a":1,"b":2}`, fmt.Sprintf("q-%d", i))
		}()
	}
	waitFor(t, "one call at the backend and one queued", func() bool {
		return arrived.Load() == 1 && l.Snapshot().Waiting == 1
	})
	close(release)
	for range 2 {
		if res := <-results; res.status != http.StatusOK {
			t.Errorf("queued call: %d %s", res.status, res.body)
		}
	}
	if got := arrived.Load(); got != 2 {
		t.Errorf("backend received %d calls, want 2", got)
	}
}

// TestBackendRateCap: maxRequestsPerSecond 1 lets one call a second
// through; the next within the second is refused and never sent.
func TestBackendRateCap(t *testing.T) {
	rps := 1.0
	e := newPublishEnv(t, protect(limit.BackendSettings{MaxRequestsPerSecond: &rps}))
	var arrived atomic.Int64
	e.backend.set(func(w http.ResponseWriter, r *http.Request) {
		arrived.Add(1)
		answer(200, "text/xml", envelope11(addOK))(w, r)
	})
	if res := e.call(t, "POST", "/publish/dev/calc/add", "application/json", `{"a":1,"b":2}`, "r-1"); res.status != 200 {
		t.Fatalf("first call: %d %s", res.status, res.body)
	}
	checkRefusal(t, e.call(t, "POST", "/publish/dev/calc/add", "application/json", `{"a":1,"b":2}`, "r-2"),
		http.StatusServiceUnavailable, apierr.RunBackendSaturated)
	if got := arrived.Load(); got != 1 {
		t.Errorf("backend received %d calls, want 1", got)
	}
}

// TestClientRateLimitByIP: the third call of a client within its burst of
// 2 is refused with 429 S2R-RUN-0429 and Retry-After, without reaching the
// backend, and an X-Forwarded-For from an untrusted peer does not make it
// another client.
func TestClientRateLimitByIP(t *testing.T) {
	e := newPublishEnv(t, func(src *routing.Source) {
		src.RateLimit = &model.ClientRateLimit{ClientKey: "ip", RequestsPerMinute: 60, Burst: 2}
	})
	var arrived atomic.Int64
	e.backend.set(func(w http.ResponseWriter, r *http.Request) {
		arrived.Add(1)
		answer(200, "text/xml", envelope11(addOK))(w, r)
	})
	for i := range 2 {
		if res := e.call(t, "POST", "/publish/dev/calc/add", "application/json", `{"a":1,"b":2}`, fmt.Sprintf("ip-%d", i)); res.status != 200 {
			t.Fatalf("call %d: %d %s", i, res.status, res.body)
		}
	}
	checkRefusal(t, e.call(t, "POST", "/publish/dev/calc/add", "application/json", `{"a":1,"b":2}`, "ip-2", "X-Forwarded-For", "203.0.113.9"),
		http.StatusTooManyRequests, apierr.RunClientRateLimit)
	if got := arrived.Load(); got != 2 {
		t.Errorf("backend received %d calls, want 2", got)
	}
	if recs := e.log.byCID("ip-2"); len(recs) != 1 || recs[0].ErrorCode != apierr.RunClientRateLimit || recs[0].ResultCode != model.ResultFailed {
		t.Errorf("record of the refusal: %+v", recs)
	}
}

// TestConsumeClientRateLimitByHeader: a consume service keyed on a
// header counts each header value apart and answers a client over its
// limit with a SOAP Fault carrying 429 and Retry-After.
func TestConsumeClientRateLimitByHeader(t *testing.T) {
	e := newConsumeEnv(t, Config{}, func(src *routing.Source) {
		src.RateLimit = &model.ClientRateLimit{ClientKey: "header:X-Api-Key", RequestsPerMinute: 1, Burst: 1}
	})
	e.rest.set(jsonAnswer(200, order1))
	call := func(key string) consumeResult {
		req, _ := http.NewRequest("POST", e.srv.URL+"/consume/dev/orders", strings.NewReader(soap11(getOrder)))
		req.Header.Set("Content-Type", "text/xml; charset=utf-8")
		req.Header.Set("SOAPAction", `"urn:example:orders:GetOrder"`)
		req.Header.Set("X-Api-Key", key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return consumeResult{status: resp.StatusCode, header: resp.Header, body: string(b)}
	}
	if res := call("a"); res.status != 200 {
		t.Fatalf("first call of a: %d %s", res.status, res.body)
	}
	res := call("a")
	if res.status != http.StatusTooManyRequests || !strings.Contains(res.body, apierr.RunClientRateLimit) ||
		!strings.Contains(res.body, "soap:Client") || !strings.HasPrefix(res.header.Get("Content-Type"), "text/xml") {
		t.Fatalf("second call of a: %d %s", res.status, res.body)
	}
	if ra := res.header.Get("Retry-After"); ra == "" || ra == "0" {
		t.Errorf("Retry-After %q", ra)
	}
	if res := call("b"); res.status != 200 {
		t.Fatalf("first call of b: %d %s", res.status, res.body)
	}
}

// TestConsumeBackendCap: a consume call over the backend's rate cap is a
// SOAP 1.2 Fault with status 503, S2R-RUN-0509 and Retry-After, and the
// REST backend is not called.
func TestConsumeBackendCap(t *testing.T) {
	rps := 1.0
	e := newConsumeEnv(t, Config{}, protect(limit.BackendSettings{MaxRequestsPerSecond: &rps}))
	var arrived atomic.Int64
	e.rest.set(func(w http.ResponseWriter, r *http.Request) {
		arrived.Add(1)
		jsonAnswer(200, order1)(w, r)
	})
	ct := `application/soap+xml; charset=utf-8; action="urn:example:orders:GetOrder"`
	if res := e.post(t, ct, "", soap12(getOrder), "c-1"); res.status != 200 {
		t.Fatalf("first call: %d %s", res.status, res.body)
	}
	res := e.post(t, ct, "", soap12(getOrder), "c-2")
	if res.status != http.StatusServiceUnavailable || !strings.Contains(res.body, apierr.RunBackendSaturated) ||
		!strings.Contains(res.body, "env:Receiver") || res.header.Get("Retry-After") == "" {
		t.Fatalf("second call: %d %v %s", res.status, res.header, res.body)
	}
	if got := arrived.Load(); got != 1 {
		t.Errorf("backend received %d calls, want 1", got)
	}
}
