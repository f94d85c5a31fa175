package store_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// TestConcurrentWriters runs many writers and readers at once; on SQLite no
// writer may fail with SQLITE_BUSY, and no bump may be lost on either.
func TestConcurrentWriters(t *testing.T) {
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		const writers, perWriter = 16, 15
		ctx := context.Background()
		var wg sync.WaitGroup
		errs := make(chan error, 2*writers*perWriter)
		for range writers {
			wg.Add(2)
			go func() {
				defer wg.Done()
				for range perWriter {
					errs <- s.Transact(ctx, func(tx *store.Tx) error {
						if _, err := tx.BumpRevision(ctx); err != nil {
							return err
						}
						return insertOne(ctx)(tx)
					})
				}
			}()
			go func() {
				defer wg.Done()
				for range perWriter {
					_, err := s.Revision(ctx)
					errs <- err
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Errorf("concurrent op failed: %v", err)
			}
		}
		rev, err := s.Revision(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if rev != writers*perWriter {
			t.Errorf("revision = %d, want %d", rev, writers*perWriter)
		}
	})
}

// TestSQLiteTwoProcesses opens two Stores on one SQLite file (as `s2r
// migrate` next to a running server would) and writes from both at once:
// IMMEDIATE transactions plus busy_timeout must make them wait, not fail.
func TestSQLiteTwoProcesses(t *testing.T) {
	cfg := storetest.SQLiteConfig(t)
	ctx := context.Background()
	var stores [2]*store.Store
	for i := range stores {
		s, err := store.Open(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if err := s.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		stores[i] = s
	}
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for _, s := range stores {
		for range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 20 {
					errs <- s.Transact(ctx, func(tx *store.Tx) error {
						if _, err := tx.Revision(ctx); err != nil {
							return err
						}
						time.Sleep(100 * time.Microsecond)
						_, err := tx.BumpRevision(ctx)
						return err
					})
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("write failed: %v", err)
		}
	}
	if rev, _ := stores[0].Revision(ctx); rev != 80 {
		t.Errorf("revision = %d, want 80", rev)
	}
}
