package store

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
	"time"
)

// MetricQuery selects traffic and how to group it for the observability
// figures (SPEC 4.10, 4.11).
type MetricQuery struct {
	// Sources to combine (union); empty means every source.
	Sources []string
	// Direction, Environments and ServiceKeys filter (empty: no filter).
	// With OnboardedOnly they apply to the onboarded service's values.
	Direction    string
	Environments []string
	ServiceKeys  []string
	// Since and Until bound the time, inclusive. Aggregated queries read
	// every hour that overlaps the range (whole hours).
	Since, Until time.Time
	// TenantID, when not "", keeps the edge traffic of that tenant only
	// (runtime records belong to every tenant).
	TenantID string
	// OnboardedOnly keeps traffic of catalog services only, joined by
	// canonical service id and reported with the service's own direction,
	// environment and key (SPEC 4.11 rule 5).
	OnboardedOnly bool
	// Aggregated reads the hourly aggregates instead of the raw records.
	Aggregated bool
	// Group says which dimensions the rows keep.
	Group Grouping
	// BucketSeconds, when not 0, splits the range into buckets of that
	// many seconds starting at BucketOrigin (zero: Since; aggregated:
	// Since's hour), and MetricRow.Bucket is each row's bucket index.
	// BucketCount, when not 0, folds later indexes into the last bucket
	// (the inclusive end).
	BucketSeconds int64
	BucketCount   int64
	BucketOrigin  time.Time
}

// Grouping is a set of dimensions to group metrics by.
type Grouping uint8

// Dimensions. ByService groups by direction, environment, service key
// (and canonical service id with OnboardedOnly); ByOperation adds the
// operation key.
const (
	BySource Grouping = 1 << iota
	ByService
	ByOperation
)

// MetricRow is the figures of one group (and bucket). On raw records the
// percentiles are exact nearest-rank values; on aggregates P50 is the mean
// and P95 and P99 the largest hourly maximum (SPEC 4.11 rule 2).
type MetricRow struct {
	Bucket       int64
	Source       string
	Direction    string
	Environment  string
	ServiceKey   string
	OperationKey string
	ServiceID    string
	Requests     int64
	Errors       int64
	LatencySumMs float64
	P50Ms        float64
	P95Ms        float64
	P99Ms        float64
	// ConverterP95Ms is nil when no record of the group has a converter
	// figure.
	ConverterP95Ms *float64
}

// dimension is one grouping column: its name in the union of sources (or
// in traffic_hourly) and, with OnboardedOnly, in the services join.
type dimension struct {
	group     Grouping
	col       string
	onboarded string
	dest      func(*MetricRow) *string
}

var dimensions = []dimension{
	{BySource, "source", "u.source", func(r *MetricRow) *string { return &r.Source }},
	{ByService, "direction", "sv.direction", func(r *MetricRow) *string { return &r.Direction }},
	{ByService, "environment", "sv.environment", func(r *MetricRow) *string { return &r.Environment }},
	{ByService, "service_key", "sv.service_key", func(r *MetricRow) *string { return &r.ServiceKey }},
	{ByOperation, "operation_key", "u.operation_key", func(r *MetricRow) *string { return &r.OperationKey }},
	{ByService, "service_id", "sv.service_id", func(r *MetricRow) *string { return &r.ServiceID }},
}

// keys returns the grouping columns of q (selected from the union aliased
// u, or from the services join sv) and their scan destinations.
func (q MetricQuery) keys() (cols []string, dest []func(*MetricRow) *string) {
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
func (s *Store) Metrics(ctx context.Context, q MetricQuery) ([]MetricRow, error) {
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
	cols, dest := q.keys()
	return queryRows(ctx, s, "metrics", query, a.list, func(rows *sql.Rows) (MetricRow, bool, error) {
		var (
			r                      MetricRow
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

// filters returns the conditions of q's list filters on the columns of a
// source (env, key, dir) or of the services join.
func (q MetricQuery) filters(a *sqlArgs, dir, env, key string) []string {
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
func (s *Store) bucketSelect(q MetricQuery, a *sqlArgs, col string, origin time.Time) string {
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
func (s *Store) rawMetricsSQL(q MetricQuery, a *sqlArgs) (string, error) {
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
			conds = append(conds, q.filters(a, src.direction, src.environment, src.serviceKey)...)
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
	cols, _ := q.keys()
	from := "(" + strings.Join(parts, " UNION ALL ") + ") u"
	if q.OnboardedOnly {
		from += " JOIN services sv ON sv.service_id = u.service_id"
		if conds := q.filters(a, "sv.direction", "sv.environment", "sv.service_key"); len(conds) > 0 {
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
