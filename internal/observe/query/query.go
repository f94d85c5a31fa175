// Package query answers the observability queries of the admin API (SPEC
// 4.10, 4.11; DESIGN 9): metrics, the dashboard summary, the SLO report,
// service metric timelines, the unified traffic logs of the edge sources
// (lb and generic) and the legacy lb logs, free-text traffic search, debug
// traces and their replay metadata, and the SOAP-to-JSON preview.
//
// Three traffic sources are combined: runtime (s2r's own records), lb and
// generic (the ingest API's feeds, internal/discovery). Edge traffic
// belongs to the tenant of the instance that reported it, and a caller
// sees its own tenant's edge traffic only; runtime records are shared.
//
// Windows of at most one hour are answered from the raw records with
// exact nearest-rank percentiles; longer windows from the hourly
// aggregates kept by observe.Aggregator, where p50 is the mean and p95
// and p99 the largest hourly maximum. Every route is a read (reader role);
// its routes are handed to admin.Config.Routes, which authorizes and
// documents them.
package query

import (
	"context"
	"log/slog"
	"math"
	"net/http"
	"time"

	"github.com/s2r-project/s2r/internal/access"
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/contracts"
	"github.com/s2r-project/s2r/internal/discovery"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

// Config configures the API. Store is required.
type Config struct {
	Store  *store.Store
	Logger *slog.Logger
	// Contracts parses stored WSDLs for the preview's contract mode; nil
	// makes one.
	Contracts *contracts.Cache
	// Now is the clock (tests); nil is time.Now.
	Now func() time.Time
	// Ingest reports the freshness of the ingest connectors for the
	// dashboard (kpis.f5IngestStale and its urgent issues); nil reports
	// none.
	Ingest IngestFreshness
}

// IngestFreshness is the part of discovery the dashboard reads
// (*discovery.Service).
type IngestFreshness interface {
	// Freshness judges by staleMinutes (dashboard_freshness_stale_minutes,
	// as the dashboard read it).
	Freshness(ctx context.Context, now time.Time, staleMinutes int64) (discovery.Freshness, error)
}

// API serves the observability routes.
type API struct {
	store     *store.Store
	log       *slog.Logger
	contracts *contracts.Cache
	now       func() time.Time
	ingest    IngestFreshness
}

// New returns the API.
func New(cfg Config) *API {
	a := &API{store: cfg.Store, log: cfg.Logger, contracts: cfg.Contracts, now: cfg.Now, ingest: cfg.Ingest}
	if a.log == nil {
		a.log = slog.Default()
	}
	if a.contracts == nil {
		a.contracts = contracts.New(cfg.Store)
	}
	if a.now == nil {
		a.now = adminapi.Now
	}
	return a
}

// Routes returns the observability routes for admin.Config.Routes. All
// are reads, so reader may call every one (DESIGN 6.3); payloads of debug
// traces and of edge transactions are shown to operator and admin only.
func (a *API) Routes() []adminapi.Route {
	return []adminapi.Route{
		{Method: "GET", Path: "/metrics", Role: model.RoleReader, Handle: a.getMetrics, Doc: docGetMetrics},
		{Method: "GET", Path: "/dashboard/summary", Role: model.RoleReader, Handle: a.getDashboard, Doc: docGetDashboard},
		{Method: "GET", Path: "/slo-report", Role: model.RoleReader, Handle: a.getSLOReport, Doc: docGetSLOReport},
		{Method: "GET", Path: "/service-metric-timeline", Role: model.RoleReader, Handle: a.getServiceTimeline, Doc: docGetServiceTimeline},
		{Method: "GET", Path: "/traffic-search", Role: model.RoleReader, Handle: a.getTrafficSearch, Doc: docGetTrafficSearch},
		{Method: "GET", Path: "/traffic-logs", Role: model.RoleReader, Handle: a.getTrafficLogs, Doc: docGetTrafficLogs},
		{Method: "GET", Path: "/traffic-logs/{id}", Role: model.RoleReader, Handle: a.getTrafficLog, Doc: docGetTrafficLog},
		{Method: "GET", Path: "/lb-logs", Role: model.RoleReader, Handle: a.getLBLogs, Doc: docGetLBLogs},
		{Method: "GET", Path: "/lb-logs/{id}", Role: model.RoleReader, Handle: a.getLBLog, Doc: docGetLBLog},
		{Method: "GET", Path: "/debug-traces/{correlationId}", Role: model.RoleReader, Handle: a.getDebugTrace, Doc: docGetDebugTrace},
		{Method: "GET", Path: "/debug-traces/{correlationId}/replay-metadata", Role: model.RoleReader, Handle: a.getReplayMetadata, Doc: docGetReplayMetadata},
		{Method: "POST", Path: "/soap-to-json-preview", Role: model.RoleReader, Handle: a.postPreview, Doc: docPostPreview},
	}
}

// callerTenant is the tenant of the request's caller: the edge traffic
// it may see.
func callerTenant(r *http.Request) string {
	if c, ok := access.CallerFrom(r.Context()); ok && c.TenantID != "" {
		return c.TenantID
	}
	return model.DefaultTenant
}

// showsPayloads reports whether the caller may see payloads and headers
// (business data): operator and admin; a reader gets them withheld, as
// with debug traces.
func showsPayloads(r *http.Request) bool {
	c, _ := access.CallerFrom(r.Context())
	return c.Role.AtLeast(model.RoleOperator)
}

// ms rounds a figure in milliseconds to the microsecond.
func ms(v float64) float64 { return round3(v) }

// msPtr is ms of *v, nil for nil.
func msPtr(v *float64) *float64 {
	if v == nil {
		return nil
	}
	r := ms(*v)
	return &r
}

// pct is 100*part/whole rounded to 0.001, nil when whole is 0.
func pct(part, whole int64) *float64 {
	if whole == 0 {
		return nil
	}
	v := round3(100 * float64(part) / float64(whole))
	return &v
}

// availability is the percentage of requests that were not errors
// (requests > 0).
func availability(requests, errors int64) float64 {
	return 100 * float64(requests-errors) / float64(requests)
}

// round3 rounds to three decimals.
func round3(v float64) float64 { return math.Round(v*1000) / 1000 }
