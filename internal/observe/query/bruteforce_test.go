package query

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// TestFiguresMatchBruteForce compares every figure of /metrics (raw and
// aggregated windows, every filter), the dashboard summary, the SLO report
// and the service timeline with the same figures computed by brute force
// in Go over the raw rows, on both databases. Half the records arrive
// after a first aggregation run, some back-dated into old hours, so the
// incremental re-aggregation is checked too.
func TestFiguresMatchBruteForce(t *testing.T) {
	now := time.Date(2026, 3, 10, 12, 34, 56, 789000000, time.UTC)
	rng := rand.New(rand.NewPCG(7, 12))
	recent := fixtureLogs(rng, now, time.Hour, 600, "recent")
	older := fixtureLogs(rng, now, 9*24*time.Hour, 1500, "older")
	late := fixtureLogs(rng, now.Add(-3*24*time.Hour), 4*24*time.Hour, 300, "late") // back-dated
	all := slices.Concat(recent, older, late)
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		seedServices(t, st)
		insertLogs(t, st, slices.Concat(recent, older))
		aggregate(t, st, now)
		insertLogs(t, st, late)
		aggregate(t, st, now.Add(time.Second))
		aggregate(t, st, now.Add(2*time.Second)) // idempotent: nothing changes
		api := newTestAPI(t, st, now)
		t.Run("metrics", func(t *testing.T) { checkMetrics(t, api, all, now) })
		t.Run("slo", func(t *testing.T) { checkSLO(t, api, all, now) })
		t.Run("dashboard", func(t *testing.T) { checkDashboard(t, api, all, now) })
		t.Run("timeline", func(t *testing.T) { checkTimeline(t, api, all, now) })
	})
}

func iso(t time.Time) string { return url.QueryEscape(t.Format(time.RFC3339Nano)) }

func checkMetrics(t *testing.T, api *testAPI, logs []store.TxLog, now time.Time) {
	tests := []struct {
		query string
		q     refQuery
	}{
		{"", refQuery{since: now.Add(-15 * time.Minute)}},
		{"window=1h", refQuery{since: now.Add(-time.Hour)}},
		{"window=1h&direction=consume", refQuery{since: now.Add(-time.Hour), direction: "consume"}},
		{"window=1h&environments=dev&serviceKeys=weather,ghost", refQuery{since: now.Add(-time.Hour), envs: []string{"dev"}, keys: []string{"weather", "ghost"}}},
		{"window=1h&onboardedOnly=true", refQuery{since: now.Add(-time.Hour), onboarded: true}},
		{"window=1h&onboardedOnly=true&serviceKeys=calculator", refQuery{since: now.Add(-time.Hour), onboarded: true, keys: []string{"calculator"}}},
		{"window=24h", refQuery{since: now.Add(-24 * time.Hour), aggregated: true}},
		{"window=7d&source=runtime", refQuery{since: now.Add(-7 * 24 * time.Hour), aggregated: true}},
		{"window=60d&onboardedOnly=true", refQuery{since: now.Add(-60 * 24 * time.Hour), aggregated: true, onboarded: true}},
		{"window=30d&environments=prod&environments=dev&direction=publish", refQuery{since: now.Add(-30 * 24 * time.Hour), aggregated: true, envs: []string{"prod", "dev"}, direction: "publish"}},
		{"start=" + iso(now.Add(-50*time.Hour)) + "&end=" + iso(now.Add(-30*time.Hour-time.Minute)), refQuery{since: now.Add(-50 * time.Hour), until: now.Add(-30*time.Hour - time.Minute), aggregated: true}},
		{"start=" + iso(now.Add(-80*time.Hour)) + "&end=" + iso(now.Add(-79*time.Hour-time.Second)), refQuery{since: now.Add(-80 * time.Hour), until: now.Add(-79*time.Hour - time.Second)}},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			q := tt.q
			if q.until.IsZero() {
				q.until = now
			}
			q.byService, q.byOperation = true, !q.aggregated
			want := []metricItem{}
			ref := reference(logs, q)
			for _, k := range sortedKeys(ref) {
				f := ref[k]
				p50, p95, p99, conv := f.percentiles(q.aggregated)
				op := k.op
				if q.aggregated {
					op = aggregatedOperation
				}
				want = append(want, metricItem{Source: k.source, Direction: k.direction, Environment: k.env, ServiceKey: k.key,
					ServiceID: k.sid, OperationKey: op, RequestCount: f.requests, ErrorCount: f.errors,
					P50LatencyMs: ms(p50), P95LatencyMs: ms(p95), P99LatencyMs: ms(p99), P95ConverterOverheadMs: &conv})
			}
			var got []metricItem
			api.get("/admin/v1/metrics?"+tt.query, &got)
			if len(want) == 0 {
				t.Fatal("the fixture selects nothing: a useless case")
			}
			compareMetrics(t, want, got)
		})
	}
}

