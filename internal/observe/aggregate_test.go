package observe

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// aggLog is a runtime log of the aggregation tests.
func aggLog(i int, at time.Time, result string, fault bool, ms float64) model.TxLog {
	return model.TxLog{CorrelationID: fmt.Sprintf("a-%d", i), OccurredAt: at, Direction: "publish", Environment: "dev",
		ServiceKey: "calc", ServiceID: "svc-1", OperationKey: []string{"add", "sub"}[i%2], Method: "POST", Path: "/p",
		HTTPStatus: 200, ResultCode: result, InBodyFault: fault, TotalMs: ms, ConverterMs: ms / 10}
}

func hourly(t *testing.T, s *store.Store, from, to time.Time) []model.HourlyRow {
	t.Helper()
	rows, err := s.TrafficHourly(context.Background(), model.SourceRuntime, from, to)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestAggregationIncrementalAndIdempotent(t *testing.T) {
	now := time.Date(2026, 5, 1, 10, 30, 0, 0, time.UTC)
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		clock := now
		agg, err := NewAggregator(AggregatorConfig{Store: s, Logger: quiet, Now: func() time.Time { return clock }, Settle: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		insert := func(logs ...model.TxLog) {
			if err := s.CopyTxLogs(ctx, logs); err != nil {
				t.Fatal(err)
			}
		}
		insert(aggLog(0, now.Add(-10*time.Minute), "success", false, 10), aggLog(2, now.Add(-20*time.Minute), "timeout", false, 30),
			aggLog(4, now.Add(-time.Minute), "success", true, 20), aggLog(1, now.Add(-2*time.Hour), "failed", false, 5))
		if res, err := agg.RunOnce(ctx); err != nil || res.Hours != 2 {
			t.Fatalf("first run %+v %v", res, err)
		}
		from, to := now.Add(-48*time.Hour), now.Add(time.Hour)
		conv := func(v float64) *float64 { return &v }
		want := []model.HourlyRow{
			{Source: "runtime", Hour: now.Truncate(time.Hour).Add(-2 * time.Hour), Direction: "publish", Environment: "dev", ServiceKey: "calc",
				OperationKey: "sub", ServiceID: "svc-1", Requests: 1, Errors: 1, LatencySumMs: 5, LatencyMaxMs: 5, ConverterMaxMs: conv(0.5)},
			{Source: "runtime", Hour: now.Truncate(time.Hour), Direction: "publish", Environment: "dev", ServiceKey: "calc",
				OperationKey: "add", ServiceID: "svc-1", Requests: 3, Errors: 2, LatencySumMs: 60, LatencyMaxMs: 30, ConverterMaxMs: conv(3)},
		}
		if diff := cmp.Diff(want, hourly(t, s, from, to)); diff != "" {
			t.Fatalf("after the first run (-want +got):\n%s", diff)
		}
		st, _ := s.AggregationState(ctx, model.SourceRuntime)
		if st.LowWater != 4 || st.HighWater != 4 || !st.RefreshedAt.Equal(now) {
			t.Errorf("state after the first run %+v", st)
		}

		// A back-dated record lands in an hour aggregated long ago.
		insert(aggLog(6, now.Add(-30*time.Hour), "success", false, 7))
		clock = now.Add(10 * time.Second)
		if res, err := agg.RunOnce(ctx); err != nil || res.Hours != 1 {
			t.Fatalf("second run %+v %v", res, err)
		}
		rows := hourly(t, s, from, to)
		if len(rows) != 3 || rows[0].Hour != now.Truncate(time.Hour).Add(-30*time.Hour) || rows[0].Requests != 1 {
			t.Fatalf("back-dated hour not aggregated: %+v", rows)
		}
		// Within the settle time the marks stay: ids above 4 are looked at
		// again, so a lower id committed late would still be counted.
		if st, _ := s.AggregationState(ctx, model.SourceRuntime); st.LowWater != 4 || st.HighWater != 4 {
			t.Errorf("state within the settle time %+v", st)
		}
		// Re-running gives the same rows; an hour whose rows vanished
		// (a lost write) is rebuilt while its ids are still looked at.
		if err := s.Transact(ctx, func(tx *store.Tx) error {
			return tx.ReplaceTrafficHour(ctx, model.SourceRuntime, rows[0].Hour, nil)
		}); err != nil {
			t.Fatal(err)
		}
		clock = now.Add(2 * time.Minute)
		if _, err := agg.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(rows, hourly(t, s, from, to)); diff != "" {
			t.Errorf("re-aggregation changed rows (-want +got):\n%s", diff)
		}
		if st, _ := s.AggregationState(ctx, model.SourceRuntime); st.LowWater != 4 || st.HighWater != 5 || !st.HighWaterAt.Equal(clock) {
			t.Errorf("state after the settle time %+v", st)
		}
		clock = now.Add(4 * time.Minute)
		if res, err := agg.RunOnce(ctx); err != nil || res.Hours != 1 {
			t.Fatalf("run with the id still in the overlap %+v %v", res, err)
		}
		clock = now.Add(6 * time.Minute)
		agg.RunOnce(ctx)
		if res, err := agg.RunOnce(ctx); err != nil || res.Hours != 0 {
			t.Errorf("run with nothing new %+v %v", res, err)
		}
	})
}

func TestAggregateRetention(t *testing.T) {
	now := time.Date(2026, 5, 1, 10, 30, 0, 0, time.UTC)
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		for _, age := range []time.Duration{50 * 24 * time.Hour, 70 * 24 * time.Hour} {
			h := now.Add(-age).Truncate(time.Hour)
			row := model.HourlyRow{Direction: "publish", Environment: "dev", ServiceKey: "k", Requests: 1}
			if err := s.Transact(ctx, func(tx *store.Tx) error {
				return tx.ReplaceTrafficHour(ctx, model.SourceRuntime, h, []model.HourlyRow{row})
			}); err != nil {
				t.Fatal(err)
			}
		}
		agg, _ := NewAggregator(AggregatorConfig{Store: s, Logger: quiet, Now: func() time.Time { return now }})
		if _, err := agg.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
		// default_retention_days is 30, but 60 days are always kept.
		rows := hourly(t, s, now.Add(-100*24*time.Hour), now)
		if len(rows) != 1 || rows[0].Hour.After(now.Add(-49*24*time.Hour)) {
			t.Errorf("kept %+v, want only the 50-day-old hour", rows)
		}
	})
}

func TestAggregationOneAtATime(t *testing.T) {
	s := storetest.SQLite(t)
	agg, _ := NewAggregator(AggregatorConfig{Store: s, Logger: quiet})
	ctx := context.Background()
	ran, err := s.TryExclusive(ctx, aggregationJob, func(ctx context.Context) error {
		res, err := agg.RunOnce(ctx)
		if res.Ran || err != nil {
			t.Errorf("a second run while one is going: %+v %v", res, err)
		}
		return nil
	})
	if !ran || err != nil {
		t.Fatal(ran, err)
	}
}
