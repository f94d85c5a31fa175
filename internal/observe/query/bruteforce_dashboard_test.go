package query

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/model"
)

// checkDashboard compares the dashboard summary with the reference: the
// KPIs, the timeline, the top error services, the urgent issues, the
// freshness of every source and the virtual-server failures of the lb
// calls.
func checkDashboard(t *testing.T, api *testAPI, recs []refRecord, calls []edgeCall, now time.Time) {
	var got dashboard
	api.get("/admin/v1/dashboard/summary?trafficThreshold=100&availabilityTarget=70&p95LatencyTargetMs=1800", &got)
	day := refQuery{since: now.Add(-24 * time.Hour), until: now, aggregated: true, byService: true}
	services := reference(recs, day)
	var req, errs int64
	for _, f := range services {
		req, errs = req+f.requests, errs+f.errors
	}
	hour := reference(recs, refQuery{since: now.Add(-time.Hour), until: now})[refKey{}]
	k := got.KPIs
	if k.TotalServices != 4 || k.ActiveServices != 3 || k.RequestCount24h != req || k.ErrorCount24h != errs ||
		*k.ErrorPct24h != round3(100*float64(errs)/float64(req)) || *k.AvailabilityPct24h != round3(100*float64(req-errs)/float64(req)) ||
		*k.P95LatencyMs24h != ms(rank(hour.latencies, 95)) || k.P95SampleSize != hour.requests ||
		k.ServicesWithTraffic24h != int64(len(services)) || k.F5IngestStale {
		t.Errorf("kpis %+v; want requests %d errors %d p95 %v over %d", k, req, errs, ms(rank(hour.latencies, 95)), hour.requests)
	}
	timeline := reference(recs, refQuery{since: now.Add(-24 * time.Hour), until: now, aggregated: true,
		bucket: time.Hour, origin: now.Add(-24 * time.Hour).Truncate(time.Hour), buckets: 25})
	if len(got.TrafficTimeline24h) != 25 {
		t.Fatalf("%d timeline points", len(got.TrafficTimeline24h))
	}
	for i, p := range got.TrafficTimeline24h {
		f := timeline[refKey{bucket: i}]
		if f == nil {
			f = &refFigures{}
		}
		if p.RequestCount != f.requests || p.ErrorCount != f.errors || !p.Hour.Equal(now.Add(-24*time.Hour).Truncate(time.Hour).Add(time.Duration(i)*time.Hour)) {
			t.Errorf("timeline %d %+v, want %d/%d", i, p, f.requests, f.errors)
		}
	}
	checkTopErrors(t, got.TopErrorServices, services)
	checkIssues(t, got.UrgentIssues, services, reference(recs, refQuery{since: now.Add(-time.Hour), until: now, byService: true}))
	fresh := got.DataFreshness
	if fresh.AnyStale || len(fresh.Sources) != 3 || slices.ContainsFunc(fresh.Sources, func(s sourceFreshness) bool { return s.Stale }) {
		t.Errorf("freshness %+v", fresh)
	}
	checkVSFailures(t, got.TopVsLevelFailures24h, calls, now)
}

// checkTopErrorServices compares the top 5 services by errors (ties:
// more requests; services tied on both may come in any order).
func checkTopErrors(t *testing.T, got []serviceFigures, services map[refKey]*refFigures) {
	t.Helper()
	keys := slices.Collect(maps.Keys(services))
	slices.SortFunc(keys, func(a, b refKey) int {
		return cmp.Or(cmp.Compare(services[b].errors, services[a].errors), cmp.Compare(services[b].requests, services[a].requests))
	})
	figures := func(errors, requests int64) string { return fmt.Sprintf("%d/%d", errors, requests) }
	var want, have []string
	for _, k := range keys[:min(5, len(keys))] {
		want = append(want, figures(services[k].errors, services[k].requests))
	}
	for _, s := range got {
		have = append(have, figures(s.ErrorCount, s.RequestCount))
		f := services[refKey{source: s.Source, direction: s.Direction, env: s.Environment, key: s.ServiceKey}]
		if f == nil || f.errors != s.ErrorCount || f.requests != s.RequestCount || *s.ErrorPct != round3(100*float64(f.errors)/float64(f.requests)) {
			t.Errorf("top error service %+v does not match its reference %+v", s, f)
		}
	}
	if !slices.Equal(have, want) {
		t.Errorf("top error services\ngot  %v\nwant %v", have, want)
	}
}

