package store

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/s2r-project/s2r/internal/model"
)

// RollupFunc computes the discovery rollups of the events of b the store
// newly stored (fresh: indexes into b.LB, or into b.Generic); rowIDs are
// the ids of b.Rows. discovery.Rollups is the one the service uses: the
// arithmetic lives there, the store writes its result.
type RollupFunc func(b *model.IngestBatch, rowIDs []int64, fresh []int) model.IngestRollups

// applyRollups adds the batch's rollups to the hourly, per-minute and
// consumer rollups, records the vendors, moves each touched row's first
// and last seen, and marks the hours that received calls for the
// observability aggregation (traffic_dirty_hours). Every statement handles
// its keys in sorted order, so concurrent batches lock rollup rows in one
// order (no deadlock); the marks are appended last and lock nothing.
func applyRollups(ctx context.Context, tx *Tx, b *model.IngestBatch, rowIDs []int64, spans []rowSpan, r model.IngestRollups) error {
	if err := upsertHours(ctx, tx, r.Hours); err != nil {
		return err
	}
	if err := upsertMinutes(ctx, tx, r.Minutes); err != nil {
		return err
	}
	if err := upsertConsumers(ctx, tx, r.Consumers); err != nil {
		return err
	}
	if err := insertVendors(ctx, tx, r.Vendors); err != nil {
		return err
	}
	if err := touchRows(ctx, tx, b, rowIDs, spans); err != nil {
		return err
	}
	return markDirtyHours(ctx, tx, r.DirtyHours)
}

// markDirtyHours appends the (source, hour) pairs of the batch's calls to
// traffic_dirty_hours, where the aggregation job finds the hours to
// re-aggregate (back-dated calls included).
func markDirtyHours(ctx context.Context, tx *Tx, dirty map[model.DirtyHour]bool) error {
	keys := slices.SortedFunc(maps.Keys(dirty), func(a, b model.DirtyHour) int {
		return cmp.Or(a.Hour.Compare(b.Hour), strings.Compare(a.Source, b.Source))
	})
	return upsertChunks(ctx, tx, "traffic_dirty_hours", []string{"source", "hour"}, "", keys, func(k model.DirtyHour) []any {
		return []any{k.Source, NewTime(k.Hour)}
	})
}

// rollupChunk bounds the keys of one rollup statement.
const rollupChunk = 400

func upsertHours(ctx context.Context, tx *Tx, m map[model.HourBucket]*model.HourCounts) error {
	keys := slices.SortedFunc(maps.Keys(m), func(a, b model.HourBucket) int {
		return cmp.Or(cmp.Compare(a.Row, b.Row), strings.Compare(a.Source, b.Source), strings.Compare(a.Vendor, b.Vendor), a.Hour.Compare(b.Hour))
	})
	cols := []string{"row_id", "source", "vendor", "hour", "calls", "failures", "errors", "latency_sum_ms", "latency_max_ms"}
	tail := " ON CONFLICT (row_id, source, vendor, hour) DO UPDATE SET calls = discovery_hourly.calls + excluded.calls, " +
		"failures = discovery_hourly.failures + excluded.failures, errors = discovery_hourly.errors + excluded.errors, " +
		"latency_sum_ms = discovery_hourly.latency_sum_ms + excluded.latency_sum_ms, " +
		"latency_max_ms = " + greatest(tx.dialect) + "(discovery_hourly.latency_max_ms, excluded.latency_max_ms)"
	return upsertChunks(ctx, tx, "discovery_hourly", cols, tail, keys, func(k model.HourBucket) []any {
		a := m[k]
		return []any{k.Row, k.Source, k.Vendor, NewTime(k.Hour), a.Calls, a.Failures, a.Errors, a.LatencySumMs, a.LatencyMaxMs}
	})
}

func upsertMinutes(ctx context.Context, tx *Tx, m map[model.MinuteBucket]*model.CallCounts) error {
	keys := slices.SortedFunc(maps.Keys(m), func(a, b model.MinuteBucket) int {
		return cmp.Or(cmp.Compare(a.Row, b.Row), strings.Compare(a.Source, b.Source), a.Minute.Compare(b.Minute))
	})
	cols := []string{"row_id", "source", "minute", "calls", "failures"}
	tail := " ON CONFLICT (row_id, source, minute) DO UPDATE SET calls = discovery_minutely.calls + excluded.calls, " +
		"failures = discovery_minutely.failures + excluded.failures"
	return upsertChunks(ctx, tx, "discovery_minutely", cols, tail, keys, func(k model.MinuteBucket) []any {
		a := m[k]
		return []any{k.Row, k.Source, NewTime(k.Minute), a.Calls, a.Failures}
	})
}

func upsertConsumers(ctx context.Context, tx *Tx, m map[model.ConsumerBucket]*model.ConsumerCounts) error {
	keys := slices.SortedFunc(maps.Keys(m), func(a, b model.ConsumerBucket) int {
		return cmp.Or(cmp.Compare(a.Row, b.Row), strings.Compare(a.Source, b.Source), strings.Compare(a.Vendor, b.Vendor),
			a.Day.Compare(b.Day), strings.Compare(a.IP, b.IP))
	})
	cols := []string{"row_id", "source", "vendor", "day", "consumer_ip", "calls", "failures", "last_seen"}
	tail := " ON CONFLICT (row_id, source, vendor, day, consumer_ip) DO UPDATE SET calls = discovery_consumers.calls + excluded.calls, " +
		"failures = discovery_consumers.failures + excluded.failures, " +
		"last_seen = " + greatest(tx.dialect) + "(discovery_consumers.last_seen, excluded.last_seen)"
	return upsertChunks(ctx, tx, "discovery_consumers", cols, tail, keys, func(k model.ConsumerBucket) []any {
		a := m[k]
		return []any{k.Row, k.Source, k.Vendor, NewTime(k.Day), k.IP, a.Calls, a.Failures, NewTime(a.LastSeen)}
	})
}

