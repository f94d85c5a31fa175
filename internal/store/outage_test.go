package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// TestPostgresRestart stops a Store's PostgreSQL server (cleanly, then as
// a crash) under two Stores and starts it again: while it is down every
// call fails with ErrUnavailable; within 5 s of its return transactions
// work again on the same Store, a revision bumped by the other instance
// reaches the first one's watcher through a new LISTEN connection (the
// watcher's poll is an hour), and job leases are taken again.
func TestPostgresRestart(t *testing.T) {
	c := storetest.StartCluster(t)
	cfg := store.Config{URL: c.DatabaseURL("s2r")}
	a, b := storetest.Open(t, cfg), storetest.Open(t, cfg)
	ctx := context.Background()
	revs := watch(t, a)
	expectRev(t, revs, 0)
	if ran, err := a.TryExclusive(ctx, "job", noop); !ran || err != nil {
		t.Fatalf("lease before: %v, %v", ran, err)
	}
	for _, mode := range []string{"fast", "immediate"} {
		t.Run(mode, func(t *testing.T) {
			c.Stop(mode)
			if err := a.Transact(ctx, bumpTx); !errors.Is(err, store.ErrUnavailable) {
				t.Errorf("transaction while down: %v, want ErrUnavailable", err)
			}
			if _, err := a.Revision(ctx); !errors.Is(err, store.ErrUnavailable) {
				t.Errorf("read while down: %v, want ErrUnavailable", err)
			}
			if _, err := a.TryExclusive(ctx, "job", noop); !errors.Is(err, store.ErrUnavailable) {
				t.Errorf("lease while down: %v, want ErrUnavailable", err)
			}
			c.Start()
			back := time.Now()
			for a.Transact(ctx, bumpTx) != nil {
				if time.Since(back) > 5*time.Second {
					t.Fatal("no transaction within 5s of the restart")
				}
				time.Sleep(50 * time.Millisecond)
			}
			t.Logf("transactions again after %v", time.Since(back))
			var rev int64
			if err := b.Transact(ctx, func(tx *store.Tx) (err error) {
				rev, err = tx.BumpRevision(ctx)
				return err
			}); err != nil {
				t.Fatalf("bump on the other instance: %v", err)
			}
			deadline := time.After(5*time.Second - time.Since(back))
			for got := int64(-1); got < rev; {
				select {
				case got = <-revs:
				case <-deadline:
					t.Fatalf("revision %d not delivered within 5s of the restart", rev)
				}
			}
			t.Logf("revision %d delivered %v after the restart", rev, time.Since(back))
			if ran, err := a.TryExclusive(ctx, "job", noop); !ran || err != nil {
				t.Errorf("lease after the restart: %v, %v", ran, err)
			}
		})
	}
}

func bumpTx(tx *store.Tx) error {
	_, err := tx.BumpRevision(context.Background())
	return err
}
