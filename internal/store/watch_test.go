package store_test

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

func bump(t *testing.T, s *store.Store) {
	t.Helper()
	ctx := context.Background()
	if err := s.Transact(ctx, func(tx *store.Tx) error {
		_, err := tx.BumpRevision(ctx)
		return err
	}); err != nil {
		t.Fatal(err)
	}
}

// watch starts WatchRevision with a poll interval far longer than the test,
// so only the nudge or NOTIFY can deliver changes.
func watch(t *testing.T, s *store.Store) <-chan int64 {
	t.Helper()
	revs := make(chan int64, 16)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.WatchRevision(ctx, time.Hour, func(rev int64) { revs <- rev }) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("WatchRevision: %v", err)
		}
	})
	return revs
}

func expectRev(t *testing.T, revs <-chan int64, want int64) {
	t.Helper()
	select {
	case got := <-revs:
		if got != want {
			t.Fatalf("revision = %d, want %d", got, want)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("revision %d not delivered within 10s", want)
	}
}

func TestWatchRevisionInProcess(t *testing.T) {
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		revs := watch(t, s)
		expectRev(t, revs, 0)
		bump(t, s)
		expectRev(t, revs, 1)
		bump(t, s)
		expectRev(t, revs, 2)
		// A rolled back bump wakes nobody.
		ctx := context.Background()
		s.Transact(ctx, func(tx *store.Tx) error {
			tx.BumpRevision(ctx)
			return context.Canceled
		})
		select {
		case rev := <-revs:
			t.Errorf("rolled back bump delivered revision %d", rev)
		case <-time.After(200 * time.Millisecond):
		}
	})
}

// TestWatchRevisionAcrossInstances bumps through a second Store on the same
// PostgreSQL database: the watcher learns it through LISTEN/NOTIFY.
func TestWatchRevisionAcrossInstances(t *testing.T) {
	cfg := storetest.PostgresConfig(t)
	watcher, other := storetest.Open(t, cfg), storetest.Open(t, cfg)
	revs := watch(t, watcher)
	expectRev(t, revs, 0)
	// LISTEN starts asynchronously: bump until a change arrives.
	for range 10 {
		bump(t, other)
		select {
		case rev := <-revs:
			if rev < 1 {
				t.Fatalf("revision = %d, want >= 1", rev)
			}
			return
		case <-time.After(time.Second):
		}
	}
	t.Fatal("no revision change delivered across instances within 10s")
}

// TestWatchersShareOneListen: every watcher of a PostgreSQL store learns
// another instance's bump through one shared LISTEN connection, which is
// released when the last watcher stops.
func TestWatchersShareOneListen(t *testing.T) {
	cfg := storetest.PostgresConfig(t)
	ctx := context.Background()
	watcher, other := storetest.Open(t, cfg), storetest.Open(t, cfg)
	db, err := sql.Open("pgx", cfg.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	listening := func() int {
		var n int
		err := db.QueryRowContext(ctx, "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() "+
			"AND query LIKE 'LISTEN %' AND pid <> pg_backend_pid()").Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	var cancels []context.CancelFunc
	var dones []chan struct{}
	var chans []chan int64
	for range 6 {
		revs := make(chan int64, 64)
		wctx, cancel := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() { defer close(done); watcher.WatchRevision(wctx, time.Hour, func(rev int64) { revs <- rev }) }()
		cancels, dones, chans = append(cancels, cancel), append(dones, done), append(chans, revs)
	}
	for _, revs := range chans {
		expectRev(t, revs, 0)
	}
	deadline := time.Now().Add(10 * time.Second)
	for listening() != 1 {
		if time.Now().After(deadline) {
			t.Fatalf("%d LISTEN connections for 6 watchers, want 1", listening())
		}
		time.Sleep(50 * time.Millisecond)
	}
	bump(t, other)
	for _, revs := range chans {
		expectRev(t, revs, 1)
	}
	for i := range cancels {
		cancels[i]()
		<-dones[i]
	}
	deadline = time.Now().Add(10 * time.Second)
	for listening() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d LISTEN connections after the watchers stopped", listening())
		}
		time.Sleep(50 * time.Millisecond)
	}
}
