package store_test

import (
	"context"
	"testing"

	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

func benchStores(b *testing.B, body func(b *testing.B, s *store.Store)) {
	b.Run("sqlite", func(b *testing.B) { body(b, storetest.SQLite(b)) })
	b.Run("postgres", func(b *testing.B) { body(b, storetest.Postgres(b)) })
}

// BenchmarkRevisionRead is the baseline: one read on the reader pool.
func BenchmarkRevisionRead(b *testing.B) {
	benchStores(b, func(b *testing.B, s *store.Store) {
		ctx := context.Background()
		for b.Loop() {
			if _, err := s.Revision(ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkBumpRevision is one committed write transaction.
func BenchmarkBumpRevision(b *testing.B) {
	benchStores(b, func(b *testing.B, s *store.Store) {
		ctx := context.Background()
		for b.Loop() {
			if err := s.Transact(ctx, func(tx *store.Tx) error {
				_, err := tx.BumpRevision(ctx)
				return err
			}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkBumpRevisionParallel runs write transactions from GOMAXPROCS
// goroutines: on SQLite they queue on the single writer connection.
func BenchmarkBumpRevisionParallel(b *testing.B) {
	benchStores(b, func(b *testing.B, s *store.Store) {
		ctx := context.Background()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if err := s.Transact(ctx, func(tx *store.Tx) error {
					_, err := tx.BumpRevision(ctx)
					return err
				}); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
}
