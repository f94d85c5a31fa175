package dataplane

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/s2r-project/s2r/internal/httpx"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/tests/cputime"
	"github.com/s2r-project/s2r/internal/tracing"
	"github.com/s2r-project/s2r/internal/upstream"
)

// tracedInProcess is inProcess with the CLIENT span upstream makes of a
// backend call when tracing is on.
type tracedInProcess struct {
	inProcess
	t *tracing.Tracer
}

func (p tracedInProcess) Do(ctx context.Context, svc *routing.Service, req upstream.Request) (*upstream.Response, *routing.Backend, error) {
	_, span := p.t.StartClient(ctx, "backend.internal:8443")
	_ = span.TraceParent()
	resp, b, err := p.inProcess.Do(ctx, svc, req)
	span.End(resp.StatusCode, err)
	return resp, b, err
}

// BenchmarkPublishTracing is the publish handler of BenchmarkPublishHandler
// (1 KB) with tracing off (nil Tracer: the default) and on, every span
// sampled and exported by OTLP/HTTP to a receiver on 127.0.0.1 that
// discards them. cpu-ns/op is the whole process's CPU per request, the
// batch exporter's included.
func BenchmarkPublishTracing(b *testing.B) {
	collector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	defer collector.Close()
	on, err := tracing.New(context.Background(), func(k string) string {
		if k == tracing.EnvEndpoint {
			return collector.URL
		}
		return ""
	})
	if err != nil {
		b.Fatal(err)
	}
	defer on.Shutdown(context.Background())
	for _, c := range []struct {
		name string
		t    *tracing.Tracer
	}{{"off", nil}, {"on", on}} {
		b.Run(c.name, func(b *testing.B) {
			env := &publishEnv{log: &txLog{}, routes: &staticTable{}, backend: newSOAPBackend(b)}
			env.setSource(b, nil)
			body := echoItems(1 << 10)
			cfg := Config{Routes: env.routes, Recorder: NopRecorder{}, MaxPayloadMB: func() int { return 10 }}
			backend := inProcess{answer: echoAnswer(echoEnvelope(b, env, body))}
			cfg.Backends = backend
			if c.t != nil {
				cfg.Tracer = c.t
				cfg.Backends = tracedInProcess{backend, c.t}
			}
			h := httpx.Correlation(New(cfg))
			b.ReportAllocs()
			b.ResetTimer()
			defer cputime.Report(b)()
			for b.Loop() {
				req := httptest.NewRequest("POST", "/publish/dev/calc/echo", bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				if w.Code != 200 {
					b.Fatalf("status %d: %s", w.Code, w.Body)
				}
			}
		})
	}
}
