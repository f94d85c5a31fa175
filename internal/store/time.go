package store

import (
	"database/sql/driver"
	"fmt"
	"time"
)

// timeLayout is the fixed-width UTC text form used on SQLite. Fixed width
// with a trailing Z makes text order equal time order, so comparisons and
// ORDER BY behave as on PostgreSQL's TIMESTAMPTZ. PostgreSQL parses the
// same text when it is bound to a TIMESTAMPTZ parameter.
const timeLayout = "2006-01-02T15:04:05.000000Z"

// Time is a time.Time as stored: UTC, truncated to microseconds (the
// precision of PostgreSQL). The zero Time is stored as NULL and NULL scans
// as the zero Time, so no separate nullable type is needed.
type Time struct{ time.Time }

// NewTime returns t as a storable Time.
func NewTime(t time.Time) Time { return Time{t.UTC().Truncate(time.Microsecond)} }

// Value implements driver.Valuer.
func (t Time) Value() (driver.Value, error) {
	if t.IsZero() {
		return nil, nil
	}
	return t.UTC().Truncate(time.Microsecond).Format(timeLayout), nil
}

// Scan implements sql.Scanner for TIMESTAMPTZ (time.Time) and SQLite TEXT.
func (t *Time) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		t.Time = time.Time{}
	case time.Time:
		t.Time = v.UTC()
	case string:
		return t.parse(v)
	case []byte:
		return t.parse(string(v))
	default:
		return fmt.Errorf("store: cannot scan %T into Time", src)
	}
	return nil
}

func (t *Time) parse(s string) error {
	p, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return fmt.Errorf("store: parse time %q: %w", s, err)
	}
	t.Time = p.UTC()
	return nil
}
