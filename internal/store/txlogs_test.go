package store_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// txLogFixture returns n logs spread over routes, results and statuses,
// one per second back from now, newest first by index 0.
func txLogFixture(now time.Time, n int) []model.TxLog {
	results := []struct {
		code   string
		status int
	}{{"success", 200}, {"failed", 400}, {"backend_failure", 502}, {"timeout", 504}}
	logs := make([]model.TxLog, n)
	for i := range logs {
		r := results[i%len(results)]
		logs[i] = model.TxLog{
			CorrelationID: fmt.Sprintf("cid-%d", i),
			OccurredAt:    now.Add(-time.Duration(i) * time.Second),
			Direction:     []string{"publish", "consume"}[i%2],
			Environment:   "dev",
			ServiceKey:    []string{"calc", "weather", "stock"}[i%3],
			OperationKey:  "op",
			Method:        "POST",
			Path:          "/publish/dev/calc/op",
			HTTPStatus:    r.status,
			ResultCode:    r.code,
			TotalMs:       float64(i%100) + 0.5,
			BackendMs:     float64(i % 100),
			ConverterMs:   float64(i%100) / 1000,
			BackendTarget: "http://10.0.0.5/calc",
			ClientIP:      "10.1.1.1",
			RequestBytes:  100,
			ResponseBytes: 200,
		}
	}
	return logs
}