func compareMetrics(t *testing.T, want, got []metricItem) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d items, want %d:\ngot  %+v\nwant %+v", len(got), len(want), got, want)
	}
	for i := range want {
		w, g := want[i], got[i]
		if g.P95ConverterOverheadMs == nil || *g.P95ConverterOverheadMs != ms(*w.P95ConverterOverheadMs) {
			t.Errorf("item %d converter p95 %v, want %v", i, g.P95ConverterOverheadMs, *w.P95ConverterOverheadMs)
		}
		w.P95ConverterOverheadMs, g.P95ConverterOverheadMs = nil, nil
		if approx(w.P50LatencyMs, g.P50LatencyMs) {
			w.P50LatencyMs = g.P50LatencyMs // the aggregated mean: sums differ in the last bits
		}
		if w != g {
			t.Errorf("item %d:\ngot  %+v\nwant %+v", i, g, w)
		}
	}
}

func checkSLO(t *testing.T, api *testAPI, logs []store.TxLog, now time.Time) {
	for _, tt := range []struct {
		query string
		q     refQuery
		width time.Duration
		n     int
	}{
		{"window=1h&availabilityTarget=80&p95LatencyTargetMs=1900", refQuery{since: now.Add(-time.Hour)}, 5 * time.Minute, 12},
		{"window=15m&serviceKeys=calc", refQuery{since: now.Add(-15 * time.Minute), keys: []string{"calc"}}, time.Minute, 15},
		{"window=24h&availabilityTarget=60&p95LatencyTargetMs=5500", refQuery{since: now.Add(-24 * time.Hour), aggregated: true}, time.Hour, 25},
		{"window=7d&direction=gateway", refQuery{since: now.Add(-7 * 24 * time.Hour), aggregated: true, direction: "gateway"}, 6 * time.Hour, 29},
	} {
		t.Run(tt.query, func(t *testing.T) {
			q := tt.q
			q.until, q.byService, q.byOperation = now, true, !q.aggregated
			var got []sloItem
			api.get("/admin/v1/slo-report?"+tt.query, &got)
			summary := reference(logs, q)
			q.bucket, q.buckets, q.origin = tt.width, tt.n, q.since
			if q.aggregated {
				q.origin = q.since.Truncate(time.Hour)
			}
			points := reference(logs, q)
			keys := sortedKeys(summary)
			if len(got) != len(keys) || len(keys) == 0 {
				t.Fatalf("%d items, want %d", len(got), len(keys))
			}
			vals, _ := url.ParseQuery(tt.query)
			availTarget, _ := parseFloat(vals, "availabilityTarget", 99.5, 0, 100)
			p95Target, _ := parseFloat(vals, "p95LatencyTargetMs", 500, 0, maxLatencyTargetMs)
			breaches := 0
			for i, k := range keys {
				g := got[i]
				f := summary[k]
				_, p95, _, _ := f.percentiles(q.aggregated)
				avail := 100 * float64(f.requests-f.errors) / float64(f.requests)
				wantAvail, wantP95 := round3(avail), ms(p95)
				if g.ServiceKey != k.key || g.Direction != k.direction || g.RequestCount != f.requests || g.ErrorCount != f.errors ||
					*g.AvailabilityPct != wantAvail || *g.P95LatencyMs != wantP95 {
					t.Errorf("item %d %+v, want %+v %d/%d %v %v", i, g.sloFigures, k, f.requests, f.errors, wantAvail, wantP95)
				}
				if g.AvailabilityBreach != (avail < availTarget) || g.P95LatencyBreach != (wantP95 > p95Target) ||
					g.Breach != (g.AvailabilityBreach || g.P95LatencyBreach) {
					t.Errorf("item %d breach flags %v %v %v", i, g.Breach, g.AvailabilityBreach, g.P95LatencyBreach)
				}
				if g.Breach {
					breaches++
				}
				if len(g.Timeline) != tt.n {
					t.Fatalf("item %d: %d points, want %d", i, len(g.Timeline), tt.n)
				}
				for j, p := range g.Timeline {
					if want := q.origin.Truncate(time.Second).Add(time.Duration(j) * tt.width); !p.Start.Equal(want) {
						t.Errorf("point %d starts %v, want %v", j, p.Start, want)
					}
					pk := k
					pk.bucket = j
					pf := points[pk]
					if pf == nil {
						if p.RequestCount != 0 || p.P95LatencyMs != nil {
							t.Errorf("item %d point %d: %+v, want empty", i, j, p)
						}
						continue
					}
					_, pp95, _, _ := pf.percentiles(q.aggregated)
					if p.RequestCount != pf.requests || p.ErrorCount != pf.errors || *p.P95LatencyMs != ms(pp95) ||
						*p.AvailabilityPct != round3(100*float64(pf.requests-pf.errors)/float64(pf.requests)) {
						t.Errorf("item %d point %d: %+v, want %d/%d p95 %v", i, j, p.sloFigures, pf.requests, pf.errors, ms(pp95))
					}
				}
			}
			if breaches == 0 || breaches == len(keys) {
				t.Logf("note: %d of %d items breach", breaches, len(keys))
			}
		})
	}
}

