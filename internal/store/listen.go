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

// PostgreSQL NOTIFY channels. One connection per Store LISTENs on all of
// them (listenChannels), whatever the number of watchers, so watchers do
// not each hold a connection of the main pool.
const (
	// revisionChannel carries configuration revision bumps (revision.go).
	revisionChannel = "s2r_config_revision"
	// backendHealthChannel carries backend health results (health_share.go).
	backendHealthChannel = "s2r_backend_health"
)

var listenChannels = []string{revisionChannel, backendHealthChannel}

// Reconnect backoff of the LISTEN connection: short, because missed
// notifications delay configuration changes until the next poll.
const (
	listenBackoffMin = 100 * time.Millisecond
	listenBackoffMax = 2 * time.Second
)

// subscription receives the payloads of one channel. Payloads are
// buffered; when the buffer is full, or the LISTEN connection was
// re-established, a signal on missed says notifications may have been
// lost, so the subscriber re-reads what it watches.
type subscription struct {
	payloads chan string
	missed   chan struct{}
}

func (s *subscription) signalMissed() {
	select {
	case s.missed <- struct{}{}:
	default:
	}
}

// notifications fans the notifications of the Store's LISTEN connection
// out to subscribers. On PostgreSQL the first subscriber starts the
// listening connection and the last one to leave stops it (and waits
// until it is released). On SQLite (one process) notify delivers in
// process.
type notifications struct {
	mu     sync.Mutex
	subs   map[string]map[*subscription]struct{}
	count  int
	cancel context.CancelFunc // of the running LISTEN loop, nil when none
	done   chan struct{}
}

// subscribe registers a subscriber of channel with a payload buffer of
// size buf; the returned function unregisters it.
func (s *Store) subscribe(channel string, buf int) (*subscription, func()) {
	n := &s.notes
	sub := &subscription{payloads: make(chan string, buf), missed: make(chan struct{}, 1)}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.subs == nil {
		n.subs = map[string]map[*subscription]struct{}{}
	}
	if n.subs[channel] == nil {
		n.subs[channel] = map[*subscription]struct{}{}
	}
	n.subs[channel][sub] = struct{}{}
	n.count++
	if s.dialect == Postgres && n.cancel == nil {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		n.cancel, n.done = cancel, done
		go func() {
			defer close(done)
			s.listenLoop(ctx)
		}()
	}
	return sub, func() {
		n.mu.Lock()
		delete(n.subs[channel], sub)
		n.count--
		var cancel context.CancelFunc
		var done chan struct{}
		if n.count == 0 {
			cancel, done = n.cancel, n.done
			n.cancel, n.done = nil, nil
		}
		n.mu.Unlock()
		if cancel != nil {
			cancel()
			<-done
		}
	}
}

// deliver hands payload to every subscriber of channel without blocking.
func (n *notifications) deliver(channel, payload string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for sub := range n.subs[channel] {
		select {
		case sub.payloads <- payload:
		default:
			sub.signalMissed()
		}
	}
}

// resync tells every subscriber that notifications may have been missed.
func (n *notifications) resync() {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, subs := range n.subs {
		for sub := range subs {
			sub.signalMissed()
		}
	}
}

// stopListening ends the LISTEN loop, if one runs, and waits until it
// released its connection (Close, with subscribers left).
func (n *notifications) stopListening() {
	n.mu.Lock()
	cancel, done := n.cancel, n.done
	n.cancel, n.done = nil, nil
	n.mu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
}

// listenLoop keeps a LISTEN connection open until ctx ends, reconnecting
// with backoff after failures (a restarted or unreachable server).
func (s *Store) listenLoop(ctx context.Context) {
	backoff := listenBackoffMin
	for ctx.Err() == nil {
		start := time.Now()
		s.listenOnce(ctx)
		if time.Since(start) > time.Minute {
			backoff = listenBackoffMin
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, listenBackoffMax)
	}
}

// listenOnce holds one connection of the side pool in LISTEN until an
// error or ctx ends, delivering what arrives. The connection is always
// discarded afterwards (driver.ErrBadConn), never reused still listening.
// Once LISTEN is in place every subscriber is told it may have missed
// notifications: whatever happened while no connection listened.
func (s *Store) listenOnce(ctx context.Context) error {
	conn, err := s.side.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		sc, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("store: LISTEN needs a pgx connection, got %T", dc)
		}
		pc := sc.Conn()
		for _, ch := range listenChannels {
			if _, err := pc.Exec(ctx, "LISTEN "+ch); err != nil {
				return errors.Join(err, driver.ErrBadConn)
			}
		}
		s.notes.resync()
		for {
			note, err := pc.WaitForNotification(ctx)
			if err != nil {
				return errors.Join(err, driver.ErrBadConn)
			}
			s.notes.deliver(note.Channel, note.Payload)
		}
	})
}

// notify sends payload on channel to every instance: NOTIFY on
// PostgreSQL (delivered to this instance's listener too), in process on
// SQLite.
func (s *Store) notify(ctx context.Context, channel, payload string) error {
	if s.dialect != Postgres {
		s.notes.deliver(channel, payload)
		return nil
	}
	if _, err := s.write.ExecContext(ctx, "SELECT pg_notify($1, $2)", channel, payload); err != nil {
		return fmt.Errorf("store: notify %s: %w", channel, mapError(err))
	}
	return nil
}
