package observe

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/s2r-project/s2r/internal/dataplane"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
	"github.com/s2r-project/s2r/internal/tests/poll"
)

// The recorder the data plane is wired with (observe itself does not
// import the data plane: internal/tests/deps).
var _ dataplane.Recorder = (*Recorder)(nil)

var quiet = slog.New(slog.DiscardHandler)

// started runs r until the test ends (or stop is called) and returns stop,
// which cancels Run and waits for it to return.
func started(t *testing.T, r *Recorder) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("Run: %v", err)
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

func newRecorder(t *testing.T, cfg Config) (*Recorder, *prometheus.Registry) {
	t.Helper()
	reg := prometheus.NewRegistry()
	cfg.Registerer = reg
	if cfg.Logger == nil {
		cfg.Logger = quiet
	}
	r, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r, reg
}

func record(i int, at time.Time) *model.TxRecord {
	return &model.TxRecord{
		CorrelationID: fmt.Sprintf("cid-%05d", i),
		OccurredAt:    at,
		Direction:     model.DirectionPublish,
		Environment:   "dev",
		ServiceKey:    []string{"calc", "weather"}[i%2],
		OperationKey:  "op",
		Method:        "POST",
		Path:          "/publish/dev/calc/op",
		HTTPStatus:    200,
		ResultCode:    model.ResultSuccess,
		TotalMs:       2.5,
		BackendMs:     2,
		ConverterMs:   0.125,
		BackendTarget: "http://10.0.0.5/calc",
		ClientIP:      "10.1.1.1",
		RequestBytes:  10,
		ResponseBytes: 20,
	}
}

// countLogs returns the number of stored runtime logs.
func countLogs(t *testing.T, s *store.Store) int64 {
	t.Helper()
	p, err := s.TxLogs(context.Background(), model.TxLogFilter{}, model.PageRequest{Page: 1, PageSize: 1})
	if err != nil {
		t.Fatal(err)
	}
	return p.TotalItems
}

// waitFor polls cond until it holds or 20 seconds pass.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	poll.Until(t, 20*time.Second, what, cond)
}

func TestRecorderWritesBatches(t *testing.T) {
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		r, reg := newRecorder(t, Config{Store: s, BatchSize: 100})
		started(t, r)
		now := time.Now()
		const n = 1234
		for i := range n {
			r.Record(record(i, now.Add(time.Duration(i)*time.Millisecond)))
		}
		waitFor(t, "every record written", func() bool { return r.Stats().Written == n })
		if got := countLogs(t, s); got != n {
			t.Errorf("stored %d, want %d", got, n)
		}
		st := r.Stats()
		if st.Batches < n/100 || st.Batches > n/10 {
			t.Errorf("%d batches for %d records of batch size 100: not batched", st.Batches, n)
		}
		if st.DroppedQueueFull+st.DroppedWrite != 0 {
			t.Errorf("dropped %+v", st)
		}
		if got := value(t, r.metrics.requests.WithLabelValues("publish", "dev", "calc", "op", "success")); got != n/2 {
			t.Errorf("requests_total{calc} = %v, want %d", got, n/2)
		}
		if got := value(t, r.metrics.written); got != n {
			t.Errorf("written_total = %v, want %d", got, n)
		}
		if c := series(t, reg, metricConverter); c != 2 {
			t.Errorf("converter histogram series = %d, want 2", c)
		}
	})
}

