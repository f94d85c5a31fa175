package query

import (
	"net/http"
	"time"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/model"
)

var docGetSLOReport = adminapi.Doc{
	Summary: "SLO report (SPEC 4.10): per source and operation for windows of at most 1 hour (raw records, exact p95), per " +
		"service with operationKey \"(aggregated)\" for longer windows (hourly aggregates, p95 = largest hourly maximum). " +
		"availabilityBreach: availability below availabilityTarget; p95LatencyBreach: p95 above p95LatencyTargetMs; breach: " +
		"either. timeline holds every bucket of the window (1 or 5 minutes raw; 1 hour, 6 hours or 1 day aggregated), empty ones " +
		"with zero requests and null figures.",
	Query: append(append(windowParams("1h"), filterDocs...),
		adminapi.Param{Name: "availabilityTarget", Type: "number", Description: "availability target in percent; default 99.5, 0..100"},
		adminapi.Param{Name: "p95LatencyTargetMs", Type: "number", Description: "p95 latency target in ms; default 500, 0..3600000"}),
	Response: []sloItem{},
}

// sloFigures are the SLO figures of a service, operation or bucket.
type sloFigures struct {
	RequestCount    int64    `json:"requestCount"`
	ErrorCount      int64    `json:"errorCount"`
	AvailabilityPct *float64 `json:"availabilityPct"`
	P95LatencyMs    *float64 `json:"p95LatencyMs"`
}

// sloItem is one entry of the SLO report.
type sloItem struct {
	Source       string `json:"source"`
	Direction    string `json:"direction"`
	Environment  string `json:"environment"`
	ServiceKey   string `json:"serviceKey"`
	OperationKey string `json:"operationKey"`
	sloFigures
	Breach             bool       `json:"breach"`
	AvailabilityBreach bool       `json:"availabilityBreach"`
	P95LatencyBreach   bool       `json:"p95LatencyBreach"`
	Timeline           []sloPoint `json:"timeline"`
}

// sloPoint is one bucket of an SLO timeline.
type sloPoint struct {
	Start time.Time `json:"start"`
	sloFigures
}

// figures returns the SLO figures of row.
func figures(row model.MetricRow) sloFigures {
	f := sloFigures{RequestCount: row.Requests, ErrorCount: row.Errors}
	if row.Requests > 0 {
		av := round3(availability(row.Requests, row.Errors))
		p95 := ms(row.P95Ms)
		f.AvailabilityPct, f.P95LatencyMs = &av, &p95
	}
	return f
}

// getSLOReport answers GET /slo-report.
func (a *API) getSLOReport(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	tr, err := parseWindow(q, "1h", a.now())
	if err != nil {
		return err
	}
	mq, err := filterParams(q)
	if err != nil {
		return err
	}
	mq.TenantID = callerTenant(r)
	availTarget, err := parseFloat(q, "availabilityTarget", defaultAvailabilityTarget, 0, 100)
	if err != nil {
		return err
	}
	p95Target, err := parseFloat(q, "p95LatencyTargetMs", defaultP95TargetMs, 0, maxLatencyTargetMs)
	if err != nil {
		return err
	}
	mq.Since, mq.Until, mq.Aggregated = tr.since, tr.until, !tr.raw()
	mq.Group = model.BySource | model.ByService
	if !mq.Aggregated {
		mq.Group |= model.ByOperation
	}
	summary, points, b, err := a.summaryAndPoints(r.Context(), mq, tr)
	if err != nil {
		return err
	}
	type key struct{ source, direction, env, svc, op string }
	index := make(map[key]int, len(summary))
	items := make([]sloItem, len(summary))
	for i, row := range summary {
		it := sloItem{Source: row.Source, Direction: row.Direction, Environment: row.Environment, ServiceKey: row.ServiceKey,
			OperationKey: row.OperationKey, sloFigures: figures(row), Timeline: make([]sloPoint, b.count)}
		if mq.Aggregated {
			it.OperationKey = aggregatedOperation
		}
		it.AvailabilityBreach = it.AvailabilityPct != nil && availability(row.Requests, row.Errors) < availTarget
		it.P95LatencyBreach = it.P95LatencyMs != nil && *it.P95LatencyMs > p95Target
		it.Breach = it.AvailabilityBreach || it.P95LatencyBreach
		for j := range it.Timeline {
			it.Timeline[j].Start = b.start(j)
		}
		items[i] = it
		index[key{row.Source, row.Direction, row.Environment, row.ServiceKey, row.OperationKey}] = i
	}
	for _, p := range points {
		i, ok := index[key{p.Source, p.Direction, p.Environment, p.ServiceKey, p.OperationKey}]
		if ok && p.Bucket >= 0 && int(p.Bucket) < b.count {
			items[i].Timeline[p.Bucket].sloFigures = figures(p)
		}
	}
	return adminapi.WriteJSON(w, http.StatusOK, items)
}
