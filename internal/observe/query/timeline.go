package query

import (
	"net/http"
	"time"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/model"
)

var docGetServiceTimeline = adminapi.Doc{
	Summary: "One service's traffic over a window, every source combined (SPEC 4.10): summary figures and points, one per " +
		"time bucket (1 or 5 minutes from raw records for windows of at most 1 hour; 1 hour, 6 hours or 1 day from the hourly " +
		"aggregates otherwise), empty buckets included. p95LatencyMs is exact on raw windows and the largest hourly maximum on " +
		"aggregated ones; averages are total latency over requests.",
	Query: append(windowParams("24h"),
		adminapi.Param{Name: "environment", Type: "string", Description: "environment of the service; absent: every environment"},
		adminapi.Param{Name: "serviceKey", Type: "string", Description: "service key (required)"}),
	Response: serviceTimeline{},
}

// serviceTimeline is the answer of GET /service-metric-timeline.
type serviceTimeline struct {
	Environment   string          `json:"environment,omitempty"`
	ServiceKey    string          `json:"serviceKey"`
	From          time.Time       `json:"from"`
	To            time.Time       `json:"to"`
	Aggregated    bool            `json:"aggregated"`
	BucketSeconds int64           `json:"bucketSeconds"`
	RequestCount  int64           `json:"requestCount"`
	ErrorCount    int64           `json:"errorCount"`
	ErrorPct      *float64        `json:"errorPct"`
	AvgLatencyMs  *float64        `json:"avgLatencyMs"`
	P95LatencyMs  *float64        `json:"p95LatencyMs"`
	Points        []timelinePoint `json:"points"`
}

// timelinePoint is one bucket of a service timeline.
type timelinePoint struct {
	Start        time.Time `json:"start"`
	RequestCount int64     `json:"requestCount"`
	ErrorCount   int64     `json:"errorCount"`
	AvgLatencyMs *float64  `json:"avgLatencyMs"`
}

// avgLatency is the mean latency of row, nil without requests.
func avgLatency(row model.MetricRow) *float64 {
	if row.Requests == 0 {
		return nil
	}
	v := ms(row.LatencySumMs / float64(row.Requests))
	return &v
}

// getServiceTimeline answers GET /service-metric-timeline.
func (a *API) getServiceTimeline(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	tr, err := parseWindow(q, "24h", a.now())
	if err != nil {
		return err
	}
	env, err := parseText(q, "environment")
	if err != nil {
		return err
	}
	key, err := parseText(q, "serviceKey")
	if err != nil {
		return err
	}
	if key == "" {
		return adminapi.FieldError("serviceKey", "is required")
	}
	mq := model.MetricQuery{ServiceKeys: []string{key}, Since: tr.since, Until: tr.until, Aggregated: !tr.raw(), TenantID: callerTenant(r)}
	if env != "" {
		mq.Environments = []string{env}
	}
	summary, points, b, err := a.summaryAndPoints(r.Context(), mq, tr)
	if err != nil {
		return err
	}
	out := serviceTimeline{Environment: env, ServiceKey: key, From: tr.since, To: tr.until, Aggregated: mq.Aggregated,
		BucketSeconds: int64(b.width / time.Second), Points: make([]timelinePoint, b.count)}
	if len(summary) == 1 {
		s := summary[0]
		out.RequestCount, out.ErrorCount = s.Requests, s.Errors
		out.ErrorPct, out.AvgLatencyMs = pct(s.Errors, s.Requests), avgLatency(s)
		out.P95LatencyMs = msPtr(&s.P95Ms)
	}
	for i := range out.Points {
		out.Points[i].Start = b.start(i)
	}
	for _, p := range points {
		if p.Bucket >= 0 && int(p.Bucket) < b.count {
			pt := &out.Points[p.Bucket]
			pt.RequestCount, pt.ErrorCount, pt.AvgLatencyMs = p.Requests, p.Errors, avgLatency(p)
		}
	}
	return adminapi.WriteJSON(w, http.StatusOK, out)
}
