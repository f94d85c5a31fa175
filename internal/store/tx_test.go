package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

func countBadURLs(t *testing.T, s *store.Store) int64 {
	t.Helper()
	sum, err := s.BadURLSummary(context.Background(), time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for _, c := range sum {
		n += c.Count
	}
	return n
}

// insertOne returns a transaction body inserting one bad-URL row.
func insertOne(ctx context.Context) func(*store.Tx) error {
	return func(tx *store.Tx) error {
		return tx.InsertBadURLAttempts(ctx, []model.BadURLAttempt{{Path: "/x", Method: "GET", At: time.Now()}})
	}
}

func TestTransact(t *testing.T) {
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		errBoom := errors.New("boom")

		if err := s.Transact(ctx, insertOne(ctx)); err != nil {
			t.Fatalf("commit: %v", err)
		}
		if n := countBadURLs(t, s); n != 1 {
			t.Fatalf("after commit: %d rows, want 1", n)
		}

		err := s.Transact(ctx, func(tx *store.Tx) error {
			if err := insertOne(ctx)(tx); err != nil {
				return err
			}
			return errBoom
		})
		if !errors.Is(err, errBoom) {
			t.Fatalf("rollback: err = %v, want boom", err)
		}
		if n := countBadURLs(t, s); n != 1 {
			t.Fatalf("after rollback: %d rows, want 1", n)
		}

		func() {
			defer func() {
				if p := recover(); p != "panic!" {
					t.Errorf("recovered %v, want the re-raised panic", p)
				}
			}()
			s.Transact(ctx, func(tx *store.Tx) error {
				if err := insertOne(ctx)(tx); err != nil {
					return err
				}
				panic("panic!")
			})
		}()
		if n := countBadURLs(t, s); n != 1 {
			t.Fatalf("after panic: %d rows, want 1", n)
		}

		// The writer must still work after a panic (connection released).
		if err := s.Transact(ctx, insertOne(ctx)); err != nil {
			t.Fatalf("after panic, commit: %v", err)
		}
		if n := countBadURLs(t, s); n != 2 {
			t.Fatalf("final: %d rows, want 2", n)
		}
	})
}

func TestTransactSeesOwnWrites(t *testing.T) {
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		err := s.Transact(ctx, func(tx *store.Tx) error {
			if _, err := tx.BumpRevision(ctx); err != nil {
				return err
			}
			rev, err := tx.Revision(ctx)
			if err != nil {
				return err
			}
			if rev != 1 {
				t.Errorf("revision inside tx = %d, want 1", rev)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}

func TestRevision(t *testing.T) {
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		for want := int64(1); want <= 3; want++ {
			var got int64
			if err := s.Transact(ctx, func(tx *store.Tx) (err error) {
				got, err = tx.BumpRevision(ctx)
				return err
			}); err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("BumpRevision = %d, want %d", got, want)
			}
		}
		// A rolled back bump does not count.
		s.Transact(ctx, func(tx *store.Tx) error {
			tx.BumpRevision(ctx)
			return errors.New("abort")
		})
		if rev, err := s.Revision(ctx); err != nil || rev != 3 {
			t.Errorf("Revision = %d, %v; want 3, nil", rev, err)
		}
	})
}

func TestContextCanceled(t *testing.T) {
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		err := s.Transact(ctx, insertOne(ctx))
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Transact(canceled ctx) = %v, want context.Canceled", err)
		}
	})
}
