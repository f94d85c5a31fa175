package query

import (
	"cmp"
	"context"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

// Dashboard defaults and bounds (SPEC 4.10, 8).
const (
	defaultTrafficThreshold   = 50
	defaultP95TargetMs        = 500.0
	defaultAvailabilityTarget = 99.5
	topErrorServices          = 5
	maxLatencyTargetMs        = 3_600_000.0
)

var docGetDashboard = adminapi.Doc{
	Summary: "Dashboard summary (SPEC 4.10): KPIs, the hourly traffic timeline and the top 5 services by errors over the last " +
		"24 hours (from the hourly aggregates, whole hours), p95 latency from the last hour of raw records, urgent issues and " +
		"the freshness of each aggregation source (runtime, lb, generic). A service raises an availability or latency issue only " +
		"with at least trafficThreshold requests in 24 hours; a source whose last aggregation is older than " +
		"dashboard_freshness_stale_minutes is stale and raises a critical issue. kpis.f5IngestStale is true when an f5 connector " +
		"instance of the caller's tenant has sent neither events nor a heartbeat for dashboard_freshness_stale_minutes; every " +
		"stale instance raises an ingest_stale issue (critical for f5). topVsLevelFailures24h lists the 5 front virtual servers " +
		"with most lb transactions in the last 24 hours that failed at the edge before any service answered (edge result codes " +
		"such as reset, no_backend, tls_error: any but ok, success, timeout and SPEC 4.11's application codes). Edge traffic " +
		"is the caller's tenant's only; source=runtime leaves the ingest KPI, its issues and the virtual servers out.",
	Query: []adminapi.Param{
		{Name: "trafficThreshold", Type: "integer", Description: "requests in 24 h a service needs before it can raise an issue; default 50, 0..1000000000"},
		{Name: "p95LatencyTargetMs", Type: "number", Description: "p95 latency target in ms; default 500, 0..3600000"},
		{Name: "availabilityTarget", Type: "number", Description: "availability target in percent; default 99.5, 0..100"},
		filterDocs[2], filterDocs[3],
	},
	Response: dashboard{},
}

// dashboard is the answer of GET /dashboard/summary.
type dashboard struct {
	GeneratedAt           time.Time        `json:"generatedAt"`
	Parameters            dashboardParams  `json:"parameters"`
	KPIs                  dashboardKPIs    `json:"kpis"`
	TrafficTimeline24h    []trafficPoint   `json:"trafficTimeline24h"`
	TopErrorServices      []serviceFigures `json:"topErrorServices"`
	TopVsLevelFailures24h []vsFailures     `json:"topVsLevelFailures24h"`
	UrgentIssues          []urgentIssue    `json:"urgentIssues"`
	DataFreshness         dataFreshness    `json:"dataFreshness"`
}

// dashboardParams echoes the thresholds the answer used.
type dashboardParams struct {
	TrafficThreshold   int64    `json:"trafficThreshold"`
	P95LatencyTargetMs float64  `json:"p95LatencyTargetMs"`
	AvailabilityTarget float64  `json:"availabilityTarget"`
	Sources            []string `json:"sources"`
	Direction          string   `json:"direction,omitempty"`
}

// dashboardKPIs are the headline figures.
type dashboardKPIs struct {
	TotalServices      int64    `json:"totalServices"`
	ActiveServices     int64    `json:"activeServices"`
	RequestCount24h    int64    `json:"requestCount24h"`
	ErrorCount24h      int64    `json:"errorCount24h"`
	ErrorPct24h        *float64 `json:"errorPct24h"`
	AvailabilityPct24h *float64 `json:"availabilityPct24h"`
	// P95LatencyMs24h is the exact p95 of the last hour of raw records
	// (the SPEC's 1 h sample), null when there were none.
	P95LatencyMs24h                 *float64 `json:"p95LatencyMs24h"`
	P95SampleSize                   int64    `json:"p95SampleSize"`
	ServicesWithTraffic24h          int64    `json:"servicesWithTraffic24h"`
	ServicesOverTrafficThreshold24h int64    `json:"servicesOverTrafficThreshold24h"`
	// F5IngestStale is true when an f5 connector instance of the caller's
	// tenant has sent nothing for dashboard_freshness_stale_minutes.
	F5IngestStale bool `json:"f5IngestStale"`
}

// trafficPoint is one hour of the traffic timeline.
type trafficPoint struct {
	Hour         time.Time `json:"hour"`
	RequestCount int64     `json:"requestCount"`
	ErrorCount   int64     `json:"errorCount"`
}

// serviceFigures is one service's 24-hour traffic.
type serviceFigures struct {
	Source       string   `json:"source"`
	Direction    string   `json:"direction"`
	Environment  string   `json:"environment"`
	ServiceKey   string   `json:"serviceKey"`
	RequestCount int64    `json:"requestCount"`
	ErrorCount   int64    `json:"errorCount"`
	ErrorPct     *float64 `json:"errorPct"`
}

// Urgent issue types and severities.
const (
	issueStaleSource   = "stale_aggregation_source"
	issueAvailability  = "availability_below_target"
	issueLatency       = "p95_latency_above_target"
	severityCritical   = "critical"
	severityHigh       = "high"
	severityMedium     = "medium"
	freshnessNeverRuns = "never aggregated"
)

// urgentIssue is one entry of urgentIssues.
type urgentIssue struct {
	Type        string   `json:"type"`
	Severity    string   `json:"severity"`
	Message     string   `json:"message"`
	Source      string   `json:"source,omitempty"`
	Direction   string   `json:"direction,omitempty"`
	Environment string   `json:"environment,omitempty"`
	ServiceKey  string   `json:"serviceKey,omitempty"`
	Value       *float64 `json:"value,omitempty"`
	Target      *float64 `json:"target,omitempty"`
	// InstanceID, Vendor and Since name a stale connector instance and
	// when it was last heard from (null: never).
	InstanceID string     `json:"instanceId,omitempty"`
	Vendor     string     `json:"vendor,omitempty"`
	Since      *time.Time `json:"since,omitempty"`
}

// dataFreshness reports the aggregation sources' last refresh.
type dataFreshness struct {
	StaleAfterMinutes int64             `json:"staleAfterMinutes"`
	AnyStale          bool              `json:"anyStale"`
	Sources           []sourceFreshness `json:"sources"`
}

// sourceFreshness is one aggregation source's last refresh.
type sourceFreshness struct {
	Source        string     `json:"source"`
	LastRefreshAt *time.Time `json:"lastRefreshAt"`
	Stale         bool       `json:"stale"`
}

// getDashboard answers GET /dashboard/summary.
func (a *API) getDashboard(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	var (
		p   dashboardParams
		err error
	)
	if p.TrafficThreshold, err = parseInt(q, "trafficThreshold", defaultTrafficThreshold, 0, 1_000_000_000); err != nil {
		return err
	}
	if p.P95LatencyTargetMs, err = parseFloat(q, "p95LatencyTargetMs", defaultP95TargetMs, 0, maxLatencyTargetMs); err != nil {
		return err
	}
	if p.AvailabilityTarget, err = parseFloat(q, "availabilityTarget", defaultAvailabilityTarget, 0, 100); err != nil {
		return err
	}
	if p.Sources, err = parseSource(q); err != nil {
		return err
	}
	if p.Direction, err = parseDirection(q); err != nil {
		return err
	}
	d, err := a.dashboard(r.Context(), p, callerTenant(r), a.now())
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, d)
}

