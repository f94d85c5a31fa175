// Package observe records runtime transactions (DESIGN 2): the data plane
// hands each model.TxRecord to Recorder.Record, which only enqueues
// into a bounded channel and never waits; Run drains the queue in batches
// into the store's runtime_tx_logs, keeps the per-service Prometheus
// metrics, and deletes records older than default_retention_days.
//
// The settings the recorder follows (debug_max_payload_kb,
// default_retention_days, the redactor of debug_redact_names and the
// API-key header names) come from the runtime's one settings snapshot
// (routing.Settings, Config.Settings), read where they are used: the
// recorder neither reads nor watches them in the store.
//
// When the queue is full a record is dropped, counted in
// s2r_tx_records_dropped_total{reason="queue_full"} and reported by a
// rate-limited warning; a batch that still fails after a few retries is
// counted with reason "write_failed". On shutdown Run drains what is
// queued within DrainTimeout.
//
// BadURLRecorder records the requests rejected with S2R-RUN-0405 the same
// way, through the same queue-to-batch writer (batch.go).
package observe

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/sync/errgroup"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/store"
)

// Defaults.
const (
	DefaultQueueSize = 10000
	// DefaultBatchSize: one transaction per 2000 records rather than 500
	// writes each page a batch touches once per 2000 rows. On SQLite the
	// route index touches a leaf page per route in every batch: with 200
	// routes that took 23% off the CPU per record (32% with the store's
	// INSERT OR ROLLBACK), with one route 1 to 4%, near the noise
	// (docs/PERFORMANCE.md, "Transaction record path (issue 27)"). Under
	// load a batch fills in about 130 ms at 15k requests/s; below that the
	// 200 ms tick flushes it. The SQLite writer is held about 27 ms per
	// batch instead of 11 (200 routes).
	DefaultBatchSize         = 2000
	DefaultFlushInterval     = 200 * time.Millisecond
	DefaultDrainTimeout      = 5 * time.Second
	DefaultWriteAttempts     = 3
	DefaultRetentionInterval = time.Hour
	DefaultSpoolMaxAge       = 72 * time.Hour
	// dropWarnEvery rate-limits the queue-full warning.
	dropWarnEvery = 10 * time.Second
)

// SettingsSource gives the runtime's current settings snapshot: the
// routing.Reloader in s2r serve, which compiles it with the route table at
// every configuration revision. Each call is an atomic load.
type SettingsSource interface {
	Settings() routing.Settings
}

// Config configures a Recorder. Store is required.
type Config struct {
	Store *store.Store
	// Settings gives debug_max_payload_kb, default_retention_days and the
	// redactor; nil: the defaults.
	Settings   SettingsSource
	Logger     *slog.Logger
	Registerer prometheus.Registerer // nil: metrics are not exported

	QueueSize     int           // default 10000
	BatchSize     int           // default 2000 records per batch (one transaction)
	FlushInterval time.Duration // default 200ms: a partial batch waits at most this long
	DrainTimeout  time.Duration // default 5s: how long shutdown may spend writing the queue
	WriteAttempts int           // default 3 attempts per batch before it counts as dropped

	RetentionInterval time.Duration // default 1h between retention runs
	Now               func() time.Time

	// SpoolDir, SpoolMaxBytes and SpoolMaxAge configure the on-disk spool
	// of the records the database does not take (recorder_spool.go):
	// without a directory or with no bytes there is none, and such
	// records are dropped as write_failed.
	SpoolDir      string
	SpoolMaxBytes int64
	SpoolMaxAge   time.Duration // default 72h
}

// Recorder implements dataplane.Recorder (checked in recorder_test.go:
// observe does not import the data plane).
type Recorder struct {
	cfg     Config
	w       *batchWriter[*model.TxRecord, model.TxLog]
	metrics *metrics
	spool   *spoolState // nil: no spool

	dropped      atomic.Int64 // queue_full
	writeDropped atomic.Int64 // write_failed
	written      atomic.Int64
	batches      atomic.Int64
	lastWarn     atomic.Int64 // unix nanoseconds of the last queue-full warning
	warnDropped  atomic.Int64 // drops at the last warning

	// marked holds, per service id, the lastTrafficAt last written
	// (traffic_mark.go), under markMu.
	markMu sync.Mutex
	marked map[string]time.Time

	// Last backend target redacted, and its result (writer goroutine).
	lastTarget   string
	lastRedacted *string
}