func TestTxLogs(t *testing.T) {
	now := time.Now().UTC().Truncate(time.Second)
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		logs := txLogFixture(now, 1200) // three INSERT chunks
		debug := model.TxLog{
			CorrelationID: "cid-debug", OccurredAt: now.Add(time.Second), Direction: "publish", Environment: "prod",
			ServiceKey: "calc", OperationKey: "add", Method: "POST", Path: "/publish/prod/calc/add", HTTPStatus: 200,
			ResultCode: "success", InBodyFault: true, Debug: true,
			RequestPayload: []byte(`{"a":1}`), ResponsePayload: []byte(`{"r":2}`),
			BackendRequest: []byte("<soap/>\xff"), BackendResponse: []byte("<r/>"),
		}
		logs = append(logs, debug)
		if err := s.Transact(ctx, func(tx *store.Tx) error { return tx.InsertTxLogs(ctx, logs) }); err != nil {
			t.Fatal(err)
		}
		page := model.PageRequest{Page: 1, PageSize: 10}
		tests := []struct {
			name  string
			f     model.TxLogFilter
			total int64
			first string
		}{
			{"all", model.TxLogFilter{}, 1201, "cid-debug"},
			{"environment", model.TxLogFilter{Environment: "prod"}, 1, "cid-debug"},
			{"service", model.TxLogFilter{Environment: "dev", ServiceKey: "weather"}, 400, "cid-1"},
			{"service and operation", model.TxLogFilter{Environment: "dev", ServiceKey: "stock", OperationKey: "op"}, 400, "cid-2"},
			{"result", model.TxLogFilter{ResultCodes: []string{"timeout"}}, 300, "cid-3"},
			{"results", model.TxLogFilter{ResultCodes: []string{"timeout", "failed"}}, 600, "cid-1"},
			{"status exact", model.TxLogFilter{StatusMin: 502, StatusMax: 502}, 300, "cid-2"},
			{"status class", model.TxLogFilter{StatusMin: 500, StatusMax: 599}, 600, "cid-2"},
			{"correlation", model.TxLogFilter{CorrelationID: "cid-7"}, 1, "cid-7"},
			{"direction", model.TxLogFilter{Direction: "consume"}, 600, "cid-1"},
			{"window", model.TxLogFilter{Since: now.Add(-9 * time.Second), Until: now}, 10, "cid-0"},
			{"none", model.TxLogFilter{ServiceKey: "absent"}, 0, ""},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				got, err := s.TxLogs(ctx, tt.f, page)
				if err != nil {
					t.Fatal(err)
				}
				if got.TotalItems != tt.total {
					t.Errorf("total = %d, want %d", got.TotalItems, tt.total)
				}
				first := ""
				if len(got.Items) > 0 {
					first = got.Items[0].CorrelationID
					if got.Items[0].RequestPayload != nil {
						t.Error("a list item carries payloads")
					}
				}
				if first != tt.first {
					t.Errorf("first = %q, want %q", first, tt.first)
				}
			})
		}
		t.Run("pages newest first", func(t *testing.T) {
			got, err := s.TxLogs(ctx, model.TxLogFilter{Environment: "dev"}, model.PageRequest{Page: 3, PageSize: 5})
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, l := range got.Items {
				ids = append(ids, l.CorrelationID)
			}
			if diff := cmp.Diff([]string{"cid-10", "cid-11", "cid-12", "cid-13", "cid-14"}, ids); diff != "" {
				t.Errorf("page 3 (-want +got):\n%s", diff)
			}
			if got.TotalPages != 240 {
				t.Errorf("totalPages = %d, want 240", got.TotalPages)
			}
		})
		t.Run("by correlation with payloads", func(t *testing.T) {
			got, err := s.TxLogsByCorrelation(ctx, "cid-debug")
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 {
				t.Fatalf("got %d logs, want 1", len(got))
			}
			want := debug
			want.OccurredAt = want.OccurredAt.UTC()
			want.ID = got[0].ID
			if diff := cmp.Diff(want, got[0]); diff != "" {
				t.Errorf("round trip (-want +got):\n%s", diff)
			}
			plain, err := s.TxLogsByCorrelation(ctx, "cid-5")
			if err != nil || len(plain) != 1 || plain[0].RequestPayload != nil || plain[0].BackendResponse != nil {
				t.Errorf("non-debug log: %v %+v", err, plain)
			}
		})
		t.Run("latency percentiles", func(t *testing.T) {
			got, err := s.TxLatencyPercentiles(ctx, model.TxLogFilter{Environment: "dev"})
			if err != nil {
				t.Fatal(err)
			}
			want := model.TxLatency{Count: 1200, ConverterP50Ms: 0.049, ConverterP99Ms: 0.098, TotalP50Ms: 49.5, TotalP99Ms: 98.5}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("percentiles (-want +got):\n%s", diff)
			}
		})
		t.Run("retention", func(t *testing.T) {
			var removed int64
			cut := now.Add(-999 * time.Second) // cid-1000..cid-1199 are older
			for {
				var n int64
				err := s.Transact(ctx, func(tx *store.Tx) (err error) {
					n, err = tx.DeleteTxLogsBefore(ctx, cut, 64)
					return err
				})
				if err != nil {
					t.Fatal(err)
				}
				if n > 64 {
					t.Fatalf("one call removed %d, limit 64", n)
				}
				removed += n
				if n == 0 {
					break
				}
			}
			if removed != 200 {
				t.Errorf("removed %d, want 200", removed)
			}
			got, err := s.TxLogs(ctx, model.TxLogFilter{}, page)
			if err != nil || got.TotalItems != 1001 {
				t.Errorf("after retention total = %d (%v), want 1001", got.TotalItems, err)
			}
		})
	})
}

func TestBadURLGroups(t *testing.T) {
	now := time.Now().UTC().Truncate(time.Millisecond)
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		attempts := []model.BadURLAttempt{
			{Path: "/foo", Method: "GET", At: now.Add(-time.Hour)},
			{Path: "/foo", Method: "POST", At: now},
			{Path: "/foo", Method: "GET", At: now.Add(-2 * time.Hour)},
			{Path: "/publish/", Method: "POST", At: now.Add(-time.Minute)},
			{Path: "/bar", Method: "PUT", At: now.Add(-time.Minute)},
			{Path: "/old", Method: "GET", At: now.Add(-48 * time.Hour)},
		}
		if err := s.Transact(ctx, func(tx *store.Tx) error { return tx.InsertBadURLAttempts(ctx, attempts) }); err != nil {
			t.Fatal(err)
		}
		got, err := s.BadURLGroups(ctx, now.Add(-24*time.Hour), 2)
		if err != nil {
			t.Fatal(err)
		}
		want := []model.BadURLGroup{
			{Path: "/foo", Count: 3, LastSeenAt: now, Methods: []string{"GET", "POST"}},
			{Path: "/bar", Count: 1, LastSeenAt: now.Add(-time.Minute), Methods: []string{"PUT"}},
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("groups (-want +got):\n%s", diff)
		}
	})
}

