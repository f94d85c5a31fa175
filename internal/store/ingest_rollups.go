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

// Rollup keys and values built from one batch's calls.
type (
	hourKey struct {
		row            int64
		source, vendor string
		hour           time.Time
	}
	hourAgg struct {
		calls, failures, errors int64
		sumMs, maxMs            float64
	}
	minuteKey struct {
		row    int64
		source string
		minute time.Time
	}
	countAgg   struct{ calls, failures int64 }
	consumeKey struct {
		row            int64
		source, vendor string
		day            time.Time
		ip             string
	}
	consumeAgg struct {
		calls, failures int64
		last            time.Time
	}
	vendorKey struct {
		row    int64
		vendor string
	}
)

// applyRollups adds the batch's stored calls to the hourly, per-minute and
// consumer rollups, records the vendors, moves each touched row's first
// and last seen, and marks the hours that received calls for the
// observability aggregation (traffic_dirty_hours). Every statement handles
// its keys in sorted order, so concurrent batches lock rollup rows in one
// order (no deadlock); the marks are appended last and lock nothing.
func applyRollups(ctx context.Context, tx *Tx, b *model.IngestBatch, rowIDs []int64, spans []rowSpan, calls []call) error {
	hours := map[hourKey]*hourAgg{}
	minutes := map[minuteKey]*countAgg{}
	consumers := map[consumeKey]*consumeAgg{}
	vendors := map[vendorKey]bool{}
	for i := range calls {
		c := &calls[i]
		row := rowIDs[c.row]
		at := c.at.UTC()
		fail := int64(0)
		if c.failure {
			fail = 1
		}
		h := hours[hourKey{row, c.source, c.vendor, at.Truncate(time.Hour)}]
		if h == nil {
			h = &hourAgg{}
			hours[hourKey{row, c.source, c.vendor, at.Truncate(time.Hour)}] = h
		}
		h.calls++
		h.failures += fail
		if c.isError {
			h.errors++
		}
		h.sumMs += c.latencyMs
		h.maxMs = max(h.maxMs, c.latencyMs)
		mk := minuteKey{row, c.source, at.Truncate(time.Minute)}
		m := minutes[mk]
		if m == nil {
			m = &countAgg{}
			minutes[mk] = m
		}
		m.calls++
		m.failures += fail
		if c.consumer != "" {
			ck := consumeKey{row, c.source, c.vendor, at.Truncate(24 * time.Hour), c.consumer}
			a := consumers[ck]
			if a == nil {
				a = &consumeAgg{}
				consumers[ck] = a
			}
			a.calls++
			a.failures += fail
			if at.After(a.last) {
				a.last = at
			}
		}
		vendors[vendorKey{row, c.vendor}] = true
	}
	if err := upsertHours(ctx, tx, hours); err != nil {
		return err
	}
	if err := upsertMinutes(ctx, tx, minutes); err != nil {
		return err
	}
	if err := upsertConsumers(ctx, tx, consumers); err != nil {
		return err
	}
	if err := insertVendors(ctx, tx, vendors); err != nil {
		return err
	}
	if err := touchRows(ctx, tx, b, rowIDs, spans); err != nil {
		return err
	}
	return markDirtyHours(ctx, tx, hours)
}

// dirtyKey is one (source, hour) that received calls.
type dirtyKey struct {
	source string
	hour   time.Time
}

// markDirtyHours appends the (source, hour) pairs of the batch's calls to
// traffic_dirty_hours, where the aggregation job finds the hours to
// re-aggregate (back-dated calls included).
func markDirtyHours(ctx context.Context, tx *Tx, hours map[hourKey]*hourAgg) error {
	seen := map[dirtyKey]bool{}
	for k := range hours {
		seen[dirtyKey{k.source, k.hour}] = true
	}
	keys := slices.SortedFunc(maps.Keys(seen), func(a, b dirtyKey) int {
		return cmp.Or(a.hour.Compare(b.hour), strings.Compare(a.source, b.source))
	})
	return upsertChunks(ctx, tx, "traffic_dirty_hours", []string{"source", "hour"}, "", keys, func(k dirtyKey) []any {
		return []any{k.source, NewTime(k.hour)}
	})
}

