package store

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
	"time"

	"github.com/s2r-project/s2r/internal/model"
)

// dimension is one grouping column: its name in the union of sources (or
// in traffic_hourly) and, with OnboardedOnly, in the services join.
type dimension struct {
	group     model.Grouping
	col       string
	onboarded string
	dest      func(*model.MetricRow) *string
}

var dimensions = []dimension{
	{model.BySource, "source", "u.source", func(r *model.MetricRow) *string { return &r.Source }},
	{model.ByService, "direction", "sv.direction", func(r *model.MetricRow) *string { return &r.Direction }},
	{model.ByService, "environment", "sv.environment", func(r *model.MetricRow) *string { return &r.Environment }},
	{model.ByService, "service_key", "sv.service_key", func(r *model.MetricRow) *string { return &r.ServiceKey }},
	{model.ByOperation, "operation_key", "u.operation_key", func(r *model.MetricRow) *string { return &r.OperationKey }},
	{model.ByService, "service_id", "sv.service_id", func(r *model.MetricRow) *string { return &r.ServiceID }},
}

// metricKeys returns the grouping columns of q (selected from the union aliased
// u, or from the services join sv) and their scan destinations.
func metricKeys(q model.MetricQuery) (cols []string, dest []func(*model.MetricRow) *string) {
	for _, d := range dimensions {
		if q.Group&d.group == 0 {
			continue
		}
		if d.col == "service_id" && !q.OnboardedOnly {
			continue // as logged, a service is its keys
		}
		c := "u." + d.col
		if q.OnboardedOnly {
			c = d.onboarded
		}
		cols = append(cols, c)
		dest = append(dest, d.dest)
	}
	return cols, dest
}

// Metrics answers q, rows ordered by bucket and group.
func (s *Store) Metrics(ctx context.Context, q model.MetricQuery) ([]model.MetricRow, error) {
	var (
		query string
		a     sqlArgs
		err   error
	)
	if q.Aggregated {
		query = s.aggregatedMetricsSQL(q, &a)
	} else if query, err = s.rawMetricsSQL(q, &a); err != nil {
		return nil, err
	}
	cols, dest := metricKeys(q)
	return queryRows(ctx, s, "metrics", query, a.list, func(rows *sql.Rows) (model.MetricRow, bool, error) {
		var (
			r                      model.MetricRow
			keys                   = make([]string, len(cols))
			latency, p50, p95, p99 sql.NullFloat64
			conv                   sql.NullFloat64
			errs                   sql.NullInt64
		)
		scan := []any{&r.Bucket}
		for i := range keys {
			scan = append(scan, &keys[i])
		}
		scan = append(scan, &r.Requests, &errs, &latency, &p50, &p95, &p99, &conv)
		if err := rows.Scan(scan...); err != nil {
			return r, false, err
		}
		for i, d := range dest {
			*d(&r) = keys[i]
		}
		r.Errors, r.LatencySumMs = errs.Int64, latency.Float64
		r.P50Ms, r.P95Ms, r.P99Ms = p50.Float64, p95.Float64, p99.Float64
		r.ConverterP95Ms = nullFloat(conv)
		// An ungrouped query over nothing still answers one row.
		return r, r.Requests > 0, nil
	})
}

// metricFilters returns the conditions of q's list filters on the columns of a
// source (env, key, dir) or of the services join.
func metricFilters(q model.MetricQuery, a *sqlArgs, dir, env, key string) []string {
	var conds []string
	if q.Direction != "" {
		conds = append(conds, dir+" = "+a.add(q.Direction))
	}
	if len(q.Environments) > 0 {
		conds = append(conds, a.in(env, q.Environments))
	}
	if len(q.ServiceKeys) > 0 {
		conds = append(conds, a.in(key, q.ServiceKeys))
	}
	return conds
}

