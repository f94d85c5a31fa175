package discovery_test

import (
	"context"
	"os"
	"testing"

	"github.com/s2r-project/s2r/internal/loadgen"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// BenchmarkIngestHTTP measures sustained ingest through the HTTP endpoint:
// one op is one 1,000-event batch of F5-style transactions (50 services,
// 2% errors, 512-byte payloads on the client stages), sent by the load
// generator (in this process, sharing the cores) with two calls in
// flight. events/s is the figure of docs/PERFORMANCE.md.
func BenchmarkIngestHTTP(b *testing.B) {
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
					gen := loadgen.New(loadgen.Config{Services: 50, ErrorRate: 0.02, PayloadBytes: 512, Seed: 1})
					b.ResetTimer()
					st, err := loadgen.Run(context.Background(), loadgen.RunConfig{BaseURL: e.url, Token: inst.Token, Kind: kind,
						Batch: 1000, Concurrency: 2, Events: b.N * 1000, Generator: gen})
					b.StopTimer()
					if err != nil || st.Failed > 0 {
						b.Fatalf("%v %s", err, st.LastError)
					}
					b.ReportMetric(st.EventsPerSecond(), "events/s")
					b.ReportMetric(float64(st.P95.Microseconds())/1000, "p95-ms")
				})
			}
		})
	}
}