// TestRecordNeverBlocks holds the database writer so the batch writer is
// stuck, then records far more than the queue holds: Record must return
// for every one of them, dropping and counting the overflow.
func TestRecordNeverBlocks(t *testing.T) {
	s := storetest.SQLite(t)
	r, _ := newRecorder(t, Config{Store: s, QueueSize: 100, BatchSize: 10, FlushInterval: time.Millisecond})
	release := make(chan struct{})
	held := make(chan struct{})
	go s.Transact(context.Background(), func(tx *store.Tx) error {
		close(held)
		<-release
		return nil
	})
	<-held
	stop := started(t, r)
	const n = 20000
	done := make(chan struct{})
	go func() {
		defer close(done)
		now := time.Now()
		for i := range n {
			r.Record(record(i, now))
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Record blocked while the writer was stuck")
	}
	dropped := r.Stats().DroppedQueueFull
	if dropped < n-100-10 {
		t.Errorf("dropped %d of %d with a queue of 100 and a stuck writer", dropped, n)
	}
	if got := value(t, r.metrics.dropped.WithLabelValues(DropQueueFull)); got != float64(dropped) {
		t.Errorf("dropped metric %v, want %d", got, dropped)
	}
	close(release)
	waitFor(t, "the queue drained", func() bool { st := r.Stats(); return st.Written+st.DroppedQueueFull == n })
	stop()
	if got, want := countLogs(t, s), int64(n)-dropped; got != want {
		t.Errorf("stored %d, want %d", got, want)
	}
}

func TestShutdownDrains(t *testing.T) {
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		r, _ := newRecorder(t, Config{Store: s, FlushInterval: time.Hour, DrainTimeout: time.Minute})
		now := time.Now()
		const n = 3000
		for i := range n {
			r.Record(record(i, now))
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // shutting down before the writer even started
		if err := r.Run(ctx); err != nil {
			t.Fatal(err)
		}
		if got := countLogs(t, s); got != n {
			t.Errorf("stored %d after shutdown, want %d", got, n)
		}
		if st := r.Stats(); st.Written != n || st.Queued != 0 {
			t.Errorf("stats %+v", st)
		}
	})
}

func TestWriteFailureCountsDropped(t *testing.T) {
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
		r, _ := newRecorder(t, Config{Store: s, FlushInterval: 5 * time.Millisecond, WriteAttempts: 2})
		stop := started(t, r)
		for i := range 7 {
			r.Record(record(i, time.Now()))
		}
		waitFor(t, "the failed batch counted", func() bool { return r.Stats().DroppedWrite == 7 })
		if got := value(t, r.metrics.dropped.WithLabelValues(DropWriteFailed)); got != 7 {
			t.Errorf("write_failed metric = %v, want 7", got)
		}
		rename("runtime_tx_logs_away", "runtime_tx_logs")
		r.Record(record(99, time.Now()))
		waitFor(t, "writing resumed", func() bool { return r.Stats().Written == 1 })
		stop()
	})
}

func TestRetention(t *testing.T) {
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Now()
		if err := s.Transact(ctx, func(tx *store.Tx) error {
			if err := tx.PutSetting(ctx, store.SettingRow{Name: "default_retention_days", Value: json.RawMessage("2"), UpdatedAt: now}); err != nil {
				return err
			}
			_, err := tx.BumpRevision(ctx)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		r, _ := newRecorder(t, Config{Store: s, Settings: follow(t, s), FlushInterval: time.Millisecond, RetentionInterval: time.Hour})
		for i := range 10 {
			r.Record(record(i, now.Add(-time.Duration(i)*12*time.Hour))) // 0h .. 108h old
		}
		// Run: the queue drains, retention runs at start
		// (possibly before the writes), so run it again after.
		stop := started(t, r)
		waitFor(t, "records written", func() bool { return r.Stats().Written == 10 })
		// Let the start-up run finish before stopping: a run cancelled
		// while it takes the PostgreSQL lease drops its connection, and the
		// server may hold the lease until that session ends, so the run
		// below could find it taken and skip (seen once under load).
		waitFor(t, "the start-up retention run", func() bool {
			for _, st := range s.JobStats() {
				if st.Name == retentionJob {
					return st.Runs > 0
				}
			}
			return false
		})
		stop()
		removed, err := r.Retain(ctx)
		if err != nil {
			t.Fatal(err)
		}
		// Kept: 0h, 12h, 24h, 36h (under 48h); removed: 48h and older,
		// less any the start-up run already removed.
		if got := countLogs(t, s); got != 4 {
			t.Errorf("kept %d (removed %d now), want 4", got, removed)
		}
	})
}

