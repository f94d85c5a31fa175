package async

import (
	"net/http"
	"os"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// BenchmarkAsync measures, through the whole in-process stack on
// 127.0.0.1 (middleware, route table, recorder writing every transaction
// to the database), the synchronous publish of operation Add, the
// initiation of the same operation made async_callback (202, the
// execution committed before the backend call), and callback
// completions; on SQLite and, when S2R_TEST_POSTGRES_URL is set,
// PostgreSQL. Each reports ops/s; 8 clients per core send at once.
//
//	scripts/with-postgres.sh go test ./internal/async -run '^$' -bench Async -benchtime 3s -count 5
func BenchmarkAsync(b *testing.B) {
	dbs := []struct {
		name string
		open func(testing.TB) *store.Store
	}{{"sqlite", storetest.SQLite}}
	if os.Getenv(storetest.EnvPostgresURL) != "" {
		dbs = append(dbs, struct {
			name string
			open func(testing.TB) *store.Store
		}{"postgres", storetest.Postgres})
	}
	for _, db := range dbs {
		b.Run(db.name, func(b *testing.B) {
			s := newStack(b, db.open(b))
			syncBE, asyncBE := newBackend(b), newBackend(b)
			syncBE.set(http.StatusOK, "text/xml", callback11("", addResponse("5")))
			s.onboard("calcsync", syncBE.srv.URL+"/calc", "")
			s.onboard("calcasync", asyncBE.srv.URL+"/calc", cbSecret, "add")
			s.publish("calcsync", "add", `{"a":2,"b":3}`).WantStatus(b, http.StatusOK)
			s.start("calcasync", "add", `{"a":2,"b":3}`)
			body := []byte(`{"a":2,"b":3}`)

			b.Run("sync-publish", func(b *testing.B) {
				parallel(b, func(int) int {
					return s.c.For(b).Send("POST", "/publish/dev/calcsync/add", "", "application/json", body).Status
				}, http.StatusOK)
			})
			b.Run("async-initiate", func(b *testing.B) {
				parallel(b, func(int) int {
					return s.c.For(b).Send("POST", "/publish/dev/calcasync/add", "", "application/json", body).Status
				}, http.StatusAccepted)
			})
			b.Run("callback-complete", func(b *testing.B) {
				ids := make([]string, b.N)
				for i := range ids {
					ids[i] = s.start("calcasync", "add", `{"a":2,"b":3}`).CorrelationID
				}
				parallel(b, func(i int) int {
					cb := callback11(relatesTo(ids[i]), addResponse("5"))
					return s.c.For(b).Send("POST", "/_s2r/callback/dev/calcasync/add", "", "text/xml", []byte(cb),
						"X-S2R-Callback-Secret", cbSecret).Status
				}, http.StatusOK)
			})
		})
	}
}

// parallel runs b.N calls of f (numbered 0..b.N-1) from 8 goroutines per
// core, fails on any status but want, and reports the rate.
func parallel(b *testing.B, f func(i int) int, want int) {
	var next, bad atomic.Int64
	b.SetParallelism(8)
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if st := f(int(next.Add(1) - 1)); st != want {
				bad.Add(1)
			}
		}
	})
	elapsed := time.Since(start)
	b.StopTimer()
	if n := bad.Load(); n > 0 {
		b.Fatalf("%d of %d calls did not answer %s", n, b.N, strconv.Itoa(want))
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "ops/s")
}
