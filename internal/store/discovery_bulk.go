package store

import (
	"context"
	"fmt"
	"time"

	"github.com/s2r-project/s2r/internal/model"
)

// BulkLoad stores a batch of generated data quickly: the rows are ensured
// and the events COPYed (PostgreSQL) or inserted without the idempotency
// check, and no rollups are maintained; RebuildDiscoveryRollups must run
// afterwards. A key already stored fails the batch. It exists for loading
// benchmark data (s2r loadgen -bulk), never for ingest.
func (s *Store) BulkLoad(ctx context.Context, b *model.IngestBatch) error {
	full := s.fullInsertStmt(ctx, b)
	return s.transactWithCopy(ctx, func(tx *Tx, cp copier) error {
		ids, err := ensureRows(ctx, tx, b, rowSpans(b))
		if err != nil {
			return err
		}
		n := max(len(b.LB), len(b.Generic))
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		if len(b.LB) > 0 {
			return insertRows(ctx, tx, cp, full, "lb_events", lbEventColumns, idx, lbEventValues(b, ids))
		}
		return insertRows(ctx, tx, cp, full, "generic_logs", genericLogColumns, idx, genericLogValues(b, ids))
	})
}

// bucketExprs are the hour, minute and day of occurred_at as stored
// times, per dialect: date_trunc in UTC on PostgreSQL, a prefix of the
// fixed-width text on SQLite.
func bucketExprs(d Dialect) (hour, minute, day string) {
	if d == Postgres {
		return "date_trunc('hour', occurred_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'",
			"date_trunc('minute', occurred_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'",
			"date_trunc('day', occurred_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'"
	}
	return "substr(occurred_at, 1, 13) || ':00:00.000000Z'", "substr(occurred_at, 1, 16) || ':00.000000Z'",
		"substr(occurred_at, 1, 10) || 'T00:00:00.000000Z'"
}

// RebuildDiscoveryRollups recomputes every rollup, the row vendors and the
// rows' first and last seen from the stored events (after BulkLoad; also
// a repair), and marks every hour for the observability aggregation. Per-minute rollups are rebuilt for the events since
// minutesSince only. It runs in one transaction.
func (s *Store) RebuildDiscoveryRollups(ctx context.Context, minutesSince time.Time) error {
	hour, minute, day := bucketExprs(s.dialect)
	fail := "SUM(CASE WHEN failure THEN 1 ELSE 0 END)"
	errs := func(a string) string { return "SUM(" + edgeErrorSQL(a) + ")" }
	lbCalls := " FROM lb_events WHERE stage = 'client_response'"
	stmts := []struct {
		q    string
		args []any
	}{
		{q: "DELETE FROM discovery_hourly"}, {q: "DELETE FROM discovery_minutely"},
		{q: "DELETE FROM discovery_consumers"}, {q: "DELETE FROM discovery_row_vendors"},
		{q: "INSERT INTO discovery_hourly (row_id, source, vendor, hour, calls, failures, errors, latency_sum_ms, latency_max_ms) " +
			"SELECT row_id, 'lb', vendor, " + hour + ", COUNT(*), " + fail + ", " + errs("lb_events") + ", SUM(duration_ms), " +
			"MAX(duration_ms)" + lbCalls + " GROUP BY row_id, vendor, " + hour +
			" UNION ALL SELECT row_id, 'generic', vendor, " + hour + ", COUNT(*), " + fail + ", " + errs("generic_logs") +
			", SUM(latency_ms), MAX(latency_ms) FROM generic_logs GROUP BY row_id, vendor, " + hour},
		{q: "INSERT INTO discovery_minutely (row_id, source, minute, calls, failures) " +
			"SELECT row_id, 'lb', " + minute + ", COUNT(*), " + fail + lbCalls + " AND occurred_at >= $1 GROUP BY row_id, " + minute +
			" UNION ALL SELECT row_id, 'generic', " + minute + ", COUNT(*), " + fail + " FROM generic_logs WHERE occurred_at >= $1 " +
			"GROUP BY row_id, " + minute, args: []any{NewTime(minutesSince)}},
		{q: "INSERT INTO discovery_consumers (row_id, source, vendor, day, consumer_ip, calls, failures, last_seen) " +
			"SELECT row_id, 'lb', vendor, " + day + ", client_ip, COUNT(*), " + fail + ", MAX(occurred_at)" + lbCalls +
			" AND client_ip <> '' GROUP BY row_id, vendor, " + day + ", client_ip" +
			" UNION ALL SELECT row_id, 'generic', vendor, " + day + ", consumer_ip, COUNT(*), " + fail + ", MAX(occurred_at) " +
			"FROM generic_logs WHERE consumer_ip <> '' GROUP BY row_id, vendor, " + day + ", consumer_ip"},
		{q: "INSERT INTO discovery_row_vendors (row_id, vendor) SELECT DISTINCT row_id, vendor FROM discovery_hourly"},
		// Every hour is re-aggregated for the observability views.
		{q: "INSERT INTO traffic_dirty_hours (source, hour) SELECT DISTINCT source, hour FROM discovery_hourly ORDER BY 2, 1"},
		{q: "UPDATE discovery_rows SET first_seen = m.f, last_seen = m.l FROM (SELECT row_id, MIN(f) AS f, MAX(l) AS l FROM (" +
			"SELECT row_id, MIN(occurred_at) AS f, MAX(occurred_at) AS l FROM lb_events GROUP BY row_id UNION ALL " +
			"SELECT row_id, MIN(occurred_at), MAX(occurred_at) FROM generic_logs GROUP BY row_id) u GROUP BY row_id) m " +
			"WHERE discovery_rows.row_id = m.row_id"},
	}
	return s.Transact(ctx, func(tx *Tx) error {
		for _, st := range stmts {
			if _, err := tx.Exec(ctx, st.q, st.args...); err != nil {
				return fmt.Errorf("store: rebuild discovery rollups: %w", err)
			}
		}
		return nil
	})
}
