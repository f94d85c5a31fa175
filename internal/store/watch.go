package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/stdlib"
)

// revisionChannel is the PostgreSQL NOTIFY channel of revision bumps.
const revisionChannel = "s2r_config_revision"

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
// nudge) or, on PostgreSQL, by another instance (LISTEN/NOTIFY); a poll
// every interval is the fallback for everything else (e.g. another process
// on the same SQLite file). fn runs on the watcher's goroutine; a slow fn
// delays the next check, never loses it.
func (s *Store) WatchRevision(ctx context.Context, interval time.Duration, fn func(rev int64)) error {
	if interval <= 0 {
		interval = 5 * time.Second
	}
	var remote *broadcast
	if s.dialect == Postgres {
		var leave func()
		remote, leave = s.listen.join(s)
		defer leave()
	}
	tick := time.NewTicker(interval)
	defer tick.Stop()
	last := int64(-1)
	for {
		// Take the nudge channels before reading, so a bump committed
		// after the read still wakes the loop.
		nudge := s.changes.wait()
		var notes <-chan struct{} // nil (never ready) on SQLite
		if remote != nil {
			notes = remote.wait()
		}
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
		}
	}
}

// sharedListen is the one LISTEN connection of a PostgreSQL store, shared
// by every WatchRevision of the process: the first watcher starts it, the
// last one to leave stops it and waits until its connection is released.
// One connection per watcher would take a pool connection each for good
// (half of a small pool with the half dozen watchers of s2r serve).
type sharedListen struct {
	mu    sync.Mutex
	users int
	stop  func()
	notes *broadcast // notified on every NOTIFY (and after a reconnect)
}

// join registers a watcher and returns the notification broadcast and
// the function that unregisters it.
func (l *sharedListen) join(s *Store) (*broadcast, func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.notes == nil {
		l.notes = newBroadcast()
	}
	l.users++
	if l.users == 1 {
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		out := s.listenRevisions(ctx, &wg)
		notes := l.notes
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-ctx.Done():
					return
				case <-out:
					notes.notify()
				}
			}
		}()
		l.stop = func() { cancel(); wg.Wait() }
	}
	return l.notes, func() {
		l.mu.Lock()
		l.users--
		var stop func()
		if l.users == 0 {
			stop, l.stop = l.stop, nil
		}
		l.mu.Unlock()
		if stop != nil {
			stop() // the listener has released its connection on return
		}
	}
}

// listenRevisions keeps a LISTEN open on a dedicated connection,
// reconnecting after failures, and signals each notification on the
// returned channel (coalesced: one pending signal at most).
func (s *Store) listenRevisions(ctx context.Context, wg *sync.WaitGroup) <-chan struct{} {
	out := make(chan struct{}, 1)
	wg.Add(1)
	go func() {
		defer wg.Done()
		backoff := 100 * time.Millisecond
		for ctx.Err() == nil {
			start := time.Now()
			s.listenOnce(ctx, out)
			if time.Since(start) > time.Minute {
				backoff = 100 * time.Millisecond
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(backoff):
			}
			backoff = min(2*backoff, 10*time.Second)
			// A missed notification is caught by the next check anyway;
			// signal so the watcher re-reads after a reconnect.
			select {
			case out <- struct{}{}:
			default:
			}
		}
	}()
	return out
}

// listenOnce holds one pool connection in LISTEN until an error or ctx
// ends. The connection is always discarded afterwards (driver.ErrBadConn),
// never returned to the pool still listening.
func (s *Store) listenOnce(ctx context.Context, out chan<- struct{}) error {
	conn, err := s.write.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	err = conn.Raw(func(dc any) error {
		sc, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("store: LISTEN needs a pgx connection, got %T", dc)
		}
		pc := sc.Conn()
		if _, err := pc.Exec(ctx, "LISTEN "+revisionChannel); err != nil {
			return errors.Join(err, driver.ErrBadConn)
		}
		for {
			if _, err := pc.WaitForNotification(ctx); err != nil {
				return errors.Join(err, driver.ErrBadConn)
			}
			select {
			case out <- struct{}{}:
			default:
			}
		}
	})
	return err
}
