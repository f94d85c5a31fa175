// Package correlation carries the per-request correlation id through a
// context and decides whether a caller-supplied id is usable.
//
// It is a leaf package so that both the error renderer (apierr) and the
// HTTP middleware (httpx) can read the id without importing each other.
package correlation

import (
	"context"

	"github.com/google/uuid"
)

// MaxLen is the longest caller-supplied correlation id that is kept.
const MaxLen = 128

// Header is the request and response header carrying the id.
const Header = "X-Correlation-Id"

// Origin says where a request's correlation id came from.
type Origin uint8

// Origins.
const (
	// Generated: the request had no X-Correlation-Id; the id is new.
	Generated Origin = iota
	// Supplied: the caller's X-Correlation-Id was usable and is kept.
	Supplied
	// Replaced: the caller sent an unusable X-Correlation-Id; the id is
	// new. Async publish refuses such requests (400 S2R-VAL-0400).
	Replaced
)

type ctxKey struct{}

type value struct {
	id     string
	origin Origin
}

// WithID returns a copy of ctx carrying id (origin Supplied).
func WithID(ctx context.Context, id string) context.Context {
	return WithIDOrigin(ctx, id, Supplied)
}

// WithIDOrigin returns a copy of ctx carrying id and where it came from.
func WithIDOrigin(ctx context.Context, id string, origin Origin) context.Context {
	return context.WithValue(ctx, ctxKey{}, value{id: id, origin: origin})
}

// ID returns the correlation id stored in ctx, or "" when there is none.
func ID(ctx context.Context) string {
	v, _ := ctx.Value(ctxKey{}).(value)
	return v.id
}

// OriginOf returns where the id in ctx came from (Generated when none).
func OriginOf(ctx context.Context) Origin {
	v, _ := ctx.Value(ctxKey{}).(value)
	return v.origin
}

// Resolve returns the id to use for a request whose X-Correlation-Id
// header is supplied (present reports whether the header was sent).
func Resolve(supplied string, present bool) (string, Origin) {
	switch {
	case Usable(supplied):
		return supplied, Supplied
	case present:
		return New(), Replaced
	}
	return New(), Generated
}

// Usable reports whether a caller-supplied id may be kept: 1..MaxLen
// printable ASCII characters (0x21..0x7E; no spaces or control characters).
func Usable(id string) bool {
	if len(id) == 0 || len(id) > MaxLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; c < 0x21 || c > 0x7e {
			return false
		}
	}
	return true
}

// New returns a fresh time-ordered id (UUIDv7). If the random source fails
// it falls back to a random v4 id, which is never expected in practice.
func New() string {
	u, err := uuid.NewV7()
	if err != nil {
		return uuid.NewString()
	}
	return u.String()
}

// FromHeader returns the supplied id when usable, otherwise a new one.
func FromHeader(supplied string) string {
	if Usable(supplied) {
		return supplied
	}
	return New()
}