// checkIssues compares the service issues (as a set: their order within
// a severity follows the database's collation).
func checkIssues(t *testing.T, got []urgentIssue, services, recent map[refKey]*refFigures) {
	t.Helper()
	var want []string
	for k, f := range services {
		if f.requests >= 100 && 100*float64(f.requests-f.errors)/float64(f.requests) < 70 {
			want = append(want, issueAvailability+" "+k.source+" "+k.key)
		}
	}
	for k, r := range recent {
		if f := services[refKey{source: k.source, direction: k.direction, env: k.env, key: k.key}]; f != nil && f.requests >= 100 &&
			ms(rank(r.latencies, 95)) > 1800 {
			want = append(want, issueLatency+" "+k.source+" "+k.key)
		}
	}
	var have []string
	for i, is := range got {
		have = append(have, is.Type+" "+is.Source+" "+is.ServiceKey)
		if i > 0 && severityRank(got[i-1].Severity) > severityRank(is.Severity) {
			t.Errorf("issue %d (%s) after a less severe one", i, is.Severity)
		}
	}
	slices.Sort(want)
	slices.Sort(have)
	if !slices.Equal(have, want) || len(want) == 0 {
		t.Errorf("urgent issues\ngot  %v\nwant %v", have, want)
	}
}

// checkVSFailures compares topVsLevelFailures24h with the lb calls of the
// default tenant that failed at a virtual server in the last 24 hours.
func checkVSFailures(t *testing.T, got []vsFailures, calls []edgeCall, now time.Time) {
	t.Helper()
	want := map[string]*vsFailures{}
	for _, c := range calls {
		if c.source != model.SourceLB || !c.completed || c.tenant != model.DefaultTenant || c.at.Before(now.Add(-24*time.Hour)) ||
			c.at.After(now) || slices.Contains([]string{"", "ok", "success", "timeout"}, c.outcome.result) {
			continue
		}
		front := c.lb[0].FrontVirtualServer
		f := want[front]
		if f == nil {
			f = &vsFailures{FrontVirtualServer: front, ResultCodes: map[string]int64{}}
			want[front] = f
		}
		f.FailureCount++
		f.ResultCodes[c.outcome.result]++
		if back := c.lb[0].BackVirtualServer; !slices.Contains(f.BackVirtualServers, back) {
			f.BackVirtualServers = append(f.BackVirtualServers, back)
		}
		if c.at.After(f.LastSeenAt) {
			f.LastSeenAt = c.at
		}
	}
	if len(got) != len(want) || len(want) == 0 {
		t.Fatalf("virtual-server failures %+v, want %d front servers", got, len(want))
	}
	for i, g := range got {
		w := want[g.FrontVirtualServer]
		if w == nil {
			t.Fatalf("unexpected front server %+v", g)
		}
		slices.Sort(w.BackVirtualServers)
		if g.FailureCount != w.FailureCount || !maps.Equal(g.ResultCodes, w.ResultCodes) || !g.LastSeenAt.Equal(w.LastSeenAt) ||
			!slices.Equal(g.BackVirtualServers, w.BackVirtualServers) {
			t.Errorf("front server %s: %+v, want %+v", g.FrontVirtualServer, g, w)
		}
		if i > 0 && got[i-1].FailureCount < g.FailureCount {
			t.Errorf("front servers not ordered by failures: %+v", got)
		}
	}
}