// dashboard computes the summary at now for a caller of tenant.
func (a *API) dashboard(ctx context.Context, p dashboardParams, tenant string, now time.Time) (dashboard, error) {
	d := dashboard{GeneratedAt: now, Parameters: p}
	if d.Parameters.Sources == nil {
		d.Parameters.Sources = store.TrafficSources()
	}
	counts, err := a.store.CountServices(ctx, p.Direction)
	if err != nil {
		return d, err
	}
	d.KPIs.TotalServices, d.KPIs.ActiveServices = counts.Total, counts.Active
	base := model.MetricQuery{Sources: p.Sources, Direction: p.Direction, Since: now.Add(-24 * time.Hour), Until: now, Aggregated: true,
		TenantID: tenant}

	day := base
	day.Group = model.BySource | model.ByService
	services, err := a.store.Metrics(ctx, day)
	if err != nil {
		return d, err
	}
	timeline := base
	timeline.BucketSeconds = 3600
	hours, err := a.store.Metrics(ctx, timeline)
	if err != nil {
		return d, err
	}
	d.TrafficTimeline24h = hourlyTimeline(hours, base.Since, now)

	sample := model.MetricQuery{Sources: p.Sources, Direction: p.Direction, Since: now.Add(-time.Hour), Until: now, TenantID: tenant}
	overall, err := a.store.Metrics(ctx, sample)
	if err != nil {
		return d, err
	}
	if len(overall) == 1 {
		d.KPIs.P95LatencyMs24h = msPtr(&overall[0].P95Ms)
		d.KPIs.P95SampleSize = overall[0].Requests
	}
	sample.Group = model.BySource | model.ByService
	recent, err := a.store.Metrics(ctx, sample)
	if err != nil {
		return d, err
	}
	d.fillServiceKPIs(services, recent)
	// The settings are read once, as saved (an admin read follows a
	// PATCH at once), and judge the aggregation and the ingest freshness
	// alike.
	settings, err := a.store.Settings(ctx)
	if err != nil {
		return d, err
	}
	if err := a.fillFreshness(ctx, &d, now, settings.DashboardFreshnessStaleMinutes); err != nil {
		return d, err
	}
	if err := a.fillIngest(ctx, &d, tenant, now, settings.DashboardFreshnessStaleMinutes); err != nil {
		return d, err
	}
	if err := a.fillVSFailures(ctx, &d, tenant, now); err != nil {
		return d, err
	}
	slices.SortStableFunc(d.UrgentIssues, func(x, y urgentIssue) int {
		return cmp.Compare(severityRank(x.Severity), severityRank(y.Severity))
	})
	return d, nil
}

