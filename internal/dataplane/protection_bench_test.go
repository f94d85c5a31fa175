package dataplane

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/s2r-project/s2r/internal/httpx"
	"github.com/s2r-project/s2r/internal/limit"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/upstream"
)

// selectedInProcess is a Backends that selects the backend through a real
// upstream.Selector (health, breaker, limiter) and answers in process, so
// a benchmark sees the cost of protection on the request path without the
// network's noise.
type selectedInProcess struct {
	sel    *upstream.Selector
	answer []byte
}

func (p selectedInProcess) Do(ctx context.Context, svc *routing.Service, req upstream.Request) (*upstream.Response, *routing.Backend, error) {
	i, err := p.sel.Do(ctx, poolOf(svc), func(context.Context, int) (upstream.Verdict, error) { return upstream.Verdict{}, nil })
	if err != nil {
		return nil, nil, err
	}
	return &upstream.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"text/xml"}}, Body: p.answer}, svc.Backends[i], nil
}

// BenchmarkPublishProtection measures a 1 KB publish call through the
// selector with the backend profile unprotected (no limiter), with a
// limiter but no caps (how every profile runs: in-flight is counted for
// /metrics), with both caps set high enough never to refuse, and with a
// client rate limit by IP on top.
func BenchmarkPublishProtection(b *testing.B) {
	maxC, rps := int64(100_000), 1e6
	capped := limit.BackendSettings{MaxConcurrentRequests: &maxC, MaxRequestsPerSecond: &rps}
	cases := []struct {
		name    string
		limiter *limit.Limiter
		rate    *model.ClientRateLimit
	}{
		{"no-limiter", nil, nil},
		{"uncapped", limit.NewLimiter(limit.BackendSettings{}, nil), nil},
		{"capped", limit.NewLimiter(capped, nil), nil},
		{"capped+client-rate", limit.NewLimiter(capped, nil),
			&model.ClientRateLimit{ClientKey: "ip", RequestsPerMinute: limit.MaxRequestsPerMinute, Burst: limit.MaxBurst}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			env := &publishEnv{log: &txLog{}, routes: &staticTable{}, backend: newSOAPBackend(b)}
			env.setSource(b, func(src *routing.Source) {
				src.Backends[0].Limiter = c.limiter
				src.RateLimit = c.rate
			})
			body := echoItems(1 << 10)
			h := httpx.Correlation(New(Config{Routes: env.routes, Recorder: NopRecorder{}, MaxPayloadMB: func() int { return 10 },
				Backends: selectedInProcess{sel: upstream.NewSelector(nil, nil), answer: echoAnswer(echoEnvelope(b, env, body))}}))
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					req := httptest.NewRequest("POST", "/publish/dev/calc/echo", bytes.NewReader(body))
					req.Header.Set("Content-Type", "application/json")
					w := httptest.NewRecorder()
					h.ServeHTTP(w, req)
					if w.Code != 200 {
						b.Fatalf("status %d: %s", w.Code, w.Body)
					}
				}
			})
		})
	}
}