func TestCopyTxLogs(t *testing.T) {
	now := time.Now().UTC().Truncate(time.Microsecond)
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		logs := txLogFixture(now, 700)
		logs[3].Debug, logs[3].RequestPayload, logs[3].BackendResponse = true, []byte(`{"a":1}`), []byte("<r>\xff</r>")
		logs[4].InBodyFault = true
		logs[699].ConsumerIdentity = "CN=partner,O=Example" // WS-Security identity (migration 0017)
		logs[699].ValidationIssues = []model.ValidationIssue{{Pointer: "/r/extra", Reason: "unexpected element extra"}}
		if err := s.CopyTxLogs(ctx, logs); err != nil {
			t.Fatal(err)
		}
		v, err := s.TxLogs(ctx, model.TxLogFilter{WithViolations: true}, model.PageRequest{Page: 1, PageSize: 10})
		if err != nil || v.TotalItems != 1 || v.Items[0].CorrelationID != logs[699].CorrelationID {
			t.Errorf("violations filter: %v %+v", err, v)
		}
		for _, i := range []int{0, 3, 4, 699} {
			got, err := s.TxLogsByCorrelation(ctx, logs[i].CorrelationID)
			if err != nil || len(got) != 1 {
				t.Fatalf("%s: %v %v", logs[i].CorrelationID, err, got)
			}
			want := logs[i]
			want.ID = got[0].ID
			if diff := cmp.Diff(want, got[0]); diff != "" {
				t.Errorf("%s round trip (-want +got):\n%s", want.CorrelationID, diff)
			}
		}
	})
}

// TestCopyTxLogsFailureStoresNothing: on SQLite CopyTxLogs writes INSERT
// OR ROLLBACK, so a row that fails ends the transaction inside the
// statement. The batch must still be all-or-nothing, whether the failing
// row is in a prepared full chunk or in the remainder, and the writer
// must take the next batch. A unique index made for the test provides the
// failure (nothing the recorder writes can fail a constraint).
func TestCopyTxLogsFailureStoresNothing(t *testing.T) {
	s := storetest.SQLite(t)
	ctx := context.Background()
	if err := s.Transact(ctx, func(tx *store.Tx) error {
		_, err := tx.Exec(ctx, "CREATE UNIQUE INDEX test_unique_cid ON runtime_tx_logs (correlation_id)")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC().Truncate(time.Microsecond)
	count := func() int64 {
		t.Helper()
		page, err := s.TxLogs(ctx, model.TxLogFilter{}, model.PageRequest{Page: 1, PageSize: 1})
		if err != nil {
			t.Fatal(err)
		}
		return page.TotalItems
	}
	for _, dup := range []int{10, 650} { // in the first 500-row chunk; in the remainder
		logs := txLogFixture(now, 700)
		logs[dup].CorrelationID = logs[0].CorrelationID
		err := s.CopyTxLogs(ctx, logs)
		if err == nil {
			t.Fatalf("duplicate at %d: CopyTxLogs succeeded", dup)
		}
		if strings.Contains(err.Error(), "rollback") {
			t.Errorf("duplicate at %d: the error names a failed rollback SQLite already did: %v", dup, err)
		}
		if n := count(); n != 0 {
			t.Fatalf("duplicate at %d: %d rows stored, want 0", dup, n)
		}
	}
	if err := s.CopyTxLogs(ctx, txLogFixture(now, 700)); err != nil {
		t.Fatalf("batch after the failures: %v", err)
	}
	if n := count(); n != 700 {
		t.Errorf("%d rows stored, want 700", n)
	}
}