// hourlyTimeline turns hourly buckets into one point per hour from
// since's hour to until's, empty hours included.
func hourlyTimeline(rows []model.MetricRow, since, until time.Time) []trafficPoint {
	first := since.UTC().Truncate(time.Hour)
	n := int(until.UTC().Truncate(time.Hour).Sub(first)/time.Hour) + 1
	out := make([]trafficPoint, n)
	for i := range out {
		out[i].Hour = first.Add(time.Duration(i) * time.Hour)
	}
	for _, r := range rows {
		if r.Bucket >= 0 && int(r.Bucket) < n {
			out[r.Bucket].RequestCount += r.Requests
			out[r.Bucket].ErrorCount += r.Errors
		}
	}
	return out
}

// fillServiceKPIs derives the totals, the top error services and the
// service issues from the 24-hour per-service figures and the last hour's
// raw per-service figures.
func (d *dashboard) fillServiceKPIs(services, recent []model.MetricRow) {
	p := d.Parameters
	type key struct{ source, direction, env, svc string }
	busy := map[key]bool{}
	for _, s := range services {
		d.KPIs.RequestCount24h += s.Requests
		d.KPIs.ErrorCount24h += s.Errors
		d.KPIs.ServicesWithTraffic24h++
		if s.Requests < p.TrafficThreshold {
			continue
		}
		d.KPIs.ServicesOverTrafficThreshold24h++
		busy[key{s.Source, s.Direction, s.Environment, s.ServiceKey}] = true
		if avail := availability(s.Requests, s.Errors); avail < p.AvailabilityTarget {
			d.UrgentIssues = append(d.UrgentIssues, serviceIssue(issueAvailability, severityHigh, s, round3(avail), p.AvailabilityTarget,
				fmt.Sprintf("availability %.3f%% over 24 h is below the %.3f%% target", avail, p.AvailabilityTarget)))
		}
	}
	d.KPIs.ErrorPct24h = pct(d.KPIs.ErrorCount24h, d.KPIs.RequestCount24h)
	if d.KPIs.RequestCount24h > 0 {
		v := round3(availability(d.KPIs.RequestCount24h, d.KPIs.ErrorCount24h))
		d.KPIs.AvailabilityPct24h = &v
	}
	for _, s := range recent {
		if p95 := ms(s.P95Ms); busy[key{s.Source, s.Direction, s.Environment, s.ServiceKey}] && p95 > p.P95LatencyTargetMs {
			d.UrgentIssues = append(d.UrgentIssues, serviceIssue(issueLatency, severityMedium, s, p95, p.P95LatencyTargetMs,
				fmt.Sprintf("p95 latency %.3f ms over the last hour is above the %.3f ms target", p95, p.P95LatencyTargetMs)))
		}
	}
	top := slices.Clone(services)
	slices.SortStableFunc(top, func(x, y model.MetricRow) int {
		return cmp.Or(cmp.Compare(y.Errors, x.Errors), cmp.Compare(y.Requests, x.Requests))
	})
	d.TopErrorServices = []serviceFigures{}
	for _, s := range top {
		if s.Errors == 0 || len(d.TopErrorServices) == topErrorServices {
			break
		}
		d.TopErrorServices = append(d.TopErrorServices, serviceFigures{Source: s.Source, Direction: s.Direction,
			Environment: s.Environment, ServiceKey: s.ServiceKey, RequestCount: s.Requests, ErrorCount: s.Errors,
			ErrorPct: pct(s.Errors, s.Requests)})
	}
	if d.UrgentIssues == nil {
		d.UrgentIssues = []urgentIssue{}
	}
}

