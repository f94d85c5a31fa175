package query

import (
	"net/http"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/model"
)

// aggregatedOperation is the operationKey of metrics read from the hourly
// aggregates (SPEC 4.10).
const aggregatedOperation = "(aggregated)"

// windowParams are window, start and end with the given default window.
func windowParams(def string) []adminapi.Param {
	return []adminapi.Param{
		{Name: "window", Type: "string", Description: "15m, 1h, 24h, 7d, 30d or 60d ending now; default " + def +
			". Windows of at most 1 hour are read from raw records, longer ones from the hourly aggregates (whole hours)"},
		{Name: "start", Type: "string", Description: "ISO 8601 start, inclusive; with end it overrides window, alone the window extends from it"},
		{Name: "end", Type: "string", Description: "ISO 8601 end, inclusive; alone the window ends at it"},
	}
}

// filterDocs are the list, source and direction filters.
var filterDocs = []adminapi.Param{
	{Name: "environments", Type: "string", Description: "environments, comma-separated or repeated (at most 100)"},
	{Name: "serviceKeys", Type: "string", Description: "service keys, comma-separated or repeated (at most 100)"},
	{Name: "source", Type: "string", Description: "one traffic source: runtime, lb or generic; absent: every source, combined as a union"},
	{Name: "direction", Type: "string", Description: "publish, consume or gateway"},
}

var docGetMetrics = adminapi.Doc{
	Summary: "Traffic metrics per source, service and operation (SPEC 4.10, 4.11). Windows of at most 1 hour come from raw records " +
		"with exact nearest-rank p50/p95/p99; longer windows from the hourly aggregates per service, with operationKey " +
		"\"(aggregated)\", p50 the mean latency and p95 = p99 the largest hourly maximum. Errors follow SPEC 4.11 rule 4 " +
		"(in-body SOAP faults included; for lb and generic the edge's status, result code and SOAP fault mapped onto it). " +
		"p95ConverterOverheadMs is null where the source records no converter time (lb, generic). An lb transaction counts " +
		"once, on its client_response event; a generic log is one transaction. lb and generic traffic carries the environment, " +
		"serviceKey and direction of the onboarded service its serviceUri matches now, else environment \"discovered\" and the " +
		"serviceUri as serviceKey; its operationKey is the serviceUri. Edge traffic is the caller's tenant's only.",
	Query: append(append(windowParams("15m"), filterDocs...),
		adminapi.Param{Name: "onboardedOnly", Type: "boolean", Description: "true: only catalog services, joined by canonical " +
			"service id and reported with their own serviceKey and environment; false (default): values as logged, shadow services included"}),
	Response: []metricItem{},
}

// metricItem is one item of GET /metrics.
type metricItem struct {
	Source                 string   `json:"source"`
	Direction              string   `json:"direction"`
	Environment            string   `json:"environment"`
	ServiceKey             string   `json:"serviceKey"`
	ServiceID              string   `json:"serviceId,omitempty"`
	OperationKey           string   `json:"operationKey"`
	RequestCount           int64    `json:"requestCount"`
	ErrorCount             int64    `json:"errorCount"`
	P50LatencyMs           float64  `json:"p50LatencyMs"`
	P95LatencyMs           float64  `json:"p95LatencyMs"`
	P99LatencyMs           float64  `json:"p99LatencyMs"`
	P95ConverterOverheadMs *float64 `json:"p95ConverterOverheadMs"`
}

// getMetrics answers GET /metrics.
func (a *API) getMetrics(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	tr, err := parseWindow(q, "15m", a.now())
	if err != nil {
		return err
	}
	mq, err := filterParams(q)
	if err != nil {
		return err
	}
	if mq.OnboardedOnly, err = parseBool(q, "onboardedOnly", false); err != nil {
		return err
	}
	mq.TenantID = callerTenant(r)
	mq.Since, mq.Until, mq.Aggregated = tr.since, tr.until, !tr.raw()
	mq.Group = model.BySource | model.ByService
	if !mq.Aggregated {
		mq.Group |= model.ByOperation
	}
	rows, err := a.store.Metrics(r.Context(), mq)
	if err != nil {
		return err
	}
	items := make([]metricItem, len(rows))
	for i, row := range rows {
		items[i] = metricItem{
			Source: row.Source, Direction: row.Direction, Environment: row.Environment, ServiceKey: row.ServiceKey,
			ServiceID: row.ServiceID, OperationKey: row.OperationKey, RequestCount: row.Requests, ErrorCount: row.Errors,
			P50LatencyMs: ms(row.P50Ms), P95LatencyMs: ms(row.P95Ms), P99LatencyMs: ms(row.P99Ms),
			P95ConverterOverheadMs: msPtr(row.ConverterP95Ms),
		}
		if mq.Aggregated {
			items[i].OperationKey = aggregatedOperation
		}
	}
	return adminapi.WriteJSON(w, http.StatusOK, items)
}
