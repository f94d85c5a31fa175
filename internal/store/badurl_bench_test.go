package store_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

func badURLBatch() []model.BadURLAttempt {
	batch := make([]model.BadURLAttempt, 500)
	for i := range batch {
		batch[i] = model.BadURLAttempt{Path: "/foo/bar", Method: "GET", At: time.Now()}
	}
	return batch
}

// BenchmarkInsertBadURLAttempts writes one full batch (500 rows, 1,500
// parameters) per iteration.
func BenchmarkInsertBadURLAttempts(b *testing.B) {
	batch := badURLBatch()
	benchStores(b, func(b *testing.B, s *store.Store) {
		ctx := context.Background()
		for b.Loop() {
			if err := s.Transact(ctx, func(tx *store.Tx) error { return tx.InsertBadURLAttempts(ctx, batch) }); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkInsertBadURLNumbered is the baseline: the same batch with $N
// placeholders on every dialect, as the first version wrote it.
func BenchmarkInsertBadURLNumbered(b *testing.B) {
	batch := badURLBatch()
	var q strings.Builder
	q.WriteString("INSERT INTO bad_url_attempts (path, method, at) VALUES ")
	args := make([]any, 0, 3*len(batch))
	for i, a := range batch {
		if i > 0 {
			q.WriteByte(',')
		}
		n := 3 * i
		q.WriteString("($" + strconv.Itoa(n+1) + ",$" + strconv.Itoa(n+2) + ",$" + strconv.Itoa(n+3) + ")")
		args = append(args, a.Path, a.Method, store.NewTime(a.At))
	}
	benchStores(b, func(b *testing.B, s *store.Store) {
		ctx := context.Background()
		for b.Loop() {
			if err := s.Transact(ctx, func(tx *store.Tx) error {
				_, err := tx.Exec(ctx, q.String(), args...)
				return err
			}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
