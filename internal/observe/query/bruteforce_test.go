package query

import (
	"cmp"
	"math/rand/v2"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// TestFiguresMatchBruteForce compares every figure of /metrics (raw and
// aggregated windows, every filter, each source alone and all combined),
// the dashboard summary, the SLO report and the service timeline with
// the same figures computed by brute force in Go over the raw records, on
// both databases. Runtime records are written as the recorder writes
// them; lb events and generic logs go through the real ingest API (two
// tenants' instances, a resent batch). Part of everything arrives after a
// first aggregation run, some back-dated into old hours, and a service is
// onboarded after its edge traffic arrived, so the incremental
// re-aggregation and its following of re-matched rows are checked too.
func TestFiguresMatchBruteForce(t *testing.T) {
	now := time.Date(2026, 3, 10, 12, 34, 56, 789000000, time.UTC)
	rng := rand.New(rand.NewPCG(7, 12))
	recent := fixtureLogs(rng, now, time.Hour, 600, "recent")
	older := fixtureLogs(rng, now, 9*24*time.Hour, 1500, "older")
	late := fixtureLogs(rng, now.Add(-3*24*time.Hour), 4*24*time.Hour, 300, "late") // back-dated
	lbRecent := newEdgeCalls(rng, model.SourceLB, model.DefaultTenant, now, time.Hour, 300)
	lbOlder := newEdgeCalls(rng, model.SourceLB, model.DefaultTenant, now, 9*24*time.Hour, 700)
	lbLate := newEdgeCalls(rng, model.SourceLB, model.DefaultTenant, now.Add(-3*24*time.Hour), 4*24*time.Hour, 200)
	generic := slices.Concat(newEdgeCalls(rng, model.SourceGeneric, model.DefaultTenant, now, 9*24*time.Hour, 500),
		newEdgeCalls(rng, model.SourceGeneric, model.DefaultTenant, now, time.Hour, 60))
	acme := newEdgeCalls(rng, model.SourceLB, "acme", now, 30*time.Hour, 150)
	all := slices.Concat(runtimeRecords(slices.Concat(recent, older, late)),
		edgeRecords(slices.Concat(lbRecent, lbOlder, lbLate, generic, acme), true))
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		seedServices(t, st)
		api := newTestAPI(t, st, now)
		lbToken, genericToken, acmeToken := api.registerInstance("f5", ""), api.registerInstance("kong", ""),
			api.registerInstance("f5", "acme")
		insertLogs(t, st, slices.Concat(recent, older))
		api.ingestCalls(lbToken, slices.Concat(lbRecent, lbOlder))
		api.ingestCalls(genericToken, generic)
		api.ingestCalls(acmeToken, acme)
		aggregate(t, st, now)
		insertLogs(t, st, late)
		api.ingestCalls(lbToken, lbLate)
		api.ingestCalls(lbToken, lbOlder[:100]) // resent: stored and counted once
		api.onboardBilling()
		aggregate(t, st, now.Add(time.Second))
		aggregate(t, st, now.Add(2*time.Second)) // idempotent: nothing changes
		t.Run("metrics", func(t *testing.T) { checkMetrics(t, api, all, now) })
		t.Run("slo", func(t *testing.T) { checkSLO(t, api, all, now) })
		t.Run("dashboard", func(t *testing.T) {
			checkDashboard(t, api, all, slices.Concat(lbRecent, lbOlder, lbLate, generic, acme), now)
		})
		t.Run("timeline", func(t *testing.T) { checkTimeline(t, api, all, now) })
	})
}

func iso(t time.Time) string { return url.QueryEscape(t.Format(time.RFC3339Nano)) }

