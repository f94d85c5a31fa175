package routing

import (
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
)

// Register exposes the reloader's state as Prometheus metrics:
// s2r_route_table_revision, s2r_route_table_services,
// s2r_route_table_excluded_services (services left out because they do not
// compile) and s2r_route_table_reload_failures_total.
func (r *Reloader) Register(reg prometheus.Registerer) error {
	cs := []prometheus.Collector{
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "s2r_route_table_revision",
			Help: "Configuration revision of the route table being served (-1 before the first load).",
		}, func() float64 { return float64(r.Table().Revision()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "s2r_route_table_services",
			Help: "Services in the route table being served.",
		}, func() float64 { return float64(len(r.Table().services)) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "s2r_route_table_excluded_services",
			Help: "Active services left out of the route table because their configuration does not compile (see the logs).",
		}, func() float64 { return float64(len(r.Table().Errors())) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "s2r_route_table_reload_failures_total",
			Help: "Route table loads that failed (the previous table kept being served).",
		}, func() float64 { return float64(r.Failures()) }),
	}
	for _, c := range cs {
		if err := reg.Register(c); err != nil {
			return fmt.Errorf("routing: register metrics: %w", err)
		}
	}
	return nil
}
