package store

import (
	"strconv"
	"strings"
	"time"

	"github.com/s2r-project/s2r/internal/model"
)

const day = 24 * time.Hour

// aggregatedMetricsSQL builds the query over the aggregates: sums of
// counts and latency and maxima of maxima over every hour that overlaps
// the range, read from traffic_daily for the whole days inside it and
// from traffic_hourly for the hours before and after them (both hold the
// same figures, so the answer is the one the hours alone would give).
// With buckets narrower than a day, or not starting at midnight, only
// traffic_hourly is read.
func (s *Store) aggregatedMetricsSQL(q model.MetricQuery, a *sqlArgs) string {
	from := q.Since.UTC().Truncate(time.Hour)
	origin := q.BucketOrigin
	if origin.IsZero() {
		origin = from
	}
	hourly := []string{"hour >= " + a.add(NewTime(from)), "hour <= " + a.add(NewTime(q.Until))}
	var parts []string
	first, last, whole := wholeDays(from, q.Until)
	daily := whole && (q.BucketSeconds == 0 || (q.BucketSeconds%int64(day/time.Second) == 0 && origin.Equal(origin.Truncate(day))))
	if daily {
		hourly = append(hourly, "(hour < "+a.add(NewTime(first))+" OR hour >= "+a.add(NewTime(last.Add(day)))+")")
		parts = append(parts, s.aggregatePart(q, a, "traffic_daily", "day", origin,
			[]string{"day >= " + a.add(NewTime(first)), "day <= " + a.add(NewTime(last))}))
	}
	parts = append(parts, s.aggregatePart(q, a, "traffic_hourly", "hour", origin, hourly))
	cols, _ := metricKeys(q)
	keys := append([]string{"u.bucket"}, cols...)
	table := "(" + strings.Join(parts, " UNION ALL ") + ") u"
	var conds []string
	if q.OnboardedOnly {
		table += " JOIN services sv ON sv.service_id = u.service_id"
		conds = metricFilters(q, a, "sv.direction", "sv.environment", "sv.service_key")
	}
	group := make([]string, len(keys))
	for i := range keys {
		group[i] = strconv.Itoa(i + 1)
	}
	query := "SELECT " + strings.Join(keys, ", ") + ", SUM(u.requests), SUM(u.errors), SUM(u.latency_sum_ms), " +
		"SUM(u.latency_sum_ms) / SUM(u.requests), MAX(u.latency_max_ms), MAX(u.latency_max_ms), MAX(u.converter_max_ms) FROM " + table
	if len(conds) > 0 {
		query += " WHERE " + strings.Join(conds, " AND ")
	}
	return query + " GROUP BY " + strings.Join(group, ", ") + " ORDER BY " + strings.Join(group, ", ")
}

// aggregatePart selects the rows of one aggregate table (time column
// col) matching q's filters and the time conditions.
func (s *Store) aggregatePart(q model.MetricQuery, a *sqlArgs, table, col string, origin time.Time, conds []string) string {
	if len(q.Sources) > 0 {
		conds = append(conds, a.in("source", q.Sources))
	}
	if q.TenantID != "" {
		conds = append(conds, "tenant_id IN ('', "+a.add(q.TenantID)+")")
	}
	if !q.OnboardedOnly {
		conds = append(conds, metricFilters(q, a, "direction", "environment", "service_key")...)
	} else if q.Direction != "" {
		conds = append(conds, "direction = "+a.add(q.Direction))
	}
	return "SELECT " + s.bucketSelect(q, a, col, origin) + " AS bucket, source, direction, environment, service_key, " +
		"operation_key, service_id, requests, errors, latency_sum_ms, latency_max_ms, converter_max_ms FROM " + table +
		" WHERE " + strings.Join(conds, " AND ")
}

// wholeDays returns the first and last UTC days whose every hour starts
// within [from, until]; ok is false when there is none.
func wholeDays(from, until time.Time) (first, last time.Time, ok bool) {
	first = from.Truncate(day)
	if first.Before(from) {
		first = first.Add(day)
	}
	last = until.Add(time.Hour).Truncate(day).Add(-day)
	return first, last, !last.Before(first)
}