func TestDebugPayloadsAndSecrets(t *testing.T) {
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		if err := s.Transact(ctx, func(tx *store.Tx) error {
			return tx.PutSetting(ctx, store.SettingRow{Name: "debug_max_payload_kb", Value: json.RawMessage("1"), UpdatedAt: time.Now()})
		}); err != nil {
			t.Fatal(err)
		}
		r, _ := newRecorder(t, Config{Store: s, Settings: follow(t, s), FlushInterval: time.Millisecond})
		stop := started(t, r)
		debug := record(1, time.Now())
		debug.CorrelationID = "cid-debug"
		debug.Debug = true
		debug.RequestPayload = []byte(strings.Repeat("a", 3000))
		debug.ResponsePayload = []byte(`{"ok":true}`)
		debug.BackendTarget = "https://svc:hunter2@10.0.0.5/calc?apikey=SECRETKEY"
		plain := record(2, time.Now())
		plain.CorrelationID = "cid-plain"
		plain.RequestPayload = []byte("must not be stored")
		r.Record(debug)
		r.Record(plain)
		waitFor(t, "records written", func() bool { return r.Stats().Written == 2 })
		stop()
		got, err := s.TxLogsByCorrelation(ctx, "cid-debug")
		if err != nil || len(got) != 1 {
			t.Fatalf("debug record: %v %v", err, got)
		}
		d := got[0]
		if !strings.HasPrefix(string(d.RequestPayload), strings.Repeat("a", 1024)+"\n[truncated by s2r: 3000 bytes") {
			t.Errorf("request payload not cut at 1 KB: %.80q…", d.RequestPayload)
		}
		if string(d.ResponsePayload) != `{"ok":true}` {
			t.Errorf("response payload %q", d.ResponsePayload)
		}
		if d.BackendTarget != "https://10.0.0.5/calc" {
			t.Errorf("backend target %q", d.BackendTarget)
		}
		got, err = s.TxLogsByCorrelation(ctx, "cid-plain")
		if err != nil || len(got) != 1 || got[0].RequestPayload != nil {
			t.Errorf("non-debug record kept a payload: %v %+v", err, got)
		}
	})
}

func TestMetricLabelsBounded(t *testing.T) {
	s := storetest.SQLite(t)
	r, reg := newRecorder(t, Config{Store: s})
	for i := range 50 {
		r.metrics.observe(&model.TxRecord{
			Direction:   fmt.Sprintf("bogus%d", i),
			Environment: fmt.Sprintf("env-%d", i), // typed by the client: no route matched
			ResultCode:  fmt.Sprintf("weird%d", i),
		})
	}
	if c := series(t, reg, metricRequests); c != len(resultLabels) {
		t.Errorf("unrouted records made %d request series, want %d (one per result)", c, len(resultLabels))
	}
	if got := value(t, r.metrics.requests.WithLabelValues("", "", "", "", "error")); got != 50 {
		t.Errorf("unrouted series = %v, want 50", got)
	}
	// A data plane putting unbounded values in ServiceKey is capped.
	r.metrics.maxRoutes = 100
	for i := range 200 {
		r.metrics.observe(&model.TxRecord{Direction: model.DirectionPublish, Environment: "dev", ServiceKey: fmt.Sprint(i)})
	}
	if c, limit := series(t, reg, metricConverter), 100+2; c > limit {
		t.Errorf("%d converter series, want at most %d", c, limit)
	}
}

// value returns the value of a counter or gauge.
func value(t *testing.T, m prometheus.Metric) float64 {
	t.Helper()
	var d dto.Metric
	if err := m.Write(&d); err != nil {
		t.Fatal(err)
	}
	switch {
	case d.Counter != nil:
		return d.Counter.GetValue()
	case d.Gauge != nil:
		return d.Gauge.GetValue()
	}
	t.Fatalf("metric is neither counter nor gauge: %v", &d)
	return 0
}

// series counts the series of the metric family name in reg.
func series(t *testing.T, reg *prometheus.Registry, name string) int {
	t.Helper()
	fams, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fams {
		if f.GetName() == name {
			return len(f.GetMetric())
		}
	}
	return 0
}

