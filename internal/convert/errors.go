package convert

import (
	"errors"
	"strconv"
	"strings"
)

// Error is a conversion failure. Exactly one of Pointer and Path is set:
// Pointer is the JSON pointer of the offending JSON value (JSON→XML), Path
// is the XML path of the offending node (XML→JSON), such as
// /Envelope/Body/GetX/item[3]/name.
type Error struct {
	Pointer string
	Path    string
	Reason  string
	Err     error // underlying error, if any
}

// Error renders "convert: <location>: <reason>".
func (e *Error) Error() string {
	loc := e.Pointer
	if e.Path != "" {
		loc = e.Path
	}
	if loc == "" {
		loc = "/"
	}
	return "convert: " + loc + ": " + e.Reason
}

// Details returns the error's fields for an API error's details object
// (S2R-VAL-0410/0430): "pointer" or "path", and "reason".
func (e *Error) Details() map[string]any {
	d := map[string]any{"reason": e.Reason}
	if e.Path != "" {
		d["path"] = e.Path
	} else {
		d["pointer"] = e.Pointer
		if e.Pointer == "" {
			d["pointer"] = "/"
		}
	}
	return d
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// AsError returns the *Error in err's chain, if any.
func AsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// pathSeg is one step of a JSON pointer or an XML path.
type pathSeg struct {
	name  string
	index int // JSON: array index when name == ""; XML: 1-based position, 0 when not repeated
}

// pointerOf renders segs as a JSON pointer (RFC 6901).
func pointerOf(segs []pathSeg) string {
	var b strings.Builder
	for _, s := range segs {
		b.WriteByte('/')
		if s.name == "" {
			b.WriteString(strconv.Itoa(s.index))
			continue
		}
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(s.name))
	}
	return b.String()
}

// xmlPathOf renders segs as an XML path below base.
func xmlPathOf(base string, segs []pathSeg) string {
	var b strings.Builder
	b.WriteString(base)
	for _, s := range segs {
		b.WriteByte('/')
		b.WriteString(s.name)
		if s.index > 0 {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(s.index))
			b.WriteByte(']')
		}
	}
	return b.String()
}
