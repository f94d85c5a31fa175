package store

import (
	"context"
	"fmt"
	"hash/fnv"
	"sync"
)

// jobLocks serializes jobs within this process (SQLite, and the fast path
// on PostgreSQL).
type jobLocks struct {
	mu    sync.Mutex
	names map[string]bool
}

func (l *jobLocks) tryLock(name string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.names[name] {
		return false
	}
	if l.names == nil {
		l.names = map[string]bool{}
	}
	l.names[name] = true
	return true
}

func (l *jobLocks) unlock(name string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.names, name)
}

// TryExclusive runs fn unless the job called name is already running, in
// this process or (on PostgreSQL) in any instance sharing the database; it
// reports whether fn ran. Background jobs (health checks, aggregation,
// expiry, alerts) run on every instance and use it so one does each run.
//
// On PostgreSQL it holds a session advisory lock, keyed by a hash of name,
// on a dedicated connection for the duration of fn. On SQLite the database
// belongs to one process, so an in-process lock suffices.
func (s *Store) TryExclusive(ctx context.Context, name string, fn func(ctx context.Context) error) (bool, error) {
	if !s.jobs.tryLock(name) {
		return false, nil
	}
	defer s.jobs.unlock(name)
	if s.dialect != Postgres {
		return true, fn(ctx)
	}
	conn, err := s.write.Conn(ctx)
	if err != nil {
		return false, fmt.Errorf("store: exclusive %s: %w", name, err)
	}
	defer conn.Close()
	key := lockKey(name)
	var got bool
	if err := conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock($1)", key).Scan(&got); err != nil {
		return false, fmt.Errorf("store: exclusive %s: %w", name, mapError(err))
	}
	if !got {
		return false, nil
	}
	defer func() {
		// Unlock even when ctx has ended; if that fails the connection
		// closes with the pool and the session lock goes with it.
		conn.ExecContext(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", key)
	}()
	return true, fn(ctx)
}

// lockKey maps a job name to an advisory lock key, away from
// migrationLockKey.
func lockKey(name string) int64 {
	h := fnv.New64a()
	h.Write([]byte("s2r-job:" + name))
	return int64(h.Sum64())
}