func insertVendors(ctx context.Context, tx *Tx, m map[model.RowVendor]bool) error {
	keys := slices.SortedFunc(maps.Keys(m), func(a, b model.RowVendor) int {
		return cmp.Or(cmp.Compare(a.Row, b.Row), strings.Compare(a.Vendor, b.Vendor))
	})
	return upsertChunks(ctx, tx, "discovery_row_vendors", []string{"row_id", "vendor"},
		" ON CONFLICT (row_id, vendor) DO NOTHING", keys, func(k model.RowVendor) []any { return []any{k.Row, k.Vendor} })
}

// upsertChunks runs "INSERT … tail" over keys: on PostgreSQL one
// statement whose rows come from unnest over one array per column (one
// parameter per column, where VALUES would take one per cell); on SQLite
// multi-row VALUES, rollupChunk keys at a time. Keys are sorted by the
// caller, and both forms insert in that order.
func upsertChunks[K any](ctx context.Context, tx *Tx, table string, cols []string, tail string, keys []K, values func(K) []any) error {
	if len(keys) == 0 {
		return nil
	}
	if tx.dialect == Postgres {
		rows := make([][]any, len(keys))
		for i, k := range keys {
			rows[i] = values(k)
		}
		arrays, casts := columnArrays(rows)
		q := "INSERT INTO " + table + " (" + strings.Join(cols, ", ") + ") SELECT * FROM unnest(" + strings.Join(casts, ", ") + ")" + tail
		if _, err := tx.Exec(ctx, q, arrays...); err != nil {
			return fmt.Errorf("store: upsert %s: %w", table, err)
		}
		return nil
	}
	for chunk := range chunks(keys, rollupChunk) {
		args := make([]any, 0, len(chunk)*len(cols))
		for _, k := range chunk {
			args = append(args, values(k)...)
		}
		if _, err := tx.Exec(ctx, valuesSQL(tx.dialect, table, cols, len(chunk))+tail, args...); err != nil {
			return fmt.Errorf("store: upsert %s: %w", table, err)
		}
	}
	return nil
}

// columnArrays turns rows of values (int64, float64, string, Time) into
// one typed array per column and the "$n::type[]" casts that bind them.
func columnArrays(rows [][]any) ([]any, []string) {
	n := len(rows[0])
	arrays, casts := make([]any, n), make([]string, n)
	for c := range n {
		param := "$" + strconv.Itoa(c+1)
		switch rows[0][c].(type) {
		case int64:
			a := make([]int64, len(rows))
			for i, r := range rows {
				a[i] = r[c].(int64)
			}
			arrays[c], casts[c] = a, param+"::bigint[]"
		case float64:
			a := make([]float64, len(rows))
			for i, r := range rows {
				a[i] = r[c].(float64)
			}
			arrays[c], casts[c] = a, param+"::double precision[]"
		case Time:
			a := make([]time.Time, len(rows))
			for i, r := range rows {
				a[i] = r[c].(Time).Time
			}
			arrays[c], casts[c] = a, param+"::timestamptz[]"
		default:
			a := make([]string, len(rows))
			for i, r := range rows {
				a[i], _ = r[c].(string)
			}
			arrays[c], casts[c] = a, param+"::text[]"
		}
	}
	return arrays, casts
}

// touchRows moves each row's first and last seen to cover the batch, marks
// its source seen, sets its lb instance (and that instance's vendor) when
// it had none, and records the onboarded service it matches now. A row
// that vanished (retention, concurrently) fails the batch for a retry.
func touchRows(ctx context.Context, tx *Tx, b *model.IngestBatch, rowIDs []int64, spans []rowSpan) error {
	order := make([]int, len(rowIDs))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(x, y int) int { return cmp.Compare(rowIDs[x], rowIDs[y]) })
	lb := len(b.LB) > 0
	var lbInstance any
	if lb {
		lbInstance = b.InstanceID
	}
	q := "UPDATE discovery_rows SET first_seen = " + least(tx.dialect) + "(first_seen, $2), " +
		"last_seen = " + greatest(tx.dialect) + "(last_seen, $3), seen_lb = (seen_lb OR $4), seen_generic = (seen_generic OR $5), " +
		"vendor = CASE WHEN lb_instance_id IS NULL AND $6 IS NOT NULL THEN $7 ELSE vendor END, " +
		"lb_instance_id = COALESCE(lb_instance_id, $6), onboarded_service_id = $8, environment = $9, service_key = $10 " +
		"WHERE row_id = $1"
	if tx.dialect == Postgres {
		// $6 appears where PostgreSQL cannot infer its type from a column.
		q = strings.Replace(q, "$6 IS NOT NULL", "$6::text IS NOT NULL", 1)
	}
	for _, i := range order {
		r := &b.Rows[i]
		res, err := tx.Exec(ctx, q, rowIDs[i], NewTime(spans[i].first), NewTime(spans[i].last), lb, !lb,
			lbInstance, b.InstanceVendor, nullString(r.OnboardedServiceID), r.Environment, r.ServiceKey)
		if err != nil {
			return fmt.Errorf("store: touch discovery row: %w", err)
		}
		if n, err := res.RowsAffected(); err == nil && n != 1 {
			return fmt.Errorf("store: discovery row %d vanished: %w", rowIDs[i], ErrConflict)
		}
	}
	return nil
}