// bucketSelect is the bucket index column over the time expression col
// (0 when q has no buckets).
func (s *Store) bucketSelect(q model.MetricQuery, a *sqlArgs, col string, origin time.Time) string {
	if q.BucketSeconds <= 0 {
		return "0"
	}
	b := "((" + epochExpr(s.dialect, col) + " - " + a.add(origin.Unix()) + ") / " + a.add(q.BucketSeconds) + ")"
	if q.BucketCount > 0 {
		last := a.add(q.BucketCount - 1)
		b = "(CASE WHEN " + b + " > " + last + " THEN " + last + " ELSE " + b + " END)"
	}
	return b
}

// rawMetricsSQL builds the raw-record query: the union of the selected
// sources' rows in the range, ranked per group by latency and by
// converter overhead, and the nearest-rank percentiles picked with exact
// integer ranks ceil(n*p/100).
func (s *Store) rawMetricsSQL(q model.MetricQuery, a *sqlArgs) (string, error) {
	srcs, err := selectedSources(q.Sources)
	if err != nil {
		return "", err
	}
	since, until := a.add(NewTime(q.Since)), a.add(NewTime(q.Until))
	parts := make([]string, len(srcs))
	for i, src := range srcs {
		conds := []string{src.occurredAt + " >= " + since, src.occurredAt + " <= " + until}
		if src.where != "" {
			conds = append(conds, src.where)
		}
		if src.tenant != "" && q.TenantID != "" {
			conds = append(conds, src.tenant+" = "+a.add(q.TenantID))
		}
		if !q.OnboardedOnly {
			conds = append(conds, metricFilters(q, a, src.direction, src.environment, src.serviceKey)...)
		} else if q.Direction != "" {
			conds = append(conds, src.direction+" = "+a.add(q.Direction))
		}
		origin := q.BucketOrigin
		if origin.IsZero() {
			origin = q.Since
		}
		parts[i] = "SELECT '" + src.name + "' AS source, " + s.bucketSelect(q, a, src.occurredAt, origin) + " AS bucket, " +
			src.direction + " AS direction, " + src.environment + " AS environment, " + src.serviceKey + " AS service_key, " +
			src.operationKey + " AS operation_key, " + src.serviceID + " AS service_id, " + src.latency + " AS latency, " +
			src.converter + " AS converter, " + src.isError + " AS err FROM " + src.table + " WHERE " + strings.Join(conds, " AND ")
	}
	cols, _ := metricKeys(q)
	from := "(" + strings.Join(parts, " UNION ALL ") + ") u"
	if q.OnboardedOnly {
		from += " JOIN services sv ON sv.service_id = u.service_id"
		if conds := metricFilters(q, a, "sv.direction", "sv.environment", "sv.service_key"); len(conds) > 0 {
			from += " WHERE " + strings.Join(conds, " AND ")
		}
	}
	keys := append([]string{"u.bucket"}, cols...)
	inner := make([]string, len(keys))
	outer := make([]string, len(keys))
	for i, k := range keys {
		inner[i] = k + " AS k" + strconv.Itoa(i)
		outer[i] = "k" + strconv.Itoa(i)
	}
	partition := "PARTITION BY " + strings.Join(outer, ", ")
	rank := func(col, p string) string {
		return "MAX(CASE WHEN lr = (n * " + p + " + 99) / 100 THEN " + col + " END)"
	}
	return "SELECT " + strings.Join(outer, ", ") + ", COUNT(*), SUM(err), SUM(latency), " +
		rank("latency", "50") + ", " + rank("latency", "95") + ", " + rank("latency", "99") +
		", MAX(CASE WHEN cn > 0 AND cr = (cn * 95 + 99) / 100 THEN converter END)" +
		" FROM (SELECT r.*, ROW_NUMBER() OVER (" + partition + " ORDER BY latency) AS lr," +
		" ROW_NUMBER() OVER (" + partition + " ORDER BY CASE WHEN converter IS NULL THEN 1 ELSE 0 END, converter) AS cr," +
		" COUNT(*) OVER (" + partition + ") AS n, COUNT(converter) OVER (" + partition + ") AS cn" +
		" FROM (SELECT " + strings.Join(inner, ", ") + ", u.latency, u.converter, u.err FROM " + from + ") r) ranked" +
		" GROUP BY " + strings.Join(outer, ", ") + " ORDER BY " + strings.Join(outer, ", "), nil
}