func checkTimeline(t *testing.T, api *testAPI, logs []store.TxLog, now time.Time) {
	for _, tt := range []struct {
		query string
		q     refQuery
		width time.Duration
		n     int
	}{
		{"serviceKey=calc", refQuery{since: now.Add(-24 * time.Hour), aggregated: true, keys: []string{"calc"}}, time.Hour, 25},
		{"serviceKey=weather&environment=dev&window=1h", refQuery{since: now.Add(-time.Hour), keys: []string{"weather"}, envs: []string{"dev"}}, 5 * time.Minute, 12},
		{"serviceKey=legacy&window=30d", refQuery{since: now.Add(-30 * 24 * time.Hour), aggregated: true, keys: []string{"legacy"}}, 24 * time.Hour, 31},
	} {
		t.Run(tt.query, func(t *testing.T) {
			q := tt.q
			q.until = now
			var got serviceTimeline
			api.get("/admin/v1/service-metric-timeline?"+tt.query, &got)
			f := reference(logs, q)[refKey{}]
			_, p95, _, _ := f.percentiles(q.aggregated)
			if got.RequestCount != f.requests || got.ErrorCount != f.errors || *got.P95LatencyMs != ms(p95) ||
				!approx(*got.AvgLatencyMs, f.sum/float64(f.requests)) || *got.ErrorPct != round3(100*float64(f.errors)/float64(f.requests)) {
				t.Errorf("summary %+v, want %d/%d p95 %v avg %v", got, f.requests, f.errors, ms(p95), f.sum/float64(f.requests))
			}
			q.bucket, q.buckets, q.origin = tt.width, tt.n, q.since
			if q.aggregated {
				q.origin = q.since.Truncate(time.Hour)
			}
			if tt.width == 24*time.Hour {
				q.origin = q.since.Truncate(tt.width)
			}
			points := reference(logs, q)
			if len(got.Points) != tt.n {
				t.Fatalf("%d points, want %d", len(got.Points), tt.n)
			}
			for j, p := range got.Points {
				pf := points[refKey{bucket: j}]
				if pf == nil {
					pf = &refFigures{}
				}
				if p.RequestCount != pf.requests || p.ErrorCount != pf.errors || (pf.requests > 0 && !approx(*p.AvgLatencyMs, pf.sum/float64(pf.requests))) {
					t.Errorf("point %d %+v, want %d/%d", j, p, pf.requests, pf.errors)
				}
			}
		})
	}
}