func checkMetrics(t *testing.T, api *testAPI, recs []refRecord, now time.Time) {
	day := 24 * time.Hour
	lb, generic := []string{model.SourceLB}, []string{model.SourceGeneric}
	tests := []struct {
		query string
		q     refQuery
		email string
	}{
		{"", refQuery{since: now.Add(-15 * time.Minute)}, ""},
		{"window=1h", refQuery{since: now.Add(-time.Hour)}, ""},
		{"window=1h&source=runtime", refQuery{since: now.Add(-time.Hour), sources: []string{"runtime"}}, ""},
		{"window=1h&source=lb", refQuery{since: now.Add(-time.Hour), sources: lb}, ""},
		{"window=1h&source=generic", refQuery{since: now.Add(-time.Hour), sources: generic}, ""},
		{"window=1h&direction=consume", refQuery{since: now.Add(-time.Hour), direction: "consume"}, ""},
		{"window=1h&direction=publish&source=lb", refQuery{since: now.Add(-time.Hour), direction: "publish", sources: lb}, ""},
		{"window=1h&environments=dev&serviceKeys=weather,ghost", refQuery{since: now.Add(-time.Hour), envs: []string{"dev"}, keys: []string{"weather", "ghost"}}, ""},
		{"window=1h&environments=discovered", refQuery{since: now.Add(-time.Hour), envs: []string{"discovered"}}, ""},
		{"window=1h&onboardedOnly=true", refQuery{since: now.Add(-time.Hour), onboarded: true}, ""},
		{"window=1h&onboardedOnly=true&serviceKeys=calculator", refQuery{since: now.Add(-time.Hour), onboarded: true, keys: []string{"calculator"}}, ""},
		{"window=1h", refQuery{since: now.Add(-time.Hour), tenant: "acme"}, acmeEmail},
		{"window=24h", refQuery{since: now.Add(-day), aggregated: true}, ""},
		{"window=24h&source=lb", refQuery{since: now.Add(-day), aggregated: true, sources: lb}, ""},
		{"window=24h", refQuery{since: now.Add(-day), aggregated: true, tenant: "acme"}, acmeEmail},
		{"window=7d&source=runtime", refQuery{since: now.Add(-7 * day), aggregated: true, sources: []string{"runtime"}}, ""},
		{"window=7d&source=generic&onboardedOnly=true", refQuery{since: now.Add(-7 * day), aggregated: true, sources: generic, onboarded: true}, ""},
		{"window=30d&serviceKeys=billing", refQuery{since: now.Add(-30 * day), aggregated: true, keys: []string{"billing"}}, ""},
		{"window=60d&onboardedOnly=true", refQuery{since: now.Add(-60 * day), aggregated: true, onboarded: true}, ""},
		{"window=60d", refQuery{since: now.Add(-60 * day), aggregated: true}, ""},
		{"window=30d&environments=prod&environments=dev&direction=publish", refQuery{since: now.Add(-30 * day), aggregated: true, envs: []string{"prod", "dev"}, direction: "publish"}, ""},
		{"start=" + iso(now.Add(-50*time.Hour)) + "&end=" + iso(now.Add(-30*time.Hour-time.Minute)), refQuery{since: now.Add(-50 * time.Hour), until: now.Add(-30*time.Hour - time.Minute), aggregated: true}, ""},
		{"start=" + iso(now.Add(-80*time.Hour)) + "&end=" + iso(now.Add(-79*time.Hour-time.Second)), refQuery{since: now.Add(-80 * time.Hour), until: now.Add(-79*time.Hour - time.Second)}, ""},
		{"start=" + iso(now.Add(-80*time.Hour)) + "&end=" + iso(now.Add(-70*time.Hour)) + "&source=lb", refQuery{since: now.Add(-80 * time.Hour), until: now.Add(-70 * time.Hour), aggregated: true, sources: lb}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.email+tt.query, func(t *testing.T) {
			q := tt.q
			if q.until.IsZero() {
				q.until = now
			}
			q.byService, q.byOperation = true, !q.aggregated
			want := []metricItem{}
			ref := reference(recs, q)
			for _, k := range sortedKeys(ref) {
				f := ref[k]
				p50, p95, p99, conv := f.percentiles(q.aggregated)
				op := k.op
				if q.aggregated {
					op = aggregatedOperation
				}
				want = append(want, metricItem{Source: k.source, Direction: k.direction, Environment: k.env, ServiceKey: k.key,
					ServiceID: k.sid, OperationKey: op, RequestCount: f.requests, ErrorCount: f.errors,
					P50LatencyMs: ms(p50), P95LatencyMs: ms(p95), P99LatencyMs: ms(p99), P95ConverterOverheadMs: msPtr(conv)})
			}
			var got []metricItem
			api.do("GET", "/admin/v1/metrics?"+tt.query, cmp.Or(tt.email, readerEmail), "", "").WantStatus(t, 200).Decode(t, &got)
			if len(want) == 0 {
				t.Fatal("the fixture selects nothing: a useless case")
			}
			compareMetrics(t, want, got)
		})
	}
}

