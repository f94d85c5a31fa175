package discovery

import (
	"errors"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/s2r-project/s2r/internal/model"
)

// ingestMetrics counts ingested events. A nil registerer gives working,
// unregistered counters.
type ingestMetrics struct {
	events *prometheus.CounterVec
}

func newIngestMetrics(reg prometheus.Registerer) (*ingestMetrics, error) {
	m := &ingestMetrics{events: prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "s2r_ingest_events_total",
		Help: "Events received by /ingest/v1 in committed batches, by result (stored, duplicate).",
	}, []string{"result"})}
	if reg != nil {
		if err := reg.Register(m.events); err != nil {
			var are prometheus.AlreadyRegisteredError
			if !errors.As(err, &are) {
				return nil, err
			}
			m.events = are.ExistingCollector.(*prometheus.CounterVec)
		}
	}
	return m, nil
}

func (m *ingestMetrics) stored(res model.IngestResult) {
	m.events.WithLabelValues("stored").Add(float64(res.Stored))
	m.events.WithLabelValues("duplicate").Add(float64(res.Duplicates))
}
