package store

import (
	"context"
	"fmt"
	"time"
)

// DeleteIngestEventsBefore removes at most limit lb events and at most
// limit generic logs that occurred before t (retention), and returns how
// many it removed of each.
func (tx *Tx) DeleteIngestEventsBefore(ctx context.Context, t time.Time, limit int) (lb, generic int64, err error) {
	// lb_events has no key column of its own: rows go by physical id.
	q := "DELETE FROM lb_events WHERE rowid IN (SELECT rowid FROM lb_events WHERE occurred_at < $1 LIMIT $2)"
	if tx.dialect == Postgres {
		q = "DELETE FROM lb_events WHERE ctid = ANY(ARRAY(SELECT ctid FROM lb_events WHERE occurred_at < $1 LIMIT $2))"
	}
	res, err := tx.Exec(ctx, q, NewTime(t), limit)
	if err != nil {
		return 0, 0, fmt.Errorf("store: delete lb events: %w", err)
	}
	if lb, err = res.RowsAffected(); err != nil {
		return 0, 0, err
	}
	res, err = tx.Exec(ctx, "DELETE FROM generic_logs WHERE id IN (SELECT id FROM generic_logs WHERE occurred_at < $1 LIMIT $2)",
		NewTime(t), limit)
	if err != nil {
		return 0, 0, fmt.Errorf("store: delete generic logs: %w", err)
	}
	generic, err = res.RowsAffected()
	return lb, generic, err
}

// DeleteDiscoveryRollupsBefore removes hourly and consumer rollups before
// t, per-minute rollups before minuteCut, and rows last seen before t that
// have no alert rule (their rollups go with them).
func (tx *Tx) DeleteDiscoveryRollupsBefore(ctx context.Context, t, minuteCut time.Time) (int64, error) {
	var removed int64
	for _, st := range []struct {
		q   string
		arg time.Time
	}{
		{"DELETE FROM discovery_hourly WHERE hour < $1", t},
		{"DELETE FROM discovery_consumers WHERE day < $1", t.UTC().Truncate(24 * time.Hour)},
		{"DELETE FROM discovery_minutely WHERE minute < $1", minuteCut},
		{"DELETE FROM discovery_rows WHERE last_seen < $1 AND NOT EXISTS " +
			"(SELECT 1 FROM discovery_alert_rules a WHERE a.row_id = discovery_rows.row_id)", t},
	} {
		res, err := tx.Exec(ctx, st.q, NewTime(st.arg))
		if err != nil {
			return removed, fmt.Errorf("store: discovery retention: %w", err)
		}
		n, _ := res.RowsAffected()
		removed += n
	}
	return removed, nil
}
