package limit

import (
	"github.com/prometheus/client_golang/prometheus"
)

// Metrics exposes the protection state to Prometheus, read at scrape time
// from the live counters (nothing is updated on the request path for it):
//
//	s2r_backend_in_flight{service,profile}             calls admitted and not yet finished
//	s2r_backend_queued{service,profile}                calls waiting for a slot (queueTimeoutMs)
//	s2r_backend_refused_total{service,profile,reason}  calls refused: reason concurrency or rate
//	s2r_client_rate_limited_total                      requests refused by a client rate limit
//	s2r_client_rate_limit_clients                      clients with a bucket on this instance
//	s2r_client_rate_limit_evicted_total                clients forgotten to make room
//
// service is the service id of the profile (from services, which maps
// profile ids to service ids at scrape time; "" when unknown).
type Metrics struct {
	registry *Registry
	clients  *Clients
	services func() map[string]string

	inFlight, queued, refused    *prometheus.Desc
	limited, tracked, evictedCnt *prometheus.Desc
}

// NewMetrics returns the collector over r and c (either may be nil);
// services may be nil.
func NewMetrics(r *Registry, c *Clients, services func() map[string]string) *Metrics {
	labels := []string{"service", "profile"}
	return &Metrics{registry: r, clients: c, services: services,
		inFlight: prometheus.NewDesc("s2r_backend_in_flight", "Backend calls admitted by the profile's limiter and not yet finished, on this instance.", labels, nil),
		queued:   prometheus.NewDesc("s2r_backend_queued", "Backend calls waiting for a slot of the profile (queueTimeoutMs), on this instance.", labels, nil),
		refused: prometheus.NewDesc("s2r_backend_refused_total", "Backend calls refused with 503 S2R-RUN-0509 (reason concurrency: maxConcurrentRequests; rate: maxRequestsPerSecond).",
			[]string{"service", "profile", "reason"}, nil),
		limited:    prometheus.NewDesc("s2r_client_rate_limited_total", "Requests refused with 429 S2R-RUN-0429 by a service's client rate limit.", nil, nil),
		tracked:    prometheus.NewDesc("s2r_client_rate_limit_clients", "Clients with a rate-limit bucket on this instance.", nil, nil),
		evictedCnt: prometheus.NewDesc("s2r_client_rate_limit_evicted_total", "Clients forgotten to make room in the rate-limit table (they start again with a full burst).", nil, nil),
	}
}

// Describe implements prometheus.Collector.
func (m *Metrics) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{m.inFlight, m.queued, m.refused, m.limited, m.tracked, m.evictedCnt} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (m *Metrics) Collect(ch chan<- prometheus.Metric) {
	if m.registry != nil {
		var services map[string]string
		if m.services != nil {
			services = m.services()
		}
		for id, s := range m.registry.Snapshots() {
			svc := services[id]
			ch <- prometheus.MustNewConstMetric(m.inFlight, prometheus.GaugeValue, float64(s.InFlight), svc, id)
			ch <- prometheus.MustNewConstMetric(m.queued, prometheus.GaugeValue, float64(s.Waiting), svc, id)
			ch <- prometheus.MustNewConstMetric(m.refused, prometheus.CounterValue, float64(s.RefusedConcurrency), svc, id, ReasonConcurrency)
			ch <- prometheus.MustNewConstMetric(m.refused, prometheus.CounterValue, float64(s.RefusedRate), svc, id, ReasonRate)
		}
	}
	if m.clients != nil {
		s := m.clients.Snapshot()
		ch <- prometheus.MustNewConstMetric(m.limited, prometheus.CounterValue, float64(s.Refused))
		ch <- prometheus.MustNewConstMetric(m.tracked, prometheus.GaugeValue, float64(s.Clients))
		ch <- prometheus.MustNewConstMetric(m.evictedCnt, prometheus.CounterValue, float64(s.Evicted))
	}
}
