package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"strconv"
	"sync"
	"time"
)

// Job leases on PostgreSQL. An instance holds the advisory locks of the
// jobs it leads on one dedicated session of the side pool; a lock stays
// held between runs, so the job keeps running on the same instance, and
// is given up after leaseIdle without a run (a job that stopped, or one
// run on demand) or when the session ends.
const (
	// leaseIdle is how long a lease is kept without a run of its job.
	defaultLeaseIdle = 5 * time.Minute
	// TCP keepalive of the lease session, set on the server side: when
	// the leader's host vanishes without closing its connection, the
	// server ends the session, and releases its locks, after about
	// idle + interval*count (25 s), inside the 30 s in which another
	// instance must take a job over. A killed process closes its socket
	// and releases them at once.
	tcpKeepaliveIdle     = 10
	tcpKeepaliveInterval = 5
	tcpKeepaliveCount    = 3
)

// leases is the lease session and the locks it holds.
type leases struct {
	mu   sync.Mutex
	conn *sql.Conn
	held map[int64]*lease
	idle time.Duration // 0: defaultLeaseIdle
}

type lease struct {
	name    string
	lastRun time.Time
}

// acquire takes (or confirms) the lock of job name on the lease session.
// The query doubles as a check that the session is alive: when it fails,
// the session is discarded with every lease it held, and the error is
// returned (ErrUnavailable when the database cannot be reached).
func (l *leases) acquire(ctx context.Context, s *Store, name string) (bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.conn == nil {
		conn, err := s.side.Conn(ctx)
		if err != nil {
			return false, mapError(err)
		}
		l.conn, l.held = conn, map[int64]*lease{}
		if _, err := conn.ExecContext(ctx, "SELECT set_config('tcp_keepalives_idle', $1, false), "+
			"set_config('tcp_keepalives_interval', $2, false), set_config('tcp_keepalives_count', $3, false)",
			strconv.Itoa(tcpKeepaliveIdle), strconv.Itoa(tcpKeepaliveInterval), strconv.Itoa(tcpKeepaliveCount)); err != nil {
			l.dropLocked()
			return false, mapError(err)
		}
	}
	key := lockKey(name)
	var got bool
	if err := l.conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock($1)", key).Scan(&got); err != nil {
		l.dropLocked()
		return false, mapError(err)
	}
	now := time.Now()
	if got {
		if _, ok := l.held[key]; ok {
			// Already ours: advisory locks stack, keep one hold.
			if _, err := l.conn.ExecContext(ctx, "SELECT pg_advisory_unlock($1)", key); err != nil {
				l.dropLocked()
				return false, mapError(err)
			}
		}
		l.held[key] = &lease{name: name, lastRun: now}
	}
	l.releaseIdleLocked(ctx, now)
	return got, nil
}

// releaseIdleLocked gives up the leases of jobs that did not run for the
// idle time.
func (l *leases) releaseIdleLocked(ctx context.Context, now time.Time) {
	idle := l.idle
	if idle <= 0 {
		idle = defaultLeaseIdle
	}
	for key, ls := range l.held {
		if now.Sub(ls.lastRun) < idle {
			continue
		}
		if _, err := l.conn.ExecContext(ctx, "SELECT pg_advisory_unlock($1)", key); err != nil {
			l.dropLocked()
			return
		}
		delete(l.held, key)
	}
}

// dropLocked discards the session: its locks are released by the server
// as the connection closes.
func (l *leases) dropLocked() {
	if l.conn == nil {
		return
	}
	l.conn.Raw(func(any) error { return driver.ErrBadConn })
	l.conn.Close()
	l.conn, l.held = nil, nil
}

// close releases every lease: explicitly first, so another instance can
// take the jobs as soon as this returns (the server ends a closed session
// a moment later), then by ending the session.
func (l *leases) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.conn != nil && len(l.held) > 0 {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		l.conn.ExecContext(ctx, "SELECT pg_advisory_unlock_all()")
		cancel()
	}
	l.dropLocked()
}

// leading returns the names of the jobs whose lease this instance holds.
func (l *leases) leading() map[string]bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make(map[string]bool, len(l.held))
	for _, ls := range l.held {
		out[ls.name] = true
	}
	return out
}
