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

type ctxKey struct{}

// WithID returns a copy of ctx carrying id.
func WithID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, ctxKey{}, id)
}

// ID returns the correlation id stored in ctx, or "" when there is none.
func ID(ctx context.Context) string {
	id, _ := ctx.Value(ctxKey{}).(string)
	return id
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
