package observe

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

// BenchmarkAggregateHour re-aggregates one hour of the database filled by
// scripts/bench-observe.sh (S2R_OBSERVE_BENCH_URL), the hour given in
// S2R_OBSERVE_BENCH_HOUR (1 million runtime records and 1 million lb
// events there), for each source: runtime from its raw records, lb from
// the discovery_hourly rollups its ingest maintained.
func BenchmarkAggregateHour(b *testing.B) {
	u := os.Getenv("S2R_OBSERVE_BENCH_URL")
	if u == "" {
		b.Skip("set S2R_OBSERVE_BENCH_URL (scripts/bench-observe.sh)")
	}
	hour, err := time.Parse(time.RFC3339, os.Getenv("S2R_OBSERVE_BENCH_HOUR"))
	if err != nil {
		b.Fatalf("S2R_OBSERVE_BENCH_HOUR: %v", err)
	}
	ctx := context.Background()
	st, err := store.Open(ctx, store.Config{URL: u})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	agg, err := NewAggregator(AggregatorConfig{Store: st, Logger: quiet})
	if err != nil {
		b.Fatal(err)
	}
	for _, source := range []string{model.SourceRuntime, model.SourceLB} {
		b.Run(source, func(b *testing.B) {
			for b.Loop() {
				if err := agg.AggregateHour(ctx, source, hour); err != nil {
					b.Fatal(err)
				}
			}
			rows, err := st.TrafficHourly(ctx, source, hour, hour.Add(time.Hour))
			if err != nil {
				b.Fatal(err)
			}
			var n int64
			for _, r := range rows {
				n += r.Requests
			}
			b.ReportMetric(float64(n), "transactions")
			b.ReportMetric(float64(len(rows)), "groups")
		})
	}
}
