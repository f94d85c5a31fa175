package upstream

import (
	"github.com/prometheus/client_golang/prometheus"
)

// Metrics exposes the backend health and breaker states to Prometheus:
//
//	s2r_backend_healthy{service,profile}        1 healthy, 0 unhealthy (checked backends)
//	s2r_backend_breaker_state{service,profile}  0 closed, 1 half-open, 2 open
//
// service is the service id, profile the backend profile id. The values
// are read at scrape time from the live state, so nothing is updated on
// the request path.
type Metrics struct {
	health   *Health
	breakers *Breakers
	healthy  *prometheus.Desc
	breaker  *prometheus.Desc
}

// NewMetrics returns the collector over h and b (either may be nil).
func NewMetrics(h *Health, b *Breakers) *Metrics {
	return &Metrics{health: h, breakers: b,
		healthy: prometheus.NewDesc("s2r_backend_healthy", "Whether a health-checked backend is healthy (1) or not (0).",
			[]string{"service", "profile"}, nil),
		breaker: prometheus.NewDesc("s2r_backend_breaker_state", "Circuit breaker state of a backend: 0 closed, 1 half-open, 2 open.",
			[]string{"service", "profile"}, nil),
	}
}

// Describe implements prometheus.Collector.
func (m *Metrics) Describe(ch chan<- *prometheus.Desc) {
	ch <- m.healthy
	ch <- m.breaker
}

// Collect implements prometheus.Collector.
func (m *Metrics) Collect(ch chan<- prometheus.Metric) {
	if m.health != nil {
		for _, s := range m.health.All() {
			v := 0.0
			if s.Healthy {
				v = 1
			}
			ch <- prometheus.MustNewConstMetric(m.healthy, prometheus.GaugeValue, v, s.ServiceID, s.ProfileID)
		}
	}
	if m.breakers != nil {
		for _, b := range m.breakers.all() {
			ch <- prometheus.MustNewConstMetric(m.breaker, prometheus.GaugeValue, float64(b.state), b.serviceID, b.profileID)
		}
	}
}
