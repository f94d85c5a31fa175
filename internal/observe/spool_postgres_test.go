package observe

import (
	"context"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
	"github.com/s2r-project/s2r/internal/tests/poll"
)

// outageEnv overrides the length of the PostgreSQL outage of
// TestPostgresOutageLosesNoRecord, in seconds (default 60, the scenario of
// issue 26; 5 under -short).
const outageEnv = "S2R_TEST_SPOOL_OUTAGE_SECONDS"

// TestPostgresOutageLosesNoRecord records a steady load while its own
// PostgreSQL server is stopped for a while and started again: every
// record, each with its own correlation id, is stored exactly once
// afterwards, none is dropped, and the spool is empty.
func TestPostgresOutageLosesNoRecord(t *testing.T) {
	outage := 60 * time.Second
	if testing.Short() {
		outage = 5 * time.Second
	}
	if v := os.Getenv(outageEnv); v != "" {
		var n int
		if _, err := fmt.Sscan(v, &n); err != nil || n <= 0 {
			t.Fatalf("%s=%q: want a number of seconds", outageEnv, v)
		}
		outage = time.Duration(n) * time.Second
	}
	cluster := storetest.StartCluster(t)
	s := storetest.Open(t, store.Config{URL: cluster.DatabaseURL("spool")})
	r, _ := newRecorder(t, Config{Store: s, FlushInterval: 20 * time.Millisecond, BatchSize: 200,
		SpoolDir: t.TempDir(), SpoolMaxBytes: 256 << 20})
	started(t, r)

	// About 500 records a second from two goroutines.
	var sent atomic.Int64
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for g := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ctx.Err() == nil; i++ {
				rec := record(i, time.Now())
				rec.CorrelationID = fmt.Sprintf("outage-%d-%07d", g, i)
				r.Record(rec)
				sent.Add(1)
				time.Sleep(4 * time.Millisecond)
			}
		}()
	}
	time.Sleep(time.Second)
	cluster.Stop("fast")
	t.Logf("PostgreSQL stopped for %v", outage)
	time.Sleep(outage)
	duringOutage := r.Stats().Spooled
	cluster.Start()
	time.Sleep(2 * time.Second)
	cancel()
	wg.Wait()
	total := sent.Load()

	// The replay of a 60 s outage is ~25,000 records: seconds on a quiet
	// machine, longer beside the rest of make test, so allow it two minutes.
	poll.Until(t, 2*time.Minute, "every record written", func() bool { return r.Stats().Written >= total })
	st := r.Stats()
	t.Logf("sent %d, spooled %d at the end of the outage, replayed %d, stats %+v", total, duringOutage, st.Replayed, st)
	if duringOutage == 0 || st.Replayed == 0 {
		t.Errorf("nothing went through the spool: %+v", st)
	}
	if st.DroppedQueueFull+st.DroppedWrite != 0 || st.Spooled != 0 || st.Written != total {
		t.Errorf("stats %+v, want %d written and nothing dropped or left", st, total)
	}
	var rows, distinct int64
	q := "SELECT COUNT(*), COUNT(DISTINCT correlation_id) FROM runtime_tx_logs WHERE correlation_id LIKE 'outage-%'"
	err := s.Transact(context.Background(), func(tx *store.Tx) error {
		return tx.QueryRow(context.Background(), q).Scan(&rows, &distinct)
	})
	if err != nil {
		t.Fatal(err)
	}
	if rows != total || distinct != total {
		t.Errorf("stored %d rows, %d distinct ids; want %d each (every record once)", rows, distinct, total)
	}
	var page model.ObservabilityPageRecord[model.TxLog]
	page, err = s.TxLogs(context.Background(), model.TxLogFilter{CorrelationID: "outage-0-0000000"}, model.PageRequest{Page: 1, PageSize: 1})
	if err != nil || page.TotalItems != 1 {
		t.Errorf("the first record: %v, %+v", err, page)
	}
}
