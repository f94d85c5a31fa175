package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/s2r-project/s2r/internal/model"
)

// AggregationStates returns the stored state of every source that has
// one.
func (s *Store) AggregationStates(ctx context.Context) ([]model.AggregationState, error) {
	return queryRows(ctx, s, "aggregation states",
		"SELECT source, low_water, high_water, high_water_at, refreshed_at FROM traffic_aggregation_state ORDER BY source", nil,
		func(rows *sql.Rows) (model.AggregationState, bool, error) {
			var (
				st        model.AggregationState
				hwAt, ref Time
			)
			err := rows.Scan(&st.Source, &st.LowWater, &st.HighWater, &hwAt, &ref)
			st.HighWaterAt, st.RefreshedAt = hwAt.Time, ref.Time
			return st, true, err
		})
}

// AggregationState returns the state of one source; the zero state (with
// Source set) when the job never ran for it.
func (s *Store) AggregationState(ctx context.Context, source string) (model.AggregationState, error) {
	st := model.AggregationState{Source: source}
	var hwAt, ref Time
	err := s.reader().QueryRow(ctx,
		"SELECT low_water, high_water, high_water_at, refreshed_at FROM traffic_aggregation_state WHERE source = $1", source).
		Scan(&st.LowWater, &st.HighWater, &hwAt, &ref)
	if errors.Is(err, ErrNotFound) {
		return st, nil
	}
	if err != nil {
		return st, fmt.Errorf("store: aggregation state %s: %w", source, err)
	}
	st.HighWaterAt, st.RefreshedAt = hwAt.Time, ref.Time
	return st, nil
}

// PutAggregationState stores the state of st.Source.
func (tx *Tx) PutAggregationState(ctx context.Context, st model.AggregationState) error {
	_, err := tx.Exec(ctx, `INSERT INTO traffic_aggregation_state (source, low_water, high_water, high_water_at, refreshed_at)
		VALUES ($1, $2, $3, $4, $5) ON CONFLICT (source) DO UPDATE SET low_water = excluded.low_water,
		high_water = excluded.high_water, high_water_at = excluded.high_water_at, refreshed_at = excluded.refreshed_at`,
		st.Source, st.LowWater, st.HighWater, NewTime(st.HighWaterAt), NewTime(st.RefreshedAt))
	if err != nil {
		return fmt.Errorf("store: put aggregation state %s: %w", st.Source, err)
	}
	return nil
}

// where returns " WHERE cond" for the conditions that are not "".
func where(conds ...string) string {
	var kept []string
	for _, c := range conds {
		if c != "" {
			kept = append(kept, c)
		}
	}
	if len(kept) == 0 {
		return ""
	}
	return " WHERE " + strings.Join(kept, " AND ")
}

// TrafficMaxID returns the largest id of source's change log (0 when
// empty): the raw row id of runtime records, the traffic_dirty_hours id
// of the edge sources.
func (s *Store) TrafficMaxID(ctx context.Context, source string) (int64, error) {
	src, err := sourceByName(source)
	if err != nil {
		return 0, err
	}
	c := src.changes
	var id int64
	if err := s.reader().QueryRow(ctx, "SELECT COALESCE(MAX("+c.id+"), 0) FROM "+c.table+where(c.where)).Scan(&id); err != nil {
		return 0, fmt.Errorf("store: %s max id: %w", source, err)
	}
	return id, nil
}

// TrafficHoursBetweenIDs returns the distinct UTC hours of the change
// log entries of source with afterID < id <= upToID, oldest first: the
// hours that received records since a run that had seen ids up to
// afterID.
func (s *Store) TrafficHoursBetweenIDs(ctx context.Context, source string, afterID, upToID int64) ([]time.Time, error) {
	src, err := sourceByName(source)
	if err != nil {
		return nil, err
	}
	c := src.changes
	q := "SELECT DISTINCT " + hourExpr(s.dialect, c.at) + " AS h FROM " + c.table +
		where(c.id+" > $1", c.id+" <= $2", c.where) + " ORDER BY h"
	return queryRows(ctx, s, source+" hours", q, []any{afterID, upToID}, func(rows *sql.Rows) (time.Time, bool, error) {
		var h Time
		err := rows.Scan(&h)
		return h.Time, true, err
	})
}

// ComputeTrafficHour aggregates the traffic of source in the hour
// starting at hour (UTC, whole hour) from scratch: from the raw rows, or
// for the edge sources from their discovery_hourly rollups.
func (s *Store) ComputeTrafficHour(ctx context.Context, source string, hour time.Time) ([]model.HourlyRow, error) {
	src, err := sourceByName(source)
	if err != nil {
		return nil, err
	}
	if src.rollup != "" {
		return s.computeRollupHour(ctx, src, hour)
	}
	groups := strings.Join([]string{src.direction, src.environment, src.serviceKey, src.operationKey, src.serviceID}, ", ")
	q := "SELECT " + groups + ", COUNT(*), SUM(" + src.isError + "), SUM(" + src.latency + "), MAX(" + src.latency +
		"), MAX(" + src.converter + ") FROM " + src.table +
		where(src.occurredAt+" >= $1", src.occurredAt+" < $2", src.where) + " GROUP BY " + groups
	return queryRows(ctx, s, "aggregate "+source+" hour", q, []any{NewTime(hour), NewTime(hour.Add(time.Hour))},
		func(rows *sql.Rows) (model.HourlyRow, bool, error) {
			r := model.HourlyRow{Source: source, Hour: hour.UTC()}
			var conv sql.NullFloat64
			err := rows.Scan(&r.Direction, &r.Environment, &r.ServiceKey, &r.OperationKey, &r.ServiceID,
				&r.Requests, &r.Errors, &r.LatencySumMs, &r.LatencyMaxMs, &conv)
			r.ConverterMaxMs = nullFloat(conv)
			return r, true, err
		})
}

