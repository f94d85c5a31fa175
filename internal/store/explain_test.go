package store_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/s2r-project/s2r/internal/discovery"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// TestDiscoveryQueryPlans checks, with EXPLAIN on both databases, that
// the queries of SPEC 4.9 and 4.10 over lb_events and generic_logs use
// the index chosen for them (docs/discovery.md lists them): the
// drill-down's examples and failures, the stage merge, time windows,
// result-code filters and the idempotency check of ingest.
func TestDiscoveryQueryPlans(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		at := time.Now().UTC().Add(-time.Hour)
		var gtids []string
		for i := range 10 {
			b := lbBatchRows(t, at.Add(time.Duration(i)*time.Minute), 250, 48)
			for j := range b.LB { // about 1% of calls fail, as in real traffic
				if e := &b.LB[j]; e.Failure && j%200 != 7 {
					e.Failure, e.StatusCode, e.ResultCode = false, 200, "ok"
				}
			}
			if _, err := st.Ingest(ctx, b, discovery.Rollups); err != nil {
				t.Fatal(err)
			}
			gtids = append(gtids, uuid.UUID(b.LB[0].GlobalTransactionID).String())
		}
		gb := &model.IngestBatch{TenantID: "default", InstanceID: "inst-2", InstanceVendor: "kong", ReceivedAt: at,
			Rows: []model.RowRef{{ServiceURI: "/g", SampleURI: "/g", Vendor: "kong", Environment: "discovered", ServiceKey: "/g"}}}
		for i := range 2000 {
			gb.Generic = append(gb.Generic, model.GenericLog{EventID: uuid.New(), Vendor: "kong", RawURI: "/g",
				OccurredAt: at.Add(time.Duration(i) * time.Second), StatusCode: 200 + 300*(i%7/6), ResultCode: "ok", Failure: i%7 == 6})
		}
		if _, err := st.Ingest(ctx, gb, discovery.Rollups); err != nil {
			t.Fatal(err)
		}
		if st.Dialect() == store.Postgres {
			if err := st.Transact(ctx, func(tx *store.Tx) error { _, err := tx.Exec(ctx, "ANALYZE"); return err }); err != nil {
				t.Fatal(err)
			}
		}
		rows, err := st.DiscoveryRows(ctx, model.DiscoveryRowFilter{TenantID: "default"}, at, pageOf(100))
		if err != nil {
			t.Fatal(err)
		}
		ids := map[string]int64{}
		for _, r := range rows.Items {
			ids[r.ServiceURI] = r.RowID
		}
		row, genRow := ids["/orders/{id}"], ids["/g"]
		from := store.NewTime(at.Add(-24 * time.Hour))
		sqliteKeys := func(table string) (string, []any) {
			return store.StoredKeysSQL(store.SQLite, table, 2), []any{from, uuid.NewString(), from, uuid.NewString()}
		}
		pgKeys := func(table string) (string, []any) {
			return store.StoredKeysSQL(store.Postgres, table, 2), []any{[]time.Time{at, at}, [][16]byte{uuid.New(), uuid.New()}}
		}
		keys := sqliteKeys
		if st.Dialect() == store.Postgres {
			keys = pgKeys
		}
		lbKeysQ, lbKeysArgs := keys("lb_events")
		genKeysQ, genKeysArgs := keys("generic_logs")
		tests := []struct {
			name, query string
			args        []any
			index       string
		}{
			{"lb good examples (drill-down)", store.LBExchangesSQL(false), []any{row, from, 50}, "lb_events_row_time"},
			{"lb failures", store.LBExchangesSQL(true), []any{row, from, 21}, "lb_events_failures"},
			{"lb stages of transactions", store.LBRequestsSQL(2), []any{gtids[0], gtids[1]}, "lb_events_gtid"},
			{"lb traffic logs in a window", "SELECT event_id FROM lb_events WHERE occurred_at >= $1 AND occurred_at <= $2 " +
				"ORDER BY occurred_at DESC LIMIT 50", []any{from, store.NewTime(at)}, "lb_events_event"},
			{"lb transactions of a tenant in a window (traffic logs, search, metrics)", "SELECT global_transaction_id FROM lb_events e " +
				"WHERE e.occurred_at >= $1 AND e.occurred_at <= $2 AND e.tenant_id = $3 AND e.stage = 'client_response' " +
				"ORDER BY e.occurred_at DESC LIMIT 50", []any{from, store.NewTime(at), "default"}, "lb_events_calls"},
			{"lb traffic logs of a serviceUri", "SELECT event_id FROM lb_events WHERE row_id = $1 AND occurred_at >= $2 " +
				"ORDER BY occurred_at DESC LIMIT 50", []any{row, from}, "lb_events_row_time"},
			{"lb result codes", "SELECT event_id FROM lb_events WHERE result_code IN ('no_backend', 'reset') AND " +
				"result_code NOT IN ('', 'ok') AND occurred_at >= $1 ORDER BY occurred_at DESC LIMIT 50", []any{from}, "lb_events_result"},
			{"lb idempotency check", lbKeysQ, lbKeysArgs, "lb_events_event"},
			{"generic good examples", store.GenericExchangesSQL(false, false), []any{genRow, from, 50}, "generic_logs_row_time"},
			{"generic failures", store.GenericExchangesSQL(true, false), []any{genRow, from, 21}, "generic_logs_failures"},
			{"generic failures of one vendor", store.GenericExchangesSQL(true, true), []any{genRow, from, 21, 5000, "kong"}, "generic_logs_failures"},
			{"generic logs in a window", "SELECT id FROM generic_logs WHERE occurred_at >= $1 ORDER BY occurred_at DESC LIMIT 50",
				[]any{from}, "generic_logs_event"},
			{"generic result codes", "SELECT id FROM generic_logs WHERE result_code IN ('timeout') AND result_code NOT IN ('', 'ok') " +
				"AND occurred_at >= $1", []any{from}, "generic_logs_result"},
			{"generic idempotency check", genKeysQ, genKeysArgs, "generic_logs_event"},
		}
		for _, tc := range tests {
			plan, err := st.Explain(ctx, tc.query, tc.args...)
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
				continue
			}
			if !strings.Contains(plan, tc.index) {
				t.Errorf("%s: plan does not use %s:\n%s", tc.name, tc.index, plan)
			}
		}
	})
}
