package upstream

import (
	"context"
	"sync/atomic"

	"github.com/s2r-project/s2r/internal/limit"
)

// slot is the place one call attempt holds in its backend's Limiter. It
// is released once: by Selector.Do when the attempt returns, or by the
// caller that kept it (KeepSlot) when its answer has been relayed. It is
// also the attempt's context (its parent's, plus itself as a value), so
// admitting a call costs one allocation.
type slot struct {
	context.Context
	release func()
	kept    bool
	done    atomic.Bool
}

type slotKey struct{}

// Value implements context.Context.
func (s *slot) Value(key any) any {
	if key == (slotKey{}) {
		return s
	}
	return s.Context.Value(key)
}

// end releases the slot unless it was already released; nil does nothing.
func (s *slot) end() {
	if s != nil && s.done.CompareAndSwap(false, true) {
		s.release()
	}
}

// settle ends the slot after its attempt unless the caller kept it.
func (s *slot) settle() {
	if s != nil && !s.kept {
		s.end()
	}
}

// KeepSlot makes the caller of an attempt (the call function given to
// Selector.Do, with its ctx) responsible for the attempt's place in the
// backend's Limiter, which otherwise ends when the call function returns:
// a streamed answer (the gateway) keeps counting as in flight until its
// body is closed. The returned function releases the place; calling it
// more than once is harmless. Without a limiter it does nothing.
func KeepSlot(ctx context.Context) (release func()) {
	s, _ := ctx.Value(slotKey{}).(*slot)
	if s == nil {
		return func() {}
	}
	s.kept = true
	return s.end
}

// admit takes a place for one call to b in its Limiter, waiting up to the
// profile's queue timeout; nil when b has no Limiter. A call over a cap is
// refused with a *limit.Refusal; a ctx that ends while waiting gives a
// canceled *Error.
func admit(ctx context.Context, b *Backend) (*slot, error) {
	if b.Limiter == nil {
		return nil, nil
	}
	release, _, err := b.Limiter.Acquire(ctx)
	if err != nil {
		if _, ok := limit.AsRefusal(err); ok {
			return nil, err
		}
		return nil, &Error{Kind: KindCanceled, Err: err}
	}
	return &slot{Context: ctx, release: release}, nil
}

// shorterRefusal returns whichever of a and b (either may be nil) may be
// retried sooner.
func shorterRefusal(a, b *limit.Refusal) *limit.Refusal {
	if a == nil || (b != nil && b.RetryAfter < a.RetryAfter) {
		return b
	}
	return a
}
