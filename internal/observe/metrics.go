package observe

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/s2r-project/s2r/internal/model"
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
	metricViolations = "s2r_contract_violations_total"
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
	// violations counts the contract violations of responses answered
	// under responseValidation "detect" (DESIGN 10.6); rare, so its
	// series are resolved per record rather than cached.
	violations *prometheus.CounterVec

	// routes caches the label-resolved collectors of each route (a
	// routeKey → *routeMetrics), so observing a record costs one map
	// lookup instead of four label-value validations and hashes.
	routes    sync.Map
	nroute    atomic.Int64
	maxRoutes int64 // maxRouteSeries; tests lower it
}

// maxRouteSeries caps the cached routes: a data plane that put unbounded
// values in ServiceKey or OperationKey would otherwise grow the series
// without limit. Past it, new label sets are counted unlabelled.
const maxRouteSeries = 10000

// routeKey is the label values of one route.
type routeKey struct{ dir, env, svc, op string }

// routeMetrics are the collectors of one route.
type routeMetrics struct {
	requests                  map[string]prometheus.Counter // by result label
	total, backend, converter prometheus.Observer
}

// resultLabels is the closed set of the result label.
var resultLabels = []string{model.ResultSuccess, model.ResultFailed, model.ResultBackendFailure,
	model.ResultError, model.ResultTimeout, model.ResultResponseSchemaViolation}

func (m *metrics) route(k routeKey) *routeMetrics {
	if rm, ok := m.routes.Load(k); ok {
		return rm.(*routeMetrics)
	}
	if m.nroute.Load() >= m.maxRoutes && k != (routeKey{dir: k.dir}) {
		return m.route(routeKey{dir: k.dir})
	}
	rm := &routeMetrics{
		requests:  make(map[string]prometheus.Counter, len(resultLabels)),
		total:     m.total.WithLabelValues(k.dir, k.env, k.svc, k.op),
		backend:   m.backend.WithLabelValues(k.dir, k.env, k.svc, k.op),
		converter: m.converter.WithLabelValues(k.dir, k.env, k.svc, k.op),
	}
	for _, res := range resultLabels {
		rm.requests[res] = m.requests.WithLabelValues(k.dir, k.env, k.svc, k.op, res)
	}
	got, loaded := m.routes.LoadOrStore(k, rm)
	if !loaded {
		m.nroute.Add(1)
	}
	return got.(*routeMetrics)
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
		violations: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: metricViolations,
			Help: "Contract violations of backend responses answered under responseValidation detect, one per violation.",
		}, routeLabels[1:]),
		maxRoutes: maxRouteSeries,
	}
	queue := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: metricQueueDepth,
		Help: "Transaction records waiting for the batch writer.",
	}, queueLen)
	for _, c := range []prometheus.Collector{m.requests, m.total, m.backend, m.converter, m.dropped, m.written, m.violations, queue} {
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
func (m *metrics) observe(rec *model.TxRecord) {
	dir := rec.Direction
	switch dir {
	case model.DirectionPublish, model.DirectionConsume, model.DirectionGateway:
	default:
		dir = ""
	}
	env, svc, op := rec.Environment, rec.ServiceKey, rec.OperationKey
	if svc == "" {
		env, op = "", ""
	}
	rm := m.route(routeKey{dir, clip(env), clip(svc), clip(op)})
	rm.requests[resultLabel(rec.ResultCode)].Inc()
	rm.total.Observe(rec.TotalMs / 1000)
	if rec.BackendMs > 0 {
		rm.backend.Observe(rec.BackendMs / 1000)
	}
	rm.converter.Observe(rec.ConverterMs / 1000)
	if n := model.IssueCount(rec.ValidationIssues); n > 0 && svc != "" {
		m.violations.WithLabelValues(clip(env), clip(svc), clip(op)).Add(float64(n))
	}
}

func clip(s string) string {
	if len(s) > maxLabelLen {
		return s[:maxLabelLen]
	}
	return s
}

// resultLabel keeps the result label in the closed set.
func resultLabel(code string) string {
	if slices.Contains(resultLabels, code) {
		return code
	}
	return model.ResultError
}