// rollupChunk bounds the keys of one rollup statement.
const rollupChunk = 400

func upsertHours(ctx context.Context, tx *Tx, m map[hourKey]*hourAgg) error {
	keys := slices.SortedFunc(maps.Keys(m), func(a, b hourKey) int {
		return cmp.Or(cmp.Compare(a.row, b.row), strings.Compare(a.source, b.source), strings.Compare(a.vendor, b.vendor), a.hour.Compare(b.hour))
	})
	cols := []string{"row_id", "source", "vendor", "hour", "calls", "failures", "errors", "latency_sum_ms", "latency_max_ms"}
	tail := " ON CONFLICT (row_id, source, vendor, hour) DO UPDATE SET calls = discovery_hourly.calls + excluded.calls, " +
		"failures = discovery_hourly.failures + excluded.failures, errors = discovery_hourly.errors + excluded.errors, " +
		"latency_sum_ms = discovery_hourly.latency_sum_ms + excluded.latency_sum_ms, " +
		"latency_max_ms = " + greatest(tx.dialect) + "(discovery_hourly.latency_max_ms, excluded.latency_max_ms)"
	return upsertChunks(ctx, tx, "discovery_hourly", cols, tail, keys, func(k hourKey) []any {
		a := m[k]
		return []any{k.row, k.source, k.vendor, NewTime(k.hour), a.calls, a.failures, a.errors, a.sumMs, a.maxMs}
	})
}

func upsertMinutes(ctx context.Context, tx *Tx, m map[minuteKey]*countAgg) error {
	keys := slices.SortedFunc(maps.Keys(m), func(a, b minuteKey) int {
		return cmp.Or(cmp.Compare(a.row, b.row), strings.Compare(a.source, b.source), a.minute.Compare(b.minute))
	})
	cols := []string{"row_id", "source", "minute", "calls", "failures"}
	tail := " ON CONFLICT (row_id, source, minute) DO UPDATE SET calls = discovery_minutely.calls + excluded.calls, " +
		"failures = discovery_minutely.failures + excluded.failures"
	return upsertChunks(ctx, tx, "discovery_minutely", cols, tail, keys, func(k minuteKey) []any {
		a := m[k]
		return []any{k.row, k.source, NewTime(k.minute), a.calls, a.failures}
	})
}

func upsertConsumers(ctx context.Context, tx *Tx, m map[consumeKey]*consumeAgg) error {
	keys := slices.SortedFunc(maps.Keys(m), func(a, b consumeKey) int {
		return cmp.Or(cmp.Compare(a.row, b.row), strings.Compare(a.source, b.source), strings.Compare(a.vendor, b.vendor),
			a.day.Compare(b.day), strings.Compare(a.ip, b.ip))
	})
	cols := []string{"row_id", "source", "vendor", "day", "consumer_ip", "calls", "failures", "last_seen"}
	tail := " ON CONFLICT (row_id, source, vendor, day, consumer_ip) DO UPDATE SET calls = discovery_consumers.calls + excluded.calls, " +
		"failures = discovery_consumers.failures + excluded.failures, " +
		"last_seen = " + greatest(tx.dialect) + "(discovery_consumers.last_seen, excluded.last_seen)"
	return upsertChunks(ctx, tx, "discovery_consumers", cols, tail, keys, func(k consumeKey) []any {
		a := m[k]
		return []any{k.row, k.source, k.vendor, NewTime(k.day), k.ip, a.calls, a.failures, NewTime(a.last)}
	})
}

func insertVendors(ctx context.Context, tx *Tx, m map[vendorKey]bool) error {
	keys := slices.SortedFunc(maps.Keys(m), func(a, b vendorKey) int {
		return cmp.Or(cmp.Compare(a.row, b.row), strings.Compare(a.vendor, b.vendor))
	})
	return upsertChunks(ctx, tx, "discovery_row_vendors", []string{"row_id", "vendor"},
		" ON CONFLICT (row_id, vendor) DO NOTHING", keys, func(k vendorKey) []any { return []any{k.row, k.vendor} })
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
