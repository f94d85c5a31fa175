package store

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/model"
)

// TestTxLogIndexesServeTheViews pins, for each secondary index of
// runtime_tx_logs, a read of the observability views that SQLite answers
// through it (EXPLAIN QUERY PLAN; s2r runs no ANALYZE, so the plan of this
// empty table is the plan of a 10 M-row one). Each is the only index that
// query can use: without it the query scans the table or the whole time
// window (docs/PERFORMANCE.md, "Transaction record path (issue 27)"), so
// none of them can go to make the record cheaper.
func TestTxLogIndexesServeTheViews(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, Config{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	hour := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	list := func(f model.TxLogFilter) (string, []any) {
		where, args := txLogWhere(f)
		return "SELECT id FROM runtime_tx_logs" + where + " ORDER BY occurred_at DESC, id DESC LIMIT 50", args
	}
	for _, c := range []struct {
		view, index string
		query       func() (string, []any)
	}{
		{"aggregation of an hour", "runtime_tx_logs_occurred", func() (string, []any) {
			return "SELECT service_key, COUNT(*) FROM runtime_tx_logs WHERE occurred_at >= $1 AND occurred_at < $2 GROUP BY service_key",
				[]any{NewTime(hour), NewTime(hour.Add(time.Hour))}
		}},
		{"/traffic-search, 24 h", "runtime_tx_logs_occurred", func() (string, []any) {
			return list(model.TxLogFilter{Since: hour.Add(-23 * time.Hour), Until: hour.Add(time.Hour)})
		}},
		{"/runtime-logs of a route", "runtime_tx_logs_route", func() (string, []any) {
			return list(model.TxLogFilter{Environment: "prod", ServiceKey: "calc", OperationKey: "add"})
		}},
		{"/debug-traces/{cid}", "runtime_tx_logs_correlation", func() (string, []any) {
			return "SELECT id FROM runtime_tx_logs WHERE correlation_id = $1 ORDER BY occurred_at, id", []any{"cid"}
		}},
		{"/runtime-logs of failures", "runtime_tx_logs_not_success", func() (string, []any) {
			return list(model.TxLogFilter{ResultCodes: []string{"failed", "backend_failure"}})
		}},
	} {
		q, args := c.query()
		plan, err := s.Explain(ctx, q, args...)
		if err != nil {
			t.Fatalf("%s: %v", c.view, err)
		}
		if !strings.Contains(plan, "INDEX "+c.index+" ") {
			t.Errorf("%s: plan does not use %s:\n%s", c.view, c.index, plan)
		}
	}
}
