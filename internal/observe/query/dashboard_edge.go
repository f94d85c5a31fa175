package query

import (
	"cmp"
	"context"
	"maps"
	"slices"
	"time"

	"github.com/s2r-project/s2r/internal/discovery"
	"github.com/s2r-project/s2r/internal/model"
)

// topVSFailures is the length of topVsLevelFailures24h.
const topVSFailures = 5

// issueIngestStale is the urgent issue of a connector instance that has
// sent nothing for dashboard_freshness_stale_minutes (SPEC 4.11 rule 6).
const issueIngestStale = "ingest_stale"

// vsFailures is one front virtual server of topVsLevelFailures24h: the lb
// transactions that failed at it with an edge connection failure (reset,
// no_backend, tls_error, …) in the last 24 hours, which no service can be
// blamed for.
type vsFailures struct {
	FrontVirtualServer string           `json:"frontVirtualServer"`
	BackVirtualServers []string         `json:"backVirtualServers"`
	FailureCount       int64            `json:"failureCount"`
	ResultCodes        map[string]int64 `json:"resultCodes"`
	LastSeenAt         time.Time        `json:"lastSeenAt"`
}

// wantsSource reports whether a dashboard over sources (nil: all) shows
// source.
func wantsSource(sources []string, source string) bool {
	return len(sources) == 0 || slices.Contains(sources, source)
}

// fillIngest sets kpis.f5IngestStale and adds the urgent issues of the
// caller's tenant's stale connector instances (discovery.Freshness, by
// staleMinutes), unless the dashboard shows runtime traffic only.
func (a *API) fillIngest(ctx context.Context, d *dashboard, tenant string, now time.Time, staleMinutes int64) error {
	if a.ingest == nil || !wantsSource(d.Parameters.Sources, model.SourceLB) && !wantsSource(d.Parameters.Sources, model.SourceGeneric) {
		return nil
	}
	fr, err := a.ingest.Freshness(ctx, now, staleMinutes)
	if err != nil {
		return err
	}
	for _, in := range fr.Instances {
		if in.TenantID == tenant && in.Stale && in.Vendor == discovery.VendorF5 {
			d.KPIs.F5IngestStale = true
		}
	}
	for _, is := range fr.UrgentIssues {
		if is.TenantID != tenant {
			continue
		}
		d.UrgentIssues = append(d.UrgentIssues, urgentIssue{Type: issueIngestStale, Severity: is.Severity, Message: is.Message,
			InstanceID: is.InstanceID, Vendor: is.Vendor, Since: is.Since})
	}
	return nil
}

// fillVSFailures sets topVsLevelFailures24h from the caller's tenant's lb
// events of the last 24 hours, unless the dashboard leaves lb out.
func (a *API) fillVSFailures(ctx context.Context, d *dashboard, tenant string, now time.Time) error {
	d.TopVsLevelFailures24h = []vsFailures{}
	if !wantsSource(d.Parameters.Sources, model.SourceLB) {
		return nil
	}
	rows, err := a.store.VSLevelFailures(ctx, tenant, now.Add(-24*time.Hour), now)
	if err != nil {
		return err
	}
	byFront := map[string]*vsFailures{}
	for _, r := range rows {
		f := byFront[r.FrontVirtualServer]
		if f == nil {
			f = &vsFailures{FrontVirtualServer: r.FrontVirtualServer, BackVirtualServers: []string{}, ResultCodes: map[string]int64{}}
			byFront[r.FrontVirtualServer] = f
		}
		f.FailureCount += r.Count
		f.ResultCodes[r.ResultCode] += r.Count
		if r.BackVirtualServer != "" && !slices.Contains(f.BackVirtualServers, r.BackVirtualServer) {
			f.BackVirtualServers = append(f.BackVirtualServers, r.BackVirtualServer)
		}
		if r.LastSeen.After(f.LastSeenAt) {
			f.LastSeenAt = r.LastSeen
		}
	}
	all := slices.SortedFunc(maps.Values(byFront), func(x, y *vsFailures) int {
		return cmp.Or(cmp.Compare(y.FailureCount, x.FailureCount), cmp.Compare(x.FrontVirtualServer, y.FrontVirtualServer))
	})
	for _, f := range all[:min(len(all), topVSFailures)] {
		slices.Sort(f.BackVirtualServers)
		d.TopVsLevelFailures24h = append(d.TopVsLevelFailures24h, *f)
	}
	return nil
}
