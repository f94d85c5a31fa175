package server

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/s2r-project/s2r/internal/dataplane"
	"github.com/s2r-project/s2r/internal/health"
	"github.com/s2r-project/s2r/internal/httpx"
)

// benchHandlers returns the bare dispatcher and the full main handler
// around it (recover, correlation, access log to a discarding JSON
// handler, metrics, surface router), to measure what the frame adds.
func benchHandlers(b *testing.B) (bare, full http.Handler) {
	reg := NewRegistry()
	m, err := httpx.NewHTTPMetrics(reg)
	if err != nil {
		b.Fatal(err)
	}
	d := dataplane.New(dataplane.Config{})
	cfg := Config{
		Logger:   slog.New(slog.NewJSONHandler(io.Discard, nil)),
		Registry: reg,
		Metrics:  m,
		Health:   health.New(health.Config{}),
		Runtime:  d,
	}
	return d, cfg.MainHandler()
}

func benchServe(b *testing.B, h http.Handler, path string, want int) {
	req := httptest.NewRequest("POST", path, nil)
	req.Header.Set("Authorization", "Bearer x")
	req.Header.Set("Content-Type", "application/json")
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != want {
			b.Fatalf("status %d, want %d", rec.Code, want)
		}
	}
}

// BenchmarkDispatcherBare is the baseline: the runtime dispatcher alone
// answering a route miss (404 JSON error).
func BenchmarkDispatcherBare(b *testing.B) {
	bare, _ := benchHandlers(b)
	benchServe(b, bare, "/publish/dev/calc/add", 404)
}

// BenchmarkDispatcherFullChain is the same request through the whole
// middleware chain and router.
func BenchmarkDispatcherFullChain(b *testing.B) {
	_, full := benchHandlers(b)
	benchServe(b, full, "/publish/dev/calc/add", 404)
}