func serviceIssue(typ, severity string, s model.MetricRow, value, target float64, msg string) urgentIssue {
	return urgentIssue{Type: typ, Severity: severity, Message: s.Environment + "/" + s.ServiceKey + " (" + s.Source + "): " + msg,
		Source: s.Source, Direction: s.Direction, Environment: s.Environment, ServiceKey: s.ServiceKey,
		Value: &value, Target: &target}
}

// fillFreshness reports every aggregation source's last refresh; one
// older than staleMinutes raises a critical issue (SPEC 4.11 rule 6).
func (a *API) fillFreshness(ctx context.Context, d *dashboard, now time.Time, staleMinutes int64) error {
	states, err := a.store.AggregationStates(ctx)
	if err != nil {
		return err
	}
	f := dataFreshness{StaleAfterMinutes: staleMinutes, Sources: []sourceFreshness{}}
	staleAfter := time.Duration(staleMinutes) * time.Minute
	for _, src := range store.TrafficSources() {
		sf := sourceFreshness{Source: src, Stale: true}
		if i := slices.IndexFunc(states, func(s model.AggregationState) bool { return s.Source == src }); i >= 0 {
			t := states[i].RefreshedAt
			sf.LastRefreshAt = &t
			sf.Stale = now.Sub(t) > staleAfter
		}
		if sf.Stale {
			f.AnyStale = true
			last := freshnessNeverRuns
			if sf.LastRefreshAt != nil {
				last = "last refreshed " + sf.LastRefreshAt.Format(time.RFC3339)
			}
			d.UrgentIssues = append(d.UrgentIssues, urgentIssue{Type: issueStaleSource, Severity: severityCritical, Source: src,
				Message: fmt.Sprintf("traffic aggregation of source %s is stale (%s; stale after %d minutes): figures over 1 hour may be missing traffic",
					src, last, staleMinutes)})
		}
		f.Sources = append(f.Sources, sf)
	}
	d.DataFreshness = f
	return nil
}

// severityRank orders severities, most urgent first.
func severityRank(s string) int {
	switch s {
	case severityCritical:
		return 0
	case severityHigh:
		return 1
	}
	return 2
}
