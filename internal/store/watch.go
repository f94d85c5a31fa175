package store

import (
	"context"
	"sync"
	"time"
)

// broadcast wakes every waiter at once: notify closes the current channel
// and installs a fresh one.
type broadcast struct {
	mu sync.Mutex
	ch chan struct{}
}

func newBroadcast() *broadcast { return &broadcast{ch: make(chan struct{})} }

func (b *broadcast) wait() <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.ch
}

func (b *broadcast) notify() {
	b.mu.Lock()
	defer b.mu.Unlock()
	close(b.ch)
	b.ch = make(chan struct{})
}

// WatchRevision calls fn with the configuration revision once at start and
// again whenever it changes, until ctx ends (then it returns nil). Changes
// are noticed at once when committed through this Store (in-process
// nudge) or, on PostgreSQL, by another instance (LISTEN/NOTIFY on the
// Store's one listening connection, re-read after each reconnect); a poll
// every interval is the fallback for everything else (e.g. another process
// on the same SQLite file, or a lost listening connection). fn runs on the
// watcher's goroutine; a slow fn delays the next check, never loses it.
func (s *Store) WatchRevision(ctx context.Context, interval time.Duration, fn func(rev int64)) error {
	if interval <= 0 {
		interval = 5 * time.Second
	}
	var notes <-chan string
	var missed <-chan struct{}
	if s.dialect == Postgres {
		sub, unsubscribe := s.subscribe(revisionChannel, 1)
		defer unsubscribe()
		notes, missed = sub.payloads, sub.missed
	}
	tick := time.NewTicker(interval)
	defer tick.Stop()
	last := int64(-1)
	for {
		// Take the nudge channel before reading, so a bump committed
		// after the read still wakes the loop.
		nudge := s.changes.wait()
		if rev, err := s.Revision(ctx); err == nil && rev != last {
			last = rev
			fn(rev)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		case <-nudge:
		case <-notes:
		case <-missed:
		}
	}
}
