package query

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

// Parameter bounds.
const (
	maxListValues = 100 // items of a list filter
	maxTextParam  = 256 // bytes of a text filter
	// maxRange bounds an explicit start/end range (the aggregates keep at
	// least 60 days; a year covers any longer retention).
	maxRange = 366 * 24 * time.Hour
)

// rawWindowMax is the longest window answered from raw records (SPEC 4.11
// rule 1); longer ones read the hourly aggregates.
const rawWindowMax = time.Hour

// Directions accepted by the direction filters: SPEC 4.10's publish and
// consume, and s2r's gateway direction (DESIGN 6.1).
var directions = []string{"publish", "consume", "gateway"}

// timeRange is an inclusive, validated query range.
type timeRange struct{ since, until time.Time }

// raw reports whether the range is answered from raw records.
func (r timeRange) raw() bool { return r.until.Sub(r.since) <= rawWindowMax }

// parseWindow reads window (default def), start and end (SPEC 4.10):
// start/end override the window; with only one of them the window's
// length extends from it. Errors name the parameter.
func parseWindow(q url.Values, def string, now time.Time) (timeRange, error) {
	w := def
	if v := q.Get("window"); v != "" {
		w = v
	}
	d, ok := adminapi.Windows[w]
	if !ok {
		return timeRange{}, adminapi.FieldError("window", "must be one of "+strings.Join(adminapi.WindowNames, ", "))
	}
	start, err := parseTime(q, "start")
	if err != nil {
		return timeRange{}, err
	}
	end, err := parseTime(q, "end")
	if err != nil {
		return timeRange{}, err
	}
	r := timeRange{since: now.Add(-d), until: now}
	switch {
	case !start.IsZero() && !end.IsZero():
		r = timeRange{start, end}
	case !start.IsZero():
		r = timeRange{start, start.Add(d)}
	case !end.IsZero():
		r = timeRange{end.Add(-d), end}
	}
	if r.since.After(r.until) {
		return r, adminapi.FieldError("start", "must not be after end")
	}
	if r.until.Sub(r.since) > maxRange {
		return r, adminapi.FieldError("start", "the range from start to end must be at most 366 days")
	}
	return r, nil
}

// parseTime reads an ISO 8601 time parameter; zero when absent.
func parseTime(q url.Values, name string) (time.Time, error) {
	v := q.Get(name)
	if v == "" {
		return time.Time{}, nil
	}
	t, err := adminapi.ParseISOTime(v)
	if err != nil {
		return t, adminapi.FieldError(name, "must be an ISO 8601 time such as 2026-01-02T15:04:05Z")
	}
	return t, nil
}

// parseList reads a list filter given comma-separated, repeated, or both;
// duplicates and blanks are dropped.
func parseList(q url.Values, name string) ([]string, error) {
	var out []string
	for _, v := range q[name] {
		for _, item := range strings.Split(v, ",") {
			item = strings.TrimSpace(item)
			if item == "" || slices.Contains(out, item) {
				continue
			}
			if err := checkText(name, item); err != nil {
				return nil, err
			}
			out = append(out, item)
		}
	}
	if len(out) > maxListValues {
		return nil, adminapi.FieldError(name, "must have at most 100 values")
	}
	return out, nil
}

// parseText reads a text filter ("" when absent).
func parseText(q url.Values, name string) (string, error) {
	v := q.Get(name)
	return v, checkText(name, v)
}

// checkText refuses text no database can compare: invalid UTF-8, NUL, or
// longer than maxTextParam bytes.
func checkText(name, v string) error {
	if len(v) > maxTextParam || !utf8.ValidString(v) || strings.IndexByte(v, 0) >= 0 {
		return adminapi.FieldError(name, "must be at most 256 bytes of UTF-8 text without NUL")
	}
	return nil
}

// parseSource reads source: one of the aggregated traffic sources, or
// absent for all of them.
func parseSource(q url.Values) ([]string, error) {
	v := q.Get("source")
	if v == "" {
		return nil, nil
	}
	known := store.TrafficSources()
	if !slices.Contains(known, v) {
		return nil, adminapi.FieldError("source", "must be one of "+strings.Join(known, ", "))
	}
	return []string{v}, nil
}

// parseDirection reads direction: publish, consume, gateway or absent.
func parseDirection(q url.Values) (string, error) {
	v := q.Get("direction")
	if v != "" && !slices.Contains(directions, v) {
		return "", adminapi.FieldError("direction", "must be one of "+strings.Join(directions, ", "))
	}
	return v, nil
}

// parseBool reads a boolean parameter (true or false) with a default.
func parseBool(q url.Values, name string, def bool) (bool, error) {
	switch v := q.Get(name); v {
	case "":
		return def, nil
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return def, adminapi.FieldError(name, "must be true or false")
}

// parseFloat reads a number parameter within [lo, hi] with a default.
func parseFloat(q url.Values, name string, def, lo, hi float64) (float64, error) {
	v := q.Get(name)
	if v == "" {
		return def, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f < lo || f > hi || f != f {
		return def, adminapi.FieldError(name, "must be a number from "+fmtNum(lo)+" to "+fmtNum(hi))
	}
	return f, nil
}

// parseInt reads an integer parameter within [lo, hi] with a default.
func parseInt(q url.Values, name string, def, lo, hi int64) (int64, error) {
	v := q.Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < lo || n > hi {
		return def, adminapi.FieldError(name, "must be an integer from "+strconv.FormatInt(lo, 10)+" to "+strconv.FormatInt(hi, 10))
	}
	return n, nil
}

func fmtNum(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// filterParams reads the filters shared by metrics and the SLO report.
func filterParams(q url.Values) (model.MetricQuery, error) {
	var (
		mq  model.MetricQuery
		err error
	)
	if mq.Environments, err = parseList(q, "environments"); err != nil {
		return mq, err
	}
	if mq.ServiceKeys, err = parseList(q, "serviceKeys"); err != nil {
		return mq, err
	}
	if mq.Sources, err = parseSource(q); err != nil {
		return mq, err
	}
	if mq.Direction, err = parseDirection(q); err != nil {
		return mq, err
	}
	return mq, nil
}
