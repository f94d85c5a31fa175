package upstream_test

import (
	"context"
	"errors"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/tests/loopback"
	"github.com/s2r-project/s2r/internal/upstream"
)

// leader is an in-memory stand-in for store.TryExclusive's job lease: the
// first checker to ask leads until it is retired; down makes every call
// fail as with an unreachable database.
type leader struct {
	mu   sync.Mutex
	who  *upstream.Checker
	down bool
}

func (l *leader) exclusive(c *upstream.Checker) func(context.Context, func(context.Context) error) (bool, error) {
	return func(ctx context.Context, fn func(context.Context) error) (bool, error) {
		l.mu.Lock()
		if l.down {
			l.mu.Unlock()
			return false, errors.New("database unavailable")
		}
		if l.who == nil {
			l.who = c
		}
		lead := l.who == c
		l.mu.Unlock()
		if !lead {
			return false, nil
		}
		return true, fn(ctx)
	}
}

func (l *leader) set(c *upstream.Checker, down bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.who, l.down = c, down
}

// TestHealthChecksSharedByOneInstance runs two instances' checkers on one
// backend: only the leader connects to it, and the other instance's view
// follows the leader's results. When the leader is gone the other one
// takes over; when the lock cannot be had at all, each checks on its own.
func TestHealthChecksSharedByOneInstance(t *testing.T) {
	var probes atomic.Int64
	ln := loopback.Listen(t, func(c net.Conn) {
		probes.Add(1)
		c.Close()
	})
	addr := ln.Addr().String()
	b := &upstream.Backend{Profile: model.BackendProfile{ProfileID: "sh-a", EndpointURL: "http://" + addr + "/svc"}}
	targets := []upstream.HealthTarget{{ServiceID: "sh", ServiceKey: "sh", Mode: upstream.HealthTCP, Interval: 20 * time.Millisecond, Backend: b}}
	lock := &leader{}
	var checkers [2]*upstream.Checker
	var healths [2]*upstream.Health
	var shared [2]atomic.Int64
	for i := range checkers {
		healths[i] = upstream.NewHealth()
		checkers[i] = &upstream.Checker{Health: healths[i], Tick: 10 * time.Millisecond,
			Targets: func() []upstream.HealthTarget { return targets }}
	}
	for i, c := range checkers {
		c.Exclusive = lock.exclusive(c)
		c.Share = func(st upstream.BackendHealth) {
			shared[i].Add(1)
			healths[1-i].Apply(st) // what the other instance's watcher does
		}
	}
	lock.set(checkers[0], false)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, c := range checkers {
		go c.Run(ctx)
	}
	waitShared := func(i int, n int64) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for start := shared[i].Load(); shared[i].Load() < start+n; {
			if time.Now().After(deadline) {
				t.Fatalf("instance %d shared fewer than %d results in 5s", i, n)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	waitShared(0, 3)
	if n := shared[1].Load(); n != 0 {
		t.Fatalf("the follower checked %d times", n)
	}
	if st := healths[1].Service("sh"); len(st) != 1 || !st[0].Checked || !st[0].Healthy {
		t.Fatalf("follower's view %+v", st)
	}
	ln.Close()
	waitHealthy(t, healths[1], "sh-a", false) // learned from the leader
	if n := shared[1].Load(); n != 0 {
		t.Fatalf("the follower checked %d times", n)
	}

	// The leader goes away: the other instance takes over.
	lock.set(checkers[1], false)
	waitShared(1, 2)
	// The lock cannot be had: both check on their own.
	lock.set(nil, true)
	waitShared(0, 2)
	waitShared(1, 2)
	if probes.Load() == 0 {
		t.Error("no probe reached the backend")
	}
}