// sortItems orders metric items by their group, as sortedKeys orders the
// reference (the database's collation may order text differently).
func sortItems(items []metricItem) {
	slices.SortFunc(items, func(a, b metricItem) int {
		return cmp.Or(cmp.Compare(a.Source, b.Source), cmp.Compare(a.Direction, b.Direction), cmp.Compare(a.Environment, b.Environment),
			cmp.Compare(a.ServiceKey, b.ServiceKey), cmp.Compare(a.OperationKey, b.OperationKey), cmp.Compare(a.ServiceID, b.ServiceID))
	})
}

func compareMetrics(t *testing.T, want, got []metricItem) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d items, want %d:\ngot  %+v\nwant %+v", len(got), len(want), got, want)
	}
	sortItems(got)
	for i := range want {
		w, g := want[i], got[i]
		if (g.P95ConverterOverheadMs == nil) != (w.P95ConverterOverheadMs == nil) ||
			g.P95ConverterOverheadMs != nil && *g.P95ConverterOverheadMs != *w.P95ConverterOverheadMs {
			t.Errorf("item %d converter p95 %v, want %v", i, g.P95ConverterOverheadMs, w.P95ConverterOverheadMs)
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

func checkSLO(t *testing.T, api *testAPI, recs []refRecord, now time.Time) {
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
		{"window=1h&source=lb&availabilityTarget=60", refQuery{since: now.Add(-time.Hour), sources: []string{"lb"}}, 5 * time.Minute, 12},
		{"window=24h&source=generic", refQuery{since: now.Add(-24 * time.Hour), aggregated: true, sources: []string{"generic"}}, time.Hour, 25},
	} {
		t.Run(tt.query, func(t *testing.T) {
			q := tt.q
			q.until, q.byService, q.byOperation = now, true, !q.aggregated
			var got []sloItem
			api.get("/admin/v1/slo-report?"+tt.query, &got)
			slices.SortFunc(got, func(a, b sloItem) int {
				return cmp.Or(cmp.Compare(a.Source, b.Source), cmp.Compare(a.Direction, b.Direction), cmp.Compare(a.Environment, b.Environment),
					cmp.Compare(a.ServiceKey, b.ServiceKey), cmp.Compare(a.OperationKey, b.OperationKey))
			})
			summary := reference(recs, q)
			q.bucket, q.buckets, q.origin = tt.width, tt.n, q.since
			if q.aggregated {
				q.origin = q.since.Truncate(time.Hour)
			}
			points := reference(recs, q)
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
				if g.ServiceKey != k.key || g.Direction != k.direction || g.Source != k.source || g.RequestCount != f.requests || g.ErrorCount != f.errors ||
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

func checkTimeline(t *testing.T, api *testAPI, recs []refRecord, now time.Time) {
	for _, tt := range []struct {
		query string
		q     refQuery
		width time.Duration
		n     int
	}{
		{"serviceKey=calc", refQuery{since: now.Add(-24 * time.Hour), aggregated: true, keys: []string{"calc"}}, time.Hour, 25},
		{"serviceKey=weather&environment=dev&window=1h", refQuery{since: now.Add(-time.Hour), keys: []string{"weather"}, envs: []string{"dev"}}, 5 * time.Minute, 12},
		{"serviceKey=legacy&window=30d", refQuery{since: now.Add(-30 * 24 * time.Hour), aggregated: true, keys: []string{"legacy"}}, 24 * time.Hour, 31},
		{"serviceKey=billing&window=7d", refQuery{since: now.Add(-7 * 24 * time.Hour), aggregated: true, keys: []string{"billing"}}, 6 * time.Hour, 29},
		{"serviceKey=%2Forders%2F%7Bid%7D%2Fitems&environment=discovered&window=1h", refQuery{since: now.Add(-time.Hour), keys: []string{"/orders/{id}/items"}, envs: []string{"discovered"}}, 5 * time.Minute, 12},
	} {
		t.Run(tt.query, func(t *testing.T) {
			q := tt.q
			q.until = now
			var got serviceTimeline
			api.get("/admin/v1/service-metric-timeline?"+tt.query, &got)
			f := reference(recs, q)[refKey{}]
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
			points := reference(recs, q)
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