// TestSecretsNeverOnDisk writes records whose backend URL carries
// credentials and greps the SQLite files (database and WAL) for them.
func TestSecretsNeverOnDisk(t *testing.T) {
	cfg := storetest.SQLiteConfig(t)
	s := openMigrated(t, cfg)
	r, _ := newRecorder(t, Config{Store: s, FlushInterval: time.Millisecond})
	stop := started(t, r)
	for i, debug := range []bool{false, true} {
		rec := record(i, time.Now())
		rec.Debug = debug
		rec.BackendTarget = "https://svc:Hunter2Password@10.0.0.5/calc?apikey=SecretKeyValue&x=1#TokenFragment"
		rec.RequestPayload = []byte(`{"a":1}`)
		r.Record(rec)
	}
	waitFor(t, "records written", func() bool { return r.Stats().Written == 2 })
	stop()
	files, _ := filepath.Glob(filepath.Join(cfg.DataDir, store.SQLiteFile+"*"))
	if len(files) == 0 {
		t.Fatal("no database files")
	}
	seen := false // positive control: the grep sees what was stored
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		seen = seen || bytes.Contains(b, []byte("https://10.0.0.5/calc"))
		for _, secret := range []string{"Hunter2Password", "SecretKeyValue", "TokenFragment"} {
			if bytes.Contains(b, []byte(secret)) {
				t.Errorf("%s holds %q", filepath.Base(f), secret)
			}
		}
	}
	if !seen {
		t.Error("the stored backend target is in no database file: the grep proves nothing")
	}
	if got := countLogs(t, s); got != 2 {
		t.Errorf("stored %d, want 2", got)
	}
}

// TestRetentionOneAtATime runs retention from two recorders (two
// instances) on one database at once: every old record goes exactly once,
// and neither run fails.
func TestRetentionOneAtATime(t *testing.T) {
	storetest.RunConfig(t, func(t *testing.T, cfg store.Config) {
		ctx := context.Background()
		open := func() *store.Store {
			s, err := store.Open(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			if err := s.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			return s
		}
		a, b := open(), open()
		if cfg.URL == "" {
			b = a // SQLite: one process owns the file
		}
		now := time.Now()
		var logs []model.TxLog
		for i := range 12000 { // more than two delete chunks
			logs = append(logs, model.TxLog{CorrelationID: fmt.Sprint(i), OccurredAt: now.Add(-40 * 24 * time.Hour),
				Direction: "publish", ResultCode: "success"})
		}
		logs = append(logs, model.TxLog{CorrelationID: "fresh", OccurredAt: now, Direction: "publish", ResultCode: "success"})
		if err := a.CopyTxLogs(ctx, logs); err != nil {
			t.Fatal(err)
		}
		ra, _ := newRecorder(t, Config{Store: a})
		rb, _ := newRecorder(t, Config{Store: b})
		var wg sync.WaitGroup
		removed := make([]int64, 2)
		errs := make([]error, 2)
		for i, r := range []*Recorder{ra, rb} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				removed[i], errs[i] = r.Retain(ctx)
			}()
		}
		wg.Wait()
		for i := range 2 {
			if errs[i] != nil {
				t.Errorf("retention %d: %v", i, errs[i])
			}
		}
		// A run that found the job taken removes nothing; a second pass
		// catches anything a skipped run left.
		extra, err := ra.Retain(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if total := removed[0] + removed[1] + extra; total != 12000 {
			t.Errorf("removed %d+%d+%d, want 12000 in all", removed[0], removed[1], extra)
		}
		if got := countLogs(t, a); got != 1 {
			t.Errorf("%d left, want the fresh one", got)
		}
	})
}

// TestHostileStrings: a path with bytes PostgreSQL refuses in TEXT
// (invalid UTF-8, NUL) is stored cleaned and does not fail its batch.
func TestHostileStrings(t *testing.T) {
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		r, _ := newRecorder(t, Config{Store: s, FlushInterval: time.Millisecond})
		stop := started(t, r)
		bad := record(1, time.Now())
		bad.CorrelationID = "cid-hostile"
		bad.Path = "/publish/dev/\xff\xfe/op\x00x"
		bad.ClientIP = "\x00"
		r.Record(bad)
		r.Record(record(2, time.Now()))
		waitFor(t, "both written", func() bool { return r.Stats().Written == 2 })
		stop()
		got, err := s.TxLogsByCorrelation(context.Background(), "cid-hostile")
		if err != nil || len(got) != 1 {
			t.Fatal(err, got)
		}
		if got[0].Path != "/publish/dev/\uFFFD/opx" || got[0].ClientIP != "" {
			t.Errorf("stored path %q client %q", got[0].Path, got[0].ClientIP)
		}
	})
}
