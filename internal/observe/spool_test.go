package observe

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

func spoolLogs(from, n int) []model.TxLog {
	out := make([]model.TxLog, n)
	for i := range out {
		out[i] = model.TxLog{CorrelationID: fmt.Sprintf("sp-%05d", from+i), OccurredAt: time.Unix(1700000000, int64(i)).UTC(),
			Direction: "publish", ResultCode: "success", HTTPStatus: 200}
	}
	return out
}

// TestSpoolFiles: batches come back in order with every field (payloads
// too), a reopened spool finds them, and the size and age limits hold.
func TestSpoolFiles(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	clock := func() time.Time { return now }
	s, err := openSpool(dir, 1<<20, time.Hour, clock)
	if err != nil {
		t.Fatal(err)
	}
	first := spoolLogs(0, 3)
	first[1].Debug, first[1].RequestPayload, first[1].BackendResponse = true, []byte(`{"a":1}`), []byte("<r>\xff</r>")
	first[1].DebugHeaders = `{"request":{"X":["y"]}}`
	first[2].ValidationIssues = []model.ValidationIssue{{Pointer: "/a", Reason: "r"}}
	if err := s.append(first); err != nil {
		t.Fatal(err)
	}
	if err := s.append(spoolLogs(3, 2)); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "00000000000000000009.txs.tmp"), []byte("half"), 0o600) // a cut write
	if s.pending() != 5 {
		t.Fatalf("pending = %d", s.pending())
	}

	s2, err := openSpool(dir, 1<<20, time.Hour, clock)
	if err != nil {
		t.Fatal(err)
	}
	if s2.pending() != 5 || s2.size() != s.size() {
		t.Fatalf("reopened: %d records, %d bytes; want 5, %d", s2.pending(), s2.size(), s.size())
	}
	f, _ := s2.head()
	got, err := s2.read(f)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(first, got); diff != "" {
		t.Errorf("first batch (-want +got):\n%s", diff)
	}
	if err := s2.remove(f); err != nil {
		t.Fatal(err)
	}
	f, _ = s2.head()
	if got, _ := s2.read(f); len(got) != 2 || got[0].CorrelationID != "sp-00003" {
		t.Errorf("second batch = %+v", got)
	}
	if err := s2.append(spoolLogs(5, 1)); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "00000000000000000003.txs")); err != nil {
		t.Errorf("a reopened spool reused a sequence number: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "00000000000000000009.txs.tmp")); err == nil {
		t.Error("the cut write was left behind")
	}

	small, _ := openSpool(t.TempDir(), 300, time.Hour, clock)
	if err := small.append(spoolLogs(0, 10)); err != errSpoolFull || small.pending() != 0 {
		t.Errorf("over the size: %v, %d records kept", err, small.pending())
	}
	now = now.Add(2 * time.Hour)
	if f, _ := s2.head(); !s2.expired(f) {
		t.Error("a two-hour-old file is not expired under a one-hour limit")
	}
}

// TestSpoolKeepsRecordsWhileTheTableIsAway: batches the store refuses go
// to the spool, later ones behind them, and all are written once, in
// order, when the store takes them again.
func TestSpoolKeepsRecordsWhileTheTableIsAway(t *testing.T) {
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		rename := func(from, to string) {
			t.Helper()
			if err := s.Transact(ctx, func(tx *store.Tx) error {
				_, err := tx.Exec(ctx, "ALTER TABLE "+from+" RENAME TO "+to)
				return err
			}); err != nil {
				t.Fatal(err)
			}
		}
		rename("runtime_tx_logs", "runtime_tx_logs_away")
		r, reg := newRecorder(t, Config{Store: s, FlushInterval: 5 * time.Millisecond, WriteAttempts: 2, BatchSize: 10,
			SpoolDir: t.TempDir(), SpoolMaxBytes: 1 << 20})
		started(t, r)
		for i := range 35 {
			r.Record(record(i, time.Now()))
		}
		waitFor(t, "every record spooled", func() bool { return r.Stats().Spooled == 35 })
		if st := r.Stats(); st.DroppedWrite != 0 || st.Written != 0 {
			t.Fatalf("stats = %+v", st)
		}
		if series(t, reg, "s2r_tx_spool_records") != 1 {
			t.Error("no s2r_tx_spool_records gauge")
		}
		rename("runtime_tx_logs_away", "runtime_tx_logs")
		for i := 35; i < 40; i++ {
			r.Record(record(i, time.Now()))
		}
		waitFor(t, "every record written", func() bool { return r.Stats().Written == 40 })
		page, err := s.TxLogs(ctx, model.TxLogFilter{}, model.PageRequest{Page: 1, PageSize: 100})
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for i, l := range page.Items { // newest first: ids ascend with the spill order
			if seen[l.CorrelationID] {
				t.Errorf("%s written twice", l.CorrelationID)
			}
			seen[l.CorrelationID] = true
			if i > 0 && l.ID > page.Items[i-1].ID {
				t.Errorf("out of order: %s after %s", l.CorrelationID, page.Items[i-1].CorrelationID)
			}
		}
		if st := r.Stats(); len(seen) != 40 || st.Spooled != 0 || st.Replayed < 35 {
			t.Errorf("%d distinct records, stats %+v", len(seen), r.Stats())
		}
	})
}

// TestSpoolFullDrops: past the spool's size, records are dropped, counted
// and logged once.
func TestSpoolFullDrops(t *testing.T) {
	s := storetest.SQLite(t)
	ctx := context.Background()
	if err := s.Transact(ctx, func(tx *store.Tx) error {
		_, err := tx.Exec(ctx, "ALTER TABLE runtime_tx_logs RENAME TO runtime_tx_logs_away")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	var logs lockedBuffer
	r, _ := newRecorder(t, Config{Store: s, FlushInterval: 5 * time.Millisecond, WriteAttempts: 1, BatchSize: 5,
		SpoolDir: t.TempDir(), SpoolMaxBytes: 6000, Logger: logs.logger()})
	started(t, r)
	for i := range 40 {
		r.Record(record(i, time.Now()))
	}
	waitFor(t, "every record spooled or dropped", func() bool {
		st := r.Stats()
		return st.Spooled+st.DroppedWrite == 40
	})
	st := r.Stats()
	if st.Spooled == 0 || st.DroppedWrite == 0 {
		t.Errorf("stats = %+v", st)
	}
	if got := value(t, r.metrics.dropped.WithLabelValues(DropSpoolFull)); got != float64(st.DroppedWrite) {
		t.Errorf("spool_full = %v, want %d", got, st.DroppedWrite)
	}
	if n := logs.count("dropped from the spool"); n != 1 {
		t.Errorf("drop logged %d times, want once", n)
	}
}

// lockedBuffer collects log lines.
type lockedBuffer struct {
	mu    sync.Mutex
	lines []string
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.lines = append(b.lines, string(p))
	return len(p), nil
}

func (b *lockedBuffer) count(sub string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := 0
	for _, l := range b.lines {
		if contains(l, sub) {
			n++
		}
	}
	return n
}

func (b *lockedBuffer) logger() *slog.Logger { return slog.New(slog.NewTextHandler(b, nil)) }

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// TestSpoolDirUnusable: a spool directory that cannot be created does not
// stop the recorder; it runs without a spool.
func TestSpoolDirUnusable(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	r, _ := newRecorder(t, Config{Store: storetest.SQLite(t), SpoolDir: filepath.Join(file, "tx-spool"), SpoolMaxBytes: 1 << 20})
	if r.spool != nil {
		t.Error("a spool in a directory that cannot exist")
	}
}