// nullFloat is v as a pointer, nil for NULL.
func nullFloat(v sql.NullFloat64) *float64 {
	if !v.Valid {
		return nil
	}
	return &v.Float64
}

// hourlyColumns are the columns of traffic_hourly, in model.HourlyRow order.
const hourlyColumns = "source, hour, tenant_id, direction, environment, service_key, operation_key, service_id, " +
	"requests, errors, latency_sum_ms, latency_max_ms, converter_max_ms"

// hourlyBatch bounds the rows of one INSERT (13 parameters each).
const hourlyBatch = 400

// ReplaceTrafficHour replaces the aggregates of source's hour with rows.
func (tx *Tx) ReplaceTrafficHour(ctx context.Context, source string, hour time.Time, rows []model.HourlyRow) error {
	if _, err := tx.Exec(ctx, "DELETE FROM traffic_hourly WHERE source = $1 AND hour = $2", source, NewTime(hour)); err != nil {
		return fmt.Errorf("store: replace %s hour: %w", source, err)
	}
	for len(rows) > 0 {
		n := min(len(rows), hourlyBatch)
		var (
			a      sqlArgs
			values []string
		)
		for _, r := range rows[:n] {
			var conv any
			if r.ConverterMaxMs != nil {
				conv = *r.ConverterMaxMs
			}
			values = append(values, "("+strings.Join([]string{a.add(source), a.add(NewTime(hour)), a.add(r.TenantID), a.add(r.Direction),
				a.add(r.Environment), a.add(r.ServiceKey), a.add(r.OperationKey), a.add(r.ServiceID), a.add(r.Requests),
				a.add(r.Errors), a.add(r.LatencySumMs), a.add(r.LatencyMaxMs), a.add(conv)}, ",")+")")
		}
		q := "INSERT INTO traffic_hourly (" + hourlyColumns + ") VALUES " + strings.Join(values, ",")
		if _, err := tx.Exec(ctx, q, a.list...); err != nil {
			return fmt.Errorf("store: replace %s hour: %w", source, err)
		}
		rows = rows[n:]
	}
	return nil
}

// TrafficHourly returns the stored aggregates of source with from <= hour
// < to, ordered by hour and group.
func (s *Store) TrafficHourly(ctx context.Context, source string, from, to time.Time) ([]model.HourlyRow, error) {
	q := "SELECT " + hourlyColumns + " FROM traffic_hourly WHERE source = $1 AND hour >= $2 AND hour < $3" +
		" ORDER BY hour, tenant_id, direction, environment, service_key, operation_key, service_id"
	return queryRows(ctx, s, "traffic hourly", q, []any{source, NewTime(from), NewTime(to)}, func(rows *sql.Rows) (model.HourlyRow, bool, error) {
		var (
			r    model.HourlyRow
			h    Time
			conv sql.NullFloat64
		)
		err := rows.Scan(&r.Source, &h, &r.TenantID, &r.Direction, &r.Environment, &r.ServiceKey, &r.OperationKey, &r.ServiceID,
			&r.Requests, &r.Errors, &r.LatencySumMs, &r.LatencyMaxMs, &conv)
		r.Hour, r.ConverterMaxMs = h.Time, nullFloat(conv)
		return r, true, err
	})
}

// RollupTrafficDay rebuilds the traffic_daily rows of source's UTC day
// (day at midnight) from its hourly rows.
func (tx *Tx) RollupTrafficDay(ctx context.Context, source string, day time.Time) error {
	day = day.UTC().Truncate(24 * time.Hour)
	if _, err := tx.Exec(ctx, "DELETE FROM traffic_daily WHERE source = $1 AND day = $2", source, NewTime(day)); err != nil {
		return fmt.Errorf("store: roll up %s day: %w", source, err)
	}
	_, err := tx.Exec(ctx, "INSERT INTO traffic_daily (source, day, tenant_id, direction, environment, service_key, operation_key, "+
		"service_id, requests, errors, latency_sum_ms, latency_max_ms, converter_max_ms) "+
		"SELECT source, $2, tenant_id, direction, environment, service_key, operation_key, service_id, SUM(requests), SUM(errors), "+
		"SUM(latency_sum_ms), MAX(latency_max_ms), MAX(converter_max_ms) FROM traffic_hourly "+
		"WHERE source = $1 AND hour >= $2 AND hour < $3 GROUP BY source, tenant_id, direction, environment, service_key, operation_key, service_id",
		source, NewTime(day), NewTime(day.Add(24*time.Hour)))
	if err != nil {
		return fmt.Errorf("store: roll up %s day: %w", source, err)
	}
	return nil
}

// DeleteTrafficHourlyBefore removes the aggregates of hours before t, and
// of days that end by t (retention); it returns how many rows went.
func (tx *Tx) DeleteTrafficHourlyBefore(ctx context.Context, t time.Time) (int64, error) {
	res, err := tx.Exec(ctx, "DELETE FROM traffic_hourly WHERE hour < $1", NewTime(t))
	if err != nil {
		return 0, fmt.Errorf("store: delete traffic hourly: %w", err)
	}
	n, _ := res.RowsAffected()
	res, err = tx.Exec(ctx, "DELETE FROM traffic_daily WHERE day < $1", NewTime(t.UTC().Truncate(24*time.Hour)))
	if err != nil {
		return 0, fmt.Errorf("store: delete traffic daily: %w", err)
	}
	m, _ := res.RowsAffected()
	return n + m, nil
}
