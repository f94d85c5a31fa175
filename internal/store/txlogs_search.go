package store

import (
	"context"
	"strings"

	"github.com/s2r-project/s2r/internal/model"
)

// SearchTxLogs returns at most q.Limit runtime logs matching q, newest
// first, without payloads.
func (s *Store) SearchTxLogs(ctx context.Context, q model.TxSearch) ([]model.TxLog, error) {
	var (
		a     sqlArgs
		conds []string
	)
	if !q.Since.IsZero() {
		conds = append(conds, "occurred_at >= "+a.add(NewTime(q.Since)))
	}
	if !q.Until.IsZero() {
		conds = append(conds, "occurred_at <= "+a.add(NewTime(q.Until)))
	}
	if q.URIContains != "" {
		p := a.add(containsPattern(q.URIContains))
		conds = append(conds, "(LOWER(path) LIKE "+p+" ESCAPE '\\' OR LOWER(service_key) LIKE "+p+" ESCAPE '\\'"+
			" OR LOWER(operation_key) LIKE "+p+" ESCAPE '\\')")
	}
	if q.BackendContains != "" {
		conds = append(conds, "LOWER(backend_target) LIKE "+a.add(containsPattern(q.BackendContains))+" ESCAPE '\\'")
	}
	if q.StatusMax != 0 {
		conds = append(conds, "http_status >= "+a.add(q.StatusMin), "http_status <= "+a.add(q.StatusMax))
	}
	if q.Direction != "" {
		conds = append(conds, "direction = "+a.add(q.Direction))
	}
	switch {
	case q.ServiceIDs == nil:
	case len(q.ServiceIDs) == 0 && q.ExcludeServiceIDs:
	case len(q.ServiceIDs) == 0:
		return nil, nil
	case q.ExcludeServiceIDs:
		conds = append(conds, "NOT "+a.in("service_id", q.ServiceIDs))
	default:
		conds = append(conds, a.in("service_id", q.ServiceIDs))
	}
	query := "SELECT " + txLogListColumns + " FROM runtime_tx_logs"
	if len(conds) > 0 {
		query += " WHERE " + strings.Join(conds, " AND ")
	}
	query += " ORDER BY occurred_at DESC, id DESC LIMIT " + a.add(q.Limit)
	return s.queryTxLogs(ctx, query, a.list, false)
}
