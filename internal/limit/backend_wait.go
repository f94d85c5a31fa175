package limit

import (
	"context"
	"slices"
	"time"
)

// waitSlot waits up to queue for a slot: in a FIFO of waiters that release
// wakes one at a time. A woken caller may still lose the slot to a caller
// just arriving; it then queues again until its time is up.
func (l *Limiter) waitSlot(ctx context.Context, queue time.Duration) error {
	if queue <= 0 {
		return l.refuseConcurrency()
	}
	timeout := l.clock.After(queue)
	for {
		ch := l.enqueue()
		// A slot freed between the failed try and enqueue woke nobody:
		// try once more now that release will see this waiter.
		if l.tryEnter(l.cfg.Load().maxInFlight) {
			l.leave(ch)
			return nil
		}
		select {
		case <-ch:
			if l.tryEnter(l.cfg.Load().maxInFlight) {
				return nil
			}
		case <-timeout:
			l.leave(ch)
			return l.refuseConcurrency()
		case <-ctx.Done():
			l.leave(ch)
			return ctx.Err()
		}
	}
}

func (l *Limiter) refuseConcurrency() error {
	l.refusedConcurrency.Add(1)
	return &Refusal{Reason: ReasonConcurrency, RetryAfter: concurrencyRetryAfter}
}

// enqueue adds a waiter and returns its wake channel.
func (l *Limiter) enqueue() chan struct{} {
	ch := make(chan struct{}, 1)
	l.mu.Lock()
	l.waiters = append(l.waiters, ch)
	l.waiting.Add(1)
	l.mu.Unlock()
	return ch
}

// leave removes a waiter that stops waiting. When a release had already
// woken it, that wake passes to the next waiter so no free slot is lost.
func (l *Limiter) leave(ch chan struct{}) {
	l.mu.Lock()
	i := slices.Index(l.waiters, ch)
	if i >= 0 {
		l.waiters = slices.Delete(l.waiters, i, i+1)
		l.waiting.Add(-1)
	}
	l.mu.Unlock()
	if i < 0 {
		l.wakeOne()
	}
}

// wakeOne wakes the oldest waiter, if any.
func (l *Limiter) wakeOne() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.waiters) == 0 {
		return
	}
	ch := l.waiters[0]
	l.waiters[0] = nil
	l.waiters = l.waiters[1:]
	l.waiting.Add(-1)
	ch <- struct{}{}
}

// wakeAll wakes every waiter (after the caps changed).
func (l *Limiter) wakeAll() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, ch := range l.waiters {
		ch <- struct{}{}
	}
	l.waiting.Add(-int64(len(l.waiters)))
	l.waiters = nil
}

// waitRate takes the next request of the rate cap, waiting for it when it
// comes within what is left of the queue timeout since start.
func (l *Limiter) waitRate(ctx context.Context, c *backendConfig, start time.Time) error {
	now := l.clock.Now()
	budget := max(c.queue-now.Sub(start), 0)
	l.rateMu.Lock()
	wait := c.rate.wait(l.tat, now.UnixNano())
	if wait > budget {
		l.rateMu.Unlock()
		l.refusedRate.Add(1)
		return &Refusal{Reason: ReasonRate, RetryAfter: wait}
	}
	l.tat = c.rate.take(l.tat, now.UnixNano())
	l.rateMu.Unlock()
	if wait <= 0 {
		return nil
	}
	select {
	case <-l.clock.After(wait):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
