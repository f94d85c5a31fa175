package httpx

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Surfaces, the values of the surface label.
const (
	SurfaceRuntime = "runtime"
	SurfaceAdmin   = "admin"
	SurfaceIngest  = "ingest"
	SurfaceHealth  = "health"
	SurfaceMetrics = "metrics"
	SurfaceConsole = "console"
)

// SurfaceOf classifies a request path. Everything that is not one of the
// service's own prefixes belongs to the runtime (data plane).
func SurfaceOf(path string) string {
	switch {
	case path == "/admin/v1" || strings.HasPrefix(path, "/admin/v1/"):
		return SurfaceAdmin
	case path == "/ingest/v1" || strings.HasPrefix(path, "/ingest/v1/"):
		return SurfaceIngest
	case strings.HasPrefix(path, "/health/"):
		return SurfaceHealth
	case path == "/metrics":
		return SurfaceMetrics
	case path == "/console" || strings.HasPrefix(path, "/console/"):
		return SurfaceConsole
	}
	return SurfaceRuntime
}

// HTTPMetrics are the request metrics of every surface.
type HTTPMetrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

// NewHTTPMetrics creates and registers s2r_http_requests_total{surface,code}
// and s2r_http_request_duration_seconds{surface}.
func NewHTTPMetrics(reg prometheus.Registerer) (*HTTPMetrics, error) {
	m := &HTTPMetrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "s2r_http_requests_total",
			Help: "HTTP requests served, by surface and status code.",
		}, []string{"surface", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "s2r_http_request_duration_seconds",
			Help:    "Time to serve HTTP requests, by surface.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"surface"}),
	}
	for _, c := range []prometheus.Collector{m.requests, m.duration} {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// Metrics counts every request and observes its duration. A panicking
// request is counted with code 500.
func Metrics(m *HTTPMetrics) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := time.Now()
			rec := wrap(w)
			surface := SurfaceOf(r.URL.Path)
			status := http.StatusInternalServerError
			defer func() {
				m.requests.WithLabelValues(surface, strconv.Itoa(status)).Inc()
				m.duration.WithLabelValues(surface).Observe(time.Since(start).Seconds())
			}()
			next.ServeHTTP(rec, r)
			status = rec.Status()
			if status == 0 {
				status = http.StatusOK
			}
		})
	}
}
