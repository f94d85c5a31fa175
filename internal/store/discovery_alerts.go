package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/s2r-project/s2r/internal/model"
)

const alertRuleColumns = "row_id, enabled, min_calls_1h, failure_pct_threshold, failure_count_threshold, updated_at, updated_by"

// AlertRule returns row's rule and whether it has one.
func (s *Store) AlertRule(ctx context.Context, rowID int64) (model.AlertRule, bool, error) {
	return alertRule(ctx, s.reader(), rowID)
}

// AlertRule returns row's rule as seen by the transaction.
func (tx *Tx) AlertRule(ctx context.Context, rowID int64) (model.AlertRule, bool, error) {
	return alertRule(ctx, tx, rowID)
}

func alertRule(ctx context.Context, q Querier, rowID int64) (model.AlertRule, bool, error) {
	var (
		a  model.AlertRule
		at Time
	)
	err := q.QueryRow(ctx, "SELECT "+alertRuleColumns+" FROM discovery_alert_rules WHERE row_id = $1", rowID).
		Scan(&a.RowID, &a.Enabled, &a.MinCalls1h, &a.FailurePctThreshold, &a.FailureCountThreshold, &at, &a.UpdatedBy)
	if errors.Is(err, ErrNotFound) {
		return model.AlertRule{}, false, nil
	}
	if err != nil {
		return model.AlertRule{}, false, fmt.Errorf("store: alert rule: %w", err)
	}
	a.UpdatedAt = at.Time
	return a, true, nil
}

// PutAlertRule inserts or replaces a row's rule.
func (tx *Tx) PutAlertRule(ctx context.Context, a model.AlertRule) error {
	_, err := tx.Exec(ctx, "INSERT INTO discovery_alert_rules ("+alertRuleColumns+") VALUES ($1, $2, $3, $4, $5, $6, $7) "+
		"ON CONFLICT (row_id) DO UPDATE SET enabled = excluded.enabled, min_calls_1h = excluded.min_calls_1h, "+
		"failure_pct_threshold = excluded.failure_pct_threshold, failure_count_threshold = excluded.failure_count_threshold, "+
		"updated_at = excluded.updated_at, updated_by = excluded.updated_by",
		a.RowID, a.Enabled, a.MinCalls1h, a.FailurePctThreshold, a.FailureCountThreshold, NewTime(a.UpdatedAt), a.UpdatedBy)
	if err != nil {
		return fmt.Errorf("store: put alert rule: %w", err)
	}
	return nil
}

// AlertRuleWindows returns every rule (enabled or not) with its row's lb
// calls and failures in the per-minute buckets from since (inclusive) to
// until (exclusive), by row id.
func (s *Store) AlertRuleWindows(ctx context.Context, since, until time.Time) ([]model.AlertRuleWindow, error) {
	q := "SELECT a.row_id, a.enabled, a.min_calls_1h, a.failure_pct_threshold, a.failure_count_threshold, a.updated_at, " +
		"a.updated_by, r.tenant_id, r.service_uri, COALESCE(r.lb_instance_id, ''), " +
		"COALESCE(SUM(m.calls), 0), COALESCE(SUM(m.failures), 0) FROM discovery_alert_rules a " +
		"JOIN discovery_rows r ON r.row_id = a.row_id " +
		"LEFT JOIN discovery_minutely m ON m.row_id = a.row_id AND m.source = 'lb' AND m.minute >= $1 AND m.minute < $2 " +
		"GROUP BY a.row_id, a.enabled, a.min_calls_1h, a.failure_pct_threshold, a.failure_count_threshold, a.updated_at, " +
		"a.updated_by, r.tenant_id, r.service_uri, r.lb_instance_id ORDER BY a.row_id"
	rows, err := s.reader().Query(ctx, q, NewTime(since), NewTime(until))
	if err != nil {
		return nil, fmt.Errorf("store: alert rule windows: %w", err)
	}
	defer rows.Close()
	var out []model.AlertRuleWindow
	for rows.Next() {
		var (
			w  model.AlertRuleWindow
			at Time
		)
		if err := rows.Scan(&w.RowID, &w.Enabled, &w.MinCalls1h, &w.FailurePctThreshold, &w.FailureCountThreshold, &at,
			&w.UpdatedBy, &w.TenantID, &w.ServiceURI, &w.LBInstanceID, &w.Calls, &w.Failures); err != nil {
			return nil, fmt.Errorf("store: alert rule windows: %w", err)
		}
		w.UpdatedAt = at.Time
		out = append(out, w)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: alert rule windows: %w", mapError(err))
	}
	return out, nil
}
