package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"github.com/s2r-project/s2r/internal/model"
)

// errorResultCodes are the result codes SPEC 4.11 rule 4 counts as errors
// (an in-body fault is an error too).
var errorResultCodes = []string{"failed", "backend_failure", "error", "timeout", "response_schema_violation"}

// trafficSource describes one raw traffic table in the canonical columns
// the aggregation job and the observability queries read: each field is
// an SQL expression over the table's columns.
type trafficSource struct {
	name string
	// table is the FROM clause of the raw rows (a join for the edge
	// sources) and where a condition every raw row of the source meets
	// ("" for none).
	table, where string
	// occurredAt is the event time (TIMESTAMPTZ, or store.Time text on
	// SQLite); tenant the tenant column, "" for a source shared by every
	// tenant.
	occurredAt, tenant                                          string
	direction, environment, serviceKey, operationKey, serviceID string
	// latency is the transaction's total time in ms; converter the
	// converter overhead in ms, a typed NULL when the source has none;
	// isError is 1 for an error by SPEC 4.11 rule 4, else 0.
	latency, converter, isError string
	// changes is where the aggregation job finds the hours to
	// re-aggregate.
	changes changeLog
	// rollup, when not "", is the discovery_hourly source the hours are
	// aggregated from (edge sources), instead of the raw rows.
	rollup string
}

// changeLog is a table with an increasing id whose rows name the hours
// that received traffic: the raw table itself for runtime records,
// traffic_dirty_hours for the edge sources.
type changeLog struct {
	table, id, at, where string
}

// runtimeSource is runtime_tx_logs.
var runtimeSource = trafficSource{
	name: model.SourceRuntime, table: "runtime_tx_logs",
	occurredAt: "occurred_at",
	direction:  "direction", environment: "environment", serviceKey: "service_key",
	operationKey: "operation_key", serviceID: "service_id",
	latency: "total_ms", converter: "converter_ms",
	isError: "CASE WHEN result_code IN ('" + strings.Join(errorResultCodes, "','") + "') OR in_body_fault = TRUE THEN 1 ELSE 0 END",
	changes: changeLog{table: "runtime_tx_logs", id: "id", at: "occurred_at"},
}

// trafficSources lists every aggregated source, in the order answers
// list them.
var trafficSources = []trafficSource{runtimeSource, lbSource, genericSource}

// TrafficSources returns the names of the traffic sources the store
// aggregates and queries.
func TrafficSources() []string {
	out := make([]string, len(trafficSources))
	for i, s := range trafficSources {
		out[i] = s.name
	}
	return out
}

// sourceByName returns the source called name.
func sourceByName(name string) (trafficSource, error) {
	i := slices.IndexFunc(trafficSources, func(s trafficSource) bool { return s.name == name })
	if i < 0 {
		return trafficSource{}, fmt.Errorf("store: unknown traffic source %q", name)
	}
	return trafficSources[i], nil
}

// selectedSources returns the sources named (all when names is empty).
func selectedSources(names []string) ([]trafficSource, error) {
	if len(names) == 0 {
		return trafficSources, nil
	}
	out := make([]trafficSource, 0, len(names))
	for _, n := range names {
		s, err := sourceByName(n)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// hourExpr truncates the time expression col to its UTC hour, in the
// column's own type.
func hourExpr(d Dialect, col string) string {
	if d == Postgres {
		return "(date_trunc('hour', " + col + " AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')"
	}
	return "(substr(" + col + ", 1, 13) || ':00:00.000000Z')"
}

// epochExpr is the time expression col in whole Unix seconds (floor).
func epochExpr(d Dialect, col string) string {
	if d == Postgres {
		return "CAST(floor(extract(epoch FROM " + col + ")) AS BIGINT)"
	}
	return "CAST(strftime('%s', " + col + ") AS INTEGER)"
}

// queryRows runs query on the reader and collects what scan makes of each
// row; scan's keep false drops a row. Errors name what was queried.
func queryRows[T any](ctx context.Context, s *Store, what, query string, args []any, scan func(*sql.Rows) (v T, keep bool, err error)) ([]T, error) {
	rows, err := s.reader().Query(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", what, err)
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, keep, err := scan(rows)
		if err != nil {
			return nil, fmt.Errorf("store: %s: %w", what, err)
		}
		if keep {
			out = append(out, v)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: %s: %w", what, mapError(err))
	}
	return out, nil
}
