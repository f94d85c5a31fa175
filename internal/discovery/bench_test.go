package discovery_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/discovery"
	"github.com/s2r-project/s2r/internal/loadgen"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// BenchmarkIngestHTTP measures sustained ingest through the HTTP endpoint:
// one op is one 1,000-event batch of F5-style transactions (50 services,
// 2% errors, 512-byte payloads on the client stages) or of generic logs,
// sent by the load generator (in this process, sharing the two cores)
// with two calls in flight. events/s is the figure of docs/PERFORMANCE.md.
// The baseline is the same generator against a handler that only reads
// the body: the ceiling the loader and HTTP leave on this machine. GC is
// set as `s2r serve` sets it (GOGC=400).
func BenchmarkIngestHTTP(b *testing.B) {
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	run := func(b *testing.B, url, token, kind string) {
		gen := loadgen.New(loadgen.Config{Services: 50, ErrorRate: 0.02, PayloadBytes: 512, Seed: 1})
		b.ResetTimer()
		st, err := loadgen.Run(context.Background(), loadgen.RunConfig{BaseURL: url, Token: token, Kind: kind,
			Batch: 1000, Concurrency: 2, Events: b.N * 1000, Generator: gen})
		b.StopTimer()
		if err != nil || st.Failed > 0 {
			b.Fatalf("%v %s", err, st.LastError)
		}
		b.ReportMetric(st.EventsPerSecond(), "events/s")
		b.ReportMetric(float64(st.P95.Microseconds())/1000, "p95-ms")
	}
	b.Run("baseline-read-only", func(b *testing.B) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"received":0,"stored":0,"duplicates":0}`)
		}))
		defer srv.Close()
		run(b, srv.URL, "none", loadgen.KindLB)
	})
	for _, db := range []struct {
		name string
		open func(testing.TB) *store.Store
	}{{"sqlite", storetest.SQLite}, {"postgres", storetest.Postgres}} {
		b.Run(db.name, func(b *testing.B) {
			if db.name == "postgres" && os.Getenv(storetest.EnvPostgresURL) == "" {
				b.Skip("S2R_TEST_POSTGRES_URL not set")
			}
			for _, kind := range []string{loadgen.KindLB, loadgen.KindGeneric} {
				b.Run(kind, func(b *testing.B) {
					e := newEnv(b, db.open(b))
					inst := e.register("f5", "bench", "")
					run(b, e.c.URL, inst.Token, kind)
				})
			}
		})
	}
}

// BenchmarkDrillDown measures GET …/rows/{rowId}/drill-down (defaults: 7
// days, source lb) through the admin API over S2R_BENCH_DRILLDOWN_EVENTS
// stored lb events (default 200,000; docs/PERFORMANCE.md uses 10,000,000
// on PostgreSQL through scripts/bench-drilldown.sh), loaded with
// Service.BulkLoad: 200 services with Zipf-skewed traffic (the busiest
// takes about a fifth), 50 consumers each, 2% errors, over 30 days. One
// op is one call, cycling over every row: the drill-down with its
// defaults; the busiest row's drill-down over 30 days and every source;
// the failures. p50/p95/p99 are reported.
// S2R_BENCH_DRILLDOWN_DB=postgres (or sqlite) loads and measures one
// database only.
func BenchmarkDrillDown(b *testing.B) {
	events := 200_000
	if v := os.Getenv("S2R_BENCH_DRILLDOWN_EVENTS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			b.Fatal(err)
		}
		events = n
	}
	for _, db := range []struct {
		name string
		open func(testing.TB) *store.Store
	}{{"sqlite", storetest.SQLite}, {"postgres", storetest.Postgres}} {
		if db.name == "postgres" && os.Getenv(storetest.EnvPostgresURL) == "" {
			b.Log("postgres: S2R_TEST_POSTGRES_URL not set; skipped")
			continue
		}
		if only := os.Getenv("S2R_BENCH_DRILLDOWN_DB"); only != "" && only != db.name {
			continue
		}
		// Loaded once here: b.Run calls its function more than once.
		st := db.open(b)
		e := newEnv(b, st)
		inst := e.register("f5", "bench", "")
		gen := loadgen.New(loadgen.Config{Services: 200, ErrorRate: 0.02, Consumers: 50, PayloadBytes: 256, Skew: 1.1, Seed: 1})
		t0 := time.Now()
		err := e.svc.BulkLoad(context.Background(), gen, discovery.BulkOptions{Events: events, Days: 30, Seed: 1,
			Instance: discovery.Instance{InstanceID: inst.InstanceID, Vendor: inst.Vendor, TenantID: inst.TenantID}})
		if err != nil {
			b.Fatal(err)
		}
		if err := st.Transact(context.Background(), func(tx *store.Tx) error {
			_, err := tx.Exec(context.Background(), "ANALYZE")
			return err
		}); err != nil {
			b.Fatal(err)
		}
		b.Logf("%s: %d events loaded in %v", db.name, events, time.Since(t0).Round(time.Second))
		rows := e.rows(readerEmail, "?pageSize=200").Items
		busiest := rows[0]
		for _, r := range rows {
			if r.Calls24h > busiest.Calls24h {
				busiest = r
			}
		}
		b.Logf("%s: %d rows; the busiest, %s, has %d calls in 24 h", db.name, len(rows), busiest.ServiceURI, busiest.Calls24h)
		for _, m := range []struct {
			name string
			path func(i int) string
		}{
			{"drill-down", func(i int) string {
				return "/master-discovery/rows/" + strconv.FormatInt(rows[i%len(rows)].RowID, 10) + "/drill-down"
			}},
			{"drill-down-busiest-all-30d", func(int) string {
				return "/master-discovery/rows/" + strconv.FormatInt(busiest.RowID, 10) + "/drill-down?source=all&timelineDays=30"
			}},
			{"failures", func(i int) string {
				return "/master-discovery/rows/" + strconv.FormatInt(rows[i%len(rows)].RowID, 10) + "/failures"
			}},
		} {
			b.Run(db.name+"/"+m.name, func(b *testing.B) {
				e.t = b
				lat := make([]time.Duration, 0, b.N)
				for i := range b.N {
					s := time.Now()
					e.admin("GET", m.path(i), readerEmail, "").WantStatus(b, 200)
					lat = append(lat, time.Since(s))
				}
				b.StopTimer()
				slices.Sort(lat)
				q := func(p float64) float64 {
					return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
				}
				b.ReportMetric(q(0.50), "p50-ms")
				b.ReportMetric(q(0.95), "p95-ms")
				b.ReportMetric(q(0.99), "p99-ms")
			})
		}
	}
}
