package limit

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// concurrencyRetryAfter is the Retry-After of a call refused for want of a
// free slot: when one frees is unknown, so the shortest the header says.
const concurrencyRetryAfter = time.Second

// Limiter protects one backend profile on this instance: it counts the
// calls in flight, caps them and their rate as its settings say, and lets a
// call over a cap wait up to the queue timeout. It is safe for concurrent
// use; Configure changes its settings without losing the count of calls
// already in flight.
type Limiter struct {
	clock Clock
	cfg   atomic.Pointer[backendConfig]

	inFlight           atomic.Int64
	refusedConcurrency atomic.Uint64
	refusedRate        atomic.Uint64

	mu      sync.Mutex      // guards waiters
	waiters []chan struct{} // callers waiting for a slot, oldest first
	waiting atomic.Int64    // len(waiters), read without mu by release

	rateMu sync.Mutex // guards tat
	tat    int64      // GCRA arrival time of the rate cap, clock nanoseconds

	releaseFn func() // l.release, bound once so Acquire allocates nothing
}

// NewLimiter returns a Limiter applying s (which must be valid) by clock
// (nil: the system clock).
func NewLimiter(s BackendSettings, clock Clock) *Limiter {
	if clock == nil {
		clock = SystemClock{}
	}
	l := &Limiter{clock: clock}
	l.releaseFn = l.release
	l.cfg.Store(s.compile())
	return l
}

// Configure applies new settings (which must be valid). Calls in flight
// stay counted against the new caps; waiting calls try again at once.
func (l *Limiter) Configure(s BackendSettings) {
	c := s.compile()
	l.cfg.Store(c)
	if c.hasRate {
		l.rateMu.Lock()
		// A lowered tolerance must not leave the bucket owing more than
		// one burst of the new rate.
		l.tat = min(l.tat, l.clock.Now().UnixNano()+c.rate.tolerance+c.rate.interval)
		l.rateMu.Unlock()
	}
	l.wakeAll()
}

// Acquire admits one backend call. On success it returns release, which
// the caller must call exactly once when the call is over. A call over a
// cap waits up to the queue timeout for room; then Acquire returns a
// *Refusal (also as retryAfter), or ctx's error when ctx ends first.
func (l *Limiter) Acquire(ctx context.Context) (release func(), retryAfter time.Duration, err error) {
	c := l.cfg.Load()
	if c.maxInFlight == 0 && !c.hasRate {
		l.inFlight.Add(1)
		return l.releaseFn, 0, nil
	}
	var start time.Time
	if c.hasRate || c.queue > 0 {
		start = l.clock.Now()
	}
	if !l.tryEnter(c.maxInFlight) {
		if err := l.waitSlot(ctx, c.queue); err != nil {
			return nil, retryAfterOf(err), err
		}
	}
	if c.hasRate {
		if err := l.waitRate(ctx, c, start); err != nil {
			l.release()
			return nil, retryAfterOf(err), err
		}
	}
	return l.releaseFn, 0, nil
}

// tryEnter takes a slot when fewer than maxInFlight calls are in flight
// (any number when maxInFlight is 0).
func (l *Limiter) tryEnter(maxInFlight int64) bool {
	for {
		n := l.inFlight.Load()
		if maxInFlight > 0 && n >= maxInFlight {
			return false
		}
		if l.inFlight.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

// release ends one call and wakes the oldest waiting caller.
func (l *Limiter) release() {
	l.inFlight.Add(-1)
	if l.waiting.Load() > 0 {
		l.wakeOne()
	}
}

func retryAfterOf(err error) time.Duration {
	if r, ok := AsRefusal(err); ok {
		return r.RetryAfter
	}
	return 0
}

// Snapshot is what a Limiter has counted, for /metrics.
type Snapshot struct {
	InFlight           int64  // calls admitted and not yet released
	Waiting            int64  // calls waiting for a slot
	RefusedConcurrency uint64 // calls refused at maxConcurrentRequests, since start
	RefusedRate        uint64 // calls refused at maxRequestsPerSecond, since start
}

// Snapshot returns the current counts.
func (l *Limiter) Snapshot() Snapshot {
	return Snapshot{
		InFlight:           l.inFlight.Load(),
		Waiting:            l.waiting.Load(),
		RefusedConcurrency: l.refusedConcurrency.Load(),
		RefusedRate:        l.refusedRate.Load(),
	}
}
