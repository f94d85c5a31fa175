package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// BenchmarkTxLogBatch measures the batch write of the transaction
// recorder: one op is one batch of 500 records (the recorder's default
// until issue 27; BenchmarkTxLogRecord measures per row and batch size),
// written as a multi-row INSERT in a transaction or with CopyTxLogs (COPY
// on PostgreSQL, the prepared multi-row INSERT on SQLite). records/s is
// the throughput.
func BenchmarkTxLogBatch(b *testing.B) {
	const batch = 500
	logs := txLogFixture(time.Now(), batch)
	ctx := context.Background()
	for _, db := range []struct {
		name string
		open func(testing.TB) *store.Store
	}{{"sqlite", storetest.SQLite}, {"postgres", storetest.Postgres}} {
		for _, m := range []struct {
			name  string
			write func(*store.Store) error
		}{
			{"insert", func(s *store.Store) error {
				return s.Transact(ctx, func(tx *store.Tx) error { return tx.InsertTxLogs(ctx, logs) })
			}},
			{"copy", func(s *store.Store) error { return s.CopyTxLogs(ctx, logs) }},
		} {
			b.Run(db.name+"/"+m.name, func(b *testing.B) {
				s := db.open(b)
				b.ResetTimer()
				for b.Loop() {
					if err := m.write(s); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.N*batch)/b.Elapsed().Seconds(), "records/s")
			})
		}
	}
}
