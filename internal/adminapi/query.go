package adminapi

import (
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/s2r-project/s2r/internal/model"
)

// Windows are the common observability Windows of SPEC 4.10.
var Windows = map[string]time.Duration{
	"15m": 15 * time.Minute,
	"1h":  time.Hour,
	"24h": 24 * time.Hour,
	"7d":  7 * 24 * time.Hour,
	"30d": 30 * 24 * time.Hour,
	"60d": 60 * 24 * time.Hour,
}

// WindowNames lists the Windows in documentation order.
var WindowNames = []string{"15m", "1h", "24h", "7d", "30d", "60d"}

// ParsePage reads page (default 1, at least 1) and pageSize (default 50,
// 1..200). Anything else is 400 S2R-VAL-0400 naming the parameter.
func ParsePage(q url.Values) (model.PageRequest, error) {
	p := model.PageRequest{Page: 1, PageSize: model.DefaultPageSize}
	if v := q.Get("page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return p, FieldError("page", "must be an integer of at least 1")
		}
		p.Page = n
	}
	if v := q.Get("pageSize"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > model.MaxPageSize {
			return p, FieldError("pageSize", "must be an integer between 1 and "+strconv.Itoa(model.MaxPageSize))
		}
		p.PageSize = n
	}
	return p, nil
}

// TimeRange is an inclusive time filter; zero bounds are open.
type TimeRange struct{ Since, Until time.Time }

// ParseTimeRange reads the time window of SPEC 4.10: start/end (or their
// aliases since/until), ISO 8601, override window (15m … 60d, ending now).
// With none of them the range is open (no time filter).
func ParseTimeRange(q url.Values, now time.Time) (TimeRange, error) {
	var tr TimeRange
	for _, p := range []struct {
		names []string
		dst   *time.Time
	}{{[]string{"start", "since"}, &tr.Since}, {[]string{"end", "until"}, &tr.Until}} {
		for _, name := range p.names {
			v := q.Get(name)
			if v == "" {
				continue
			}
			t, err := ParseISOTime(v)
			if err != nil {
				return tr, FieldError(name, "must be an ISO 8601 time such as 2026-01-02T15:04:05Z")
			}
			*p.dst = t
			break
		}
	}
	if !tr.Since.IsZero() && !tr.Until.IsZero() && tr.Since.After(tr.Until) {
		return tr, FieldError("start", "must not be after end")
	}
	if w := q.Get("window"); w != "" {
		d, ok := Windows[w]
		if !ok {
			return tr, FieldError("window", "must be one of "+strings.Join(WindowNames, ", "))
		}
		if tr.Since.IsZero() && tr.Until.IsZero() {
			tr.Since, tr.Until = now.Add(-d), now
		}
	}
	return tr, nil
}

// ParseISOTime accepts RFC 3339 date-times (with or without fractional
// seconds) and plain dates (midnight UTC).
// A space where an offset's "+" was (an unencoded "+" in a query string)
// is read as "+".
func ParseISOTime(v string) (time.Time, error) {
	v = strings.ReplaceAll(v, " ", "+")
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		return t.UTC(), nil
	}
	t, err := time.Parse(time.DateOnly, v)
	return t.UTC(), err
}