// New returns a Recorder; Record may be called at once, Run starts the
// writer.
func New(cfg Config) (*Recorder, error) {
	if cfg.Store == nil {
		return nil, errors.New("observe: a store is required")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Registerer == nil {
		cfg.Registerer = prometheus.NewRegistry()
	}
	cfg.QueueSize = orDefault(cfg.QueueSize, DefaultQueueSize)
	cfg.BatchSize = min(orDefault(cfg.BatchSize, DefaultBatchSize), cfg.QueueSize)
	cfg.WriteAttempts = orDefault(cfg.WriteAttempts, DefaultWriteAttempts)
	cfg.FlushInterval = orDefault(cfg.FlushInterval, DefaultFlushInterval)
	cfg.DrainTimeout = orDefault(cfg.DrainTimeout, DefaultDrainTimeout)
	cfg.RetentionInterval = orDefault(cfg.RetentionInterval, DefaultRetentionInterval)
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	r := &Recorder{cfg: cfg, marked: map[string]time.Time{}}
	bc := batchConfig[*model.TxRecord, model.TxLog]{
		QueueSize: cfg.QueueSize, BatchSize: cfg.BatchSize, FlushInterval: cfg.FlushInterval,
		DrainTimeout: cfg.DrainTimeout, Attempts: cfg.WriteAttempts,
		Convert: r.toLog, Write: r.writeBatch, Written: r.batchWritten,
		Failed: r.batchFailed, Abandoned: r.drainAbandoned,
	}
	if cfg.SpoolDir != "" && cfg.SpoolMaxBytes > 0 {
		// A data directory s2r cannot write (a read-only container with
		// PostgreSQL) costs the spool, not the start.
		if s, err := openSpool(cfg.SpoolDir, cfg.SpoolMaxBytes, orDefault(cfg.SpoolMaxAge, DefaultSpoolMaxAge), cfg.Now); err != nil {
			cfg.Logger.Warn("recorder: no record spool: records the database does not take will be dropped", "error", err.Error())
		} else {
			r.spool = &spoolState{s: s}
			bc.Spill, bc.Backlog = r.spill, r.backlog
		}
	}
	r.w = newBatchWriter(bc)
	m, err := newMetrics(cfg.Registerer, func() float64 { return float64(r.w.queued()) })
	if err != nil {
		return nil, err
	}
	r.metrics = m
	if r.spool != nil {
		if err := r.newSpoolMetrics(cfg.Registerer); err != nil {
			return nil, fmt.Errorf("observe: register metrics: %w", err)
		}
	}
	return r, nil
}

// settings returns the current settings snapshot.
func (r *Recorder) settings() routing.Settings {
	if r.cfg.Settings == nil {
		return routing.DefaultSettings()
	}
	return r.cfg.Settings.Settings()
}

func orDefault[T int | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// Record enqueues rec for writing and never blocks: when the queue is
// full rec is dropped and counted. The Recorder owns rec afterwards.
func (r *Recorder) Record(rec *model.TxRecord) {
	if rec == nil {
		return
	}
	if !r.w.offer(rec) {
		r.drop(rec)
	}
}

// drop counts a record the queue had no room for. Its metrics are still
// observed so the request counters stay true under overload.
func (r *Recorder) drop(rec *model.TxRecord) {
	n := r.dropped.Add(1)
	r.metrics.dropped.WithLabelValues(DropQueueFull).Inc()
	r.metrics.observe(rec)
	now := time.Now().UnixNano()
	last := r.lastWarn.Load()
	if now-last < int64(dropWarnEvery) || !r.lastWarn.CompareAndSwap(last, now) {
		return
	}
	since := n - r.warnDropped.Swap(n)
	r.cfg.Logger.Warn("transaction records dropped: the recorder queue is full",
		"dropped", since, "droppedTotal", n, "queueSize", r.cfg.QueueSize)
}

// Stats are the recorder's counters since New.
type Stats struct {
	Written          int64
	Batches          int64 // successful batch writes
	DroppedQueueFull int64
	DroppedWrite     int64 // write_failed and the spool's drops
	Queued           int
	Spooled          int64 // records waiting in the spool
	Replayed         int64 // spooled records written since New
}

// Stats returns the counters.
func (r *Recorder) Stats() Stats {
	st := Stats{
		Written:          r.written.Load(),
		Batches:          r.batches.Load(),
		DroppedQueueFull: r.dropped.Load(),
		DroppedWrite:     r.writeDropped.Load(),
		Queued:           r.w.queued(),
	}
	if r.spool != nil {
		st.Spooled, st.Replayed = r.spool.s.pending(), r.spool.replayed.Load()
	}
	return st
}

// Run writes queued records in batches and runs retention until ctx
// ends; then it drains the queue (within DrainTimeout) and returns nil.
// It returns an error only when it cannot start.
func (r *Recorder) Run(ctx context.Context) error {
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error { r.w.run(gctx); return nil })
	g.Go(func() error { r.retain(gctx); return nil })
	if r.spool != nil {
		g.Go(func() error { r.replay(gctx); return nil })
	}
	return g.Wait()
}
