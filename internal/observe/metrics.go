package observe

import (
	"fmt"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/s2r-project/s2r/internal/dataplane"
)

// Metric names.
const (
	metricRequests   = "s2r_runtime_requests_total"
	metricTotal      = "s2r_runtime_request_duration_seconds"
	metricBackend    = "s2r_runtime_backend_duration_seconds"
	metricConverter  = "s2r_runtime_converter_duration_seconds"
	metricDropped    = "s2r_tx_records_dropped_total"
	metricWritten    = "s2r_tx_records_written_total"
	metricQueueDepth = "s2r_tx_records_queue_length"
)

// Drop reasons, the reason label of s2r_tx_records_dropped_total.
const (
	DropQueueFull   = "queue_full"
	DropWriteFailed = "write_failed"
)

// metrics are the recorder's Prometheus collectors.
//
// Label cardinality is bounded by construction: service and operation come
// from the route table (the record's ServiceKey/OperationKey, which the data
// plane fills only from a matched route), and a record without a matched
// service is labelled with empty environment, service and operation, since
// its environment is whatever the client typed. Direction and result are
// closed sets. Raw paths are never labels.
type metrics struct {
	requests  *prometheus.CounterVec
	total     *prometheus.HistogramVec
	backend   *prometheus.HistogramVec
	converter *prometheus.HistogramVec
	dropped   *prometheus.CounterVec
	written   prometheus.Counter
}

var routeLabels = []string{"direction", "environment", "service", "operation"}

func newMetrics(reg prometheus.Registerer, queueLen func() float64) (*metrics, error) {
	m := &metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: metricRequests,
			Help: "Runtime transactions by direction, environment, service, operation and result code (SPEC 4.11 rule 4).",
		}, append(routeLabels[:4:4], "result")),
		total: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    metricTotal,
			Help:    "Total time of runtime transactions, from request arrival to the last response byte.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60},
		}, routeLabels),
		backend: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    metricBackend,
			Help:    "Time spent waiting for the backend in runtime transactions.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60},
		}, routeLabels),
		converter: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    metricConverter,
			Help:    "Time s2r itself spent on runtime transactions (validation, conversion, transforms): the converter overhead.",
			Buckets: []float64{.00005, .0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1},
		}, routeLabels),
		dropped: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: metricDropped,
			Help: "Transaction records not stored: queue_full (the request path never waits) or write_failed (after retries).",
		}, []string{"reason"}),
		written: prometheus.NewCounter(prometheus.CounterOpts{
			Name: metricWritten,
			Help: "Transaction records stored.",
		}),
	}
	queue := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: metricQueueDepth,
		Help: "Transaction records waiting for the batch writer.",
	}, queueLen)
	for _, c := range []prometheus.Collector{m.requests, m.total, m.backend, m.converter, m.dropped, m.written, queue} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("observe: register metrics: %w", err)
		}
	}
	// Make the drop series visible at 0 before the first drop.
	m.dropped.WithLabelValues(DropQueueFull)
	m.dropped.WithLabelValues(DropWriteFailed)
	return m, nil
}

// maxLabelLen bounds a label value taken from the route table.
const maxLabelLen = 128

// observe counts rec and records its latencies.
func (m *metrics) observe(rec *dataplane.TxRecord) {
	dir := string(rec.Direction)
	if _, ok := dataplane.ParseDirection(dir); !ok {
		dir = ""
	}
	env, svc, op := rec.Environment, rec.ServiceKey, rec.OperationKey
	if svc == "" {
		env, op = "", ""
	}
	env, svc, op = clip(env), clip(svc), clip(op)
	m.requests.WithLabelValues(dir, env, svc, op, resultLabel(rec.ResultCode)).Inc()
	m.total.WithLabelValues(dir, env, svc, op).Observe(rec.TotalMs / 1000)
	if rec.BackendMs > 0 {
		m.backend.WithLabelValues(dir, env, svc, op).Observe(rec.BackendMs / 1000)
	}
	m.converter.WithLabelValues(dir, env, svc, op).Observe(rec.ConverterMs / 1000)
}

func clip(s string) string {
	if len(s) > maxLabelLen {
		return s[:maxLabelLen]
	}
	return s
}

// resultLabel keeps the result label in the closed set.
func resultLabel(code string) string {
	switch code {
	case dataplane.ResultSuccess, dataplane.ResultFailed, dataplane.ResultBackendFailure, dataplane.ResultError,
		dataplane.ResultTimeout, dataplane.ResultResponseSchemaViolation:
		return code
	}
	return dataplane.ResultError
}