func checkDashboard(t *testing.T, api *testAPI, logs []store.TxLog, now time.Time) {
	var got dashboard
	api.get("/admin/v1/dashboard/summary?trafficThreshold=100&availabilityTarget=70&p95LatencyTargetMs=1800", &got)
	day := refQuery{since: now.Add(-24 * time.Hour), until: now, aggregated: true, byService: true}
	services := reference(logs, day)
	var req, errs int64
	for _, f := range services {
		req, errs = req+f.requests, errs+f.errors
	}
	hour := reference(logs, refQuery{since: now.Add(-time.Hour), until: now})[refKey{}]
	k := got.KPIs
	if k.TotalServices != 3 || k.ActiveServices != 2 || k.RequestCount24h != req || k.ErrorCount24h != errs ||
		*k.ErrorPct24h != round3(100*float64(errs)/float64(req)) || *k.AvailabilityPct24h != round3(100*float64(req-errs)/float64(req)) ||
		*k.P95LatencyMs24h != ms(rank(hour.latencies, 95)) || k.P95SampleSize != hour.requests ||
		k.ServicesWithTraffic24h != int64(len(services)) {
		t.Errorf("kpis %+v; want requests %d errors %d p95 %v over %d", k, req, errs, ms(rank(hour.latencies, 95)), hour.requests)
	}
	timeline := reference(logs, refQuery{since: now.Add(-24 * time.Hour), until: now, aggregated: true,
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
	keys := sortedKeys(services)
	slices.SortStableFunc(keys, func(a, b refKey) int {
		return cmp.Or(cmp.Compare(services[b].errors, services[a].errors), cmp.Compare(services[b].requests, services[a].requests))
	})
	var wantTop []string
	for _, k := range keys[:min(5, len(keys))] {
		f := services[k]
		wantTop = append(wantTop, fmt.Sprintf("%s/%s %d/%d %v", k.env, k.key, f.requests, f.errors, round3(100*float64(f.errors)/float64(f.requests))))
	}
	var gotTop []string
	for _, s := range got.TopErrorServices {
		gotTop = append(gotTop, fmt.Sprintf("%s/%s %d/%d %v", s.Environment, s.ServiceKey, s.RequestCount, s.ErrorCount, *s.ErrorPct))
	}
	if !slices.Equal(gotTop, wantTop) {
		t.Errorf("top error services\ngot  %v\nwant %v", gotTop, wantTop)
	}
	recent := reference(logs, refQuery{since: now.Add(-time.Hour), until: now, byService: true})
	var wantIssues []string
	for _, k := range sortedKeys(services) {
		if f := services[k]; f.requests >= 100 && 100*float64(f.requests-f.errors)/float64(f.requests) < 70 {
			wantIssues = append(wantIssues, issueAvailability+" "+k.key)
		}
	}
	for _, k := range sortedKeys(recent) {
		if f := services[refKey{source: k.source, direction: k.direction, env: k.env, key: k.key}]; f != nil && f.requests >= 100 &&
			ms(rank(recent[k].latencies, 95)) > 1800 {
			wantIssues = append(wantIssues, issueLatency+" "+k.key)
		}
	}
	var gotIssues []string
	for _, is := range got.UrgentIssues {
		gotIssues = append(gotIssues, is.Type+" "+is.ServiceKey)
	}
	if !slices.Equal(gotIssues, wantIssues) || len(wantIssues) == 0 {
		t.Errorf("urgent issues\ngot  %v\nwant %v", gotIssues, wantIssues)
	}
	if got.DataFreshness.AnyStale || len(got.DataFreshness.Sources) != 1 || got.DataFreshness.Sources[0].Stale {
		t.Errorf("freshness %+v", got.DataFreshness)
	}
}
