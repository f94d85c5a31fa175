package store

import (
	"context"
	"fmt"
	"hash/fnv"
	"sort"
	"sync"
	"time"
)

// TryExclusive runs fn unless the job called name is already running, in
// this process or (on PostgreSQL) on another instance sharing the
// database; it reports whether fn ran. Background jobs (health checks,
// aggregation, expiry, retention, alerts) run on every instance and call
// it once per run, so one instance does each run.
//
// On PostgreSQL the instance that wins a job's advisory lock keeps it
// between runs (a lease, see leases): it is the job's leader, and the
// other instances' calls return false at once until the leader stops
// calling for leaseIdle, shuts down, or dies. A dead instance's lock goes
// with its database session: at once when its process dies (the kernel
// closes its socket), within about tcpKeepalive* when its host vanishes.
// So one instance runs a job at a time, and another takes over at its next
// call after the leader is gone. On SQLite the database belongs to one
// process and an in-process lock suffices.
func (s *Store) TryExclusive(ctx context.Context, name string, fn func(ctx context.Context) error) (bool, error) {
	if !s.jobs.tryLock(name) {
		s.jobs.skipped(name)
		return false, nil
	}
	defer s.jobs.unlock(name)
	if s.dialect == Postgres {
		got, err := s.leases.acquire(ctx, s, name)
		if err != nil {
			return false, fmt.Errorf("store: exclusive %s: %w", name, err)
		}
		if !got {
			s.jobs.skipped(name)
			return false, nil
		}
	}
	start := time.Now()
	err := fn(ctx)
	s.jobs.ran(name, start, err)
	return true, err
}

// JobStat is what this process did with one job name (TryExclusive).
type JobStat struct {
	Name string
	// Runs counts the runs of the job here, Failures the runs that
	// returned an error, Skips the calls that did not run it because it
	// was running here or another instance leads it.
	Runs, Failures, Skips int64
	// Leading is true while this instance holds the job's lease (on
	// SQLite: once it ran here).
	Leading bool
	// LastRun is when the last run here started; LastDuration its length.
	LastRun      time.Time
	LastDuration time.Duration
}

// JobStats returns the statistics of every job this process called
// TryExclusive for, ordered by name.
func (s *Store) JobStats() []JobStat {
	leading := s.leases.leading()
	out := s.jobs.stats()
	for i := range out {
		if s.dialect == Postgres {
			out[i].Leading = leading[out[i].Name]
		} else {
			out[i].Leading = out[i].Runs > 0
		}
	}
	return out
}

// jobLocks serializes jobs within this process and counts their runs.
type jobLocks struct {
	mu      sync.Mutex
	running map[string]bool
	stat    map[string]*JobStat
}

func (l *jobLocks) entry(name string) *JobStat {
	if l.stat == nil {
		l.stat = map[string]*JobStat{}
	}
	st := l.stat[name]
	if st == nil {
		st = &JobStat{Name: name}
		l.stat[name] = st
	}
	return st
}

func (l *jobLocks) tryLock(name string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.running[name] {
		return false
	}
	if l.running == nil {
		l.running = map[string]bool{}
	}
	l.running[name] = true
	return true
}

func (l *jobLocks) unlock(name string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.running, name)
}

func (l *jobLocks) skipped(name string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.entry(name).Skips++
}

func (l *jobLocks) ran(name string, start time.Time, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	st := l.entry(name)
	st.Runs++
	if err != nil {
		st.Failures++
	}
	st.LastRun, st.LastDuration = start, time.Since(start)
}

func (l *jobLocks) stats() []JobStat {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]JobStat, 0, len(l.stat))
	for _, st := range l.stat {
		out = append(out, *st)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// lockKey maps a job name to an advisory lock key, away from
// migrationLockKey.
func lockKey(name string) int64 {
	h := fnv.New64a()
	h.Write([]byte("s2r-job:" + name))
	return int64(h.Sum64())
}
