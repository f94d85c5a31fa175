package observe

import (
	"context"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// BenchmarkRecord measures the request-path cost of Record:
//
//   - chan-baseline: a bare send of a pointer into a buffered channel with
//     room, the floor any queue-based recorder pays;
//   - queued: Record into a recorder queue with room (the writer's
//     database cost is off the request path by design);
//   - full-parallel: Record from every core when the queue is full and
//     the record is dropped (counted, metrics observed, warning
//     rate-limited): the overload path.
//
// The record is reused: handlers build it anyway.
func BenchmarkRecord(b *testing.B) {
	rec := record(1, time.Now())
	b.Run("chan-baseline", func(b *testing.B) {
		ch := make(chan *model.TxRecord, b.N)
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			ch <- rec
		}
	})
	b.Run("queued", func(b *testing.B) {
		r := benchRecorder(b, b.N)
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			r.Record(rec)
		}
		b.StopTimer()
		if d := r.Stats().DroppedQueueFull; d > 0 {
			b.Fatalf("%d of %d dropped", d, b.N)
		}
	})
	b.Run("full-parallel", func(b *testing.B) {
		r := benchRecorder(b, 1)
		r.w.queue <- rec
		b.ReportAllocs()
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				r.Record(rec)
			}
		})
	})
}

func benchRecorder(b *testing.B, queue int) *Recorder {
	b.Helper()
	r, err := New(Config{Store: storetest.SQLite(b), Logger: quiet, QueueSize: queue})
	if err != nil {
		b.Fatal(err)
	}
	return r
}

// BenchmarkRecorderThroughput measures the records/s the running recorder
// stores end to end (Record → queue → batch writer → database), on SQLite
// and PostgreSQL: one op is one record; the run ends when all are stored.
func BenchmarkRecorderThroughput(b *testing.B) {
	for _, db := range []struct {
		name string
		open func(testing.TB) *store.Store
	}{{"sqlite", storetest.SQLite}, {"postgres", storetest.Postgres}} {
		b.Run(db.name, func(b *testing.B) {
			r, err := New(Config{Store: db.open(b), Logger: quiet, QueueSize: 1 << 20})
			if err != nil {
				b.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- r.Run(ctx) }()
			now := time.Now()
			b.ResetTimer()
			for i := range b.N {
				r.Record(record(i, now))
			}
			for r.Stats().Written+r.Stats().DroppedQueueFull+r.Stats().DroppedWrite < int64(b.N) {
				time.Sleep(time.Millisecond)
			}
			b.StopTimer()
			cancel()
			if err := <-done; err != nil {
				b.Fatal(err)
			}
			st := r.Stats()
			if st.DroppedQueueFull+st.DroppedWrite > 0 {
				b.Fatalf("dropped: %+v", st)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "records/s")
		})
	}
}
