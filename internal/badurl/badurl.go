// Package badurl records runtime requests rejected with S2R-RUN-0405 for the
// bad-URL summary. The request path only enqueues into a bounded channel;
// Run drains it and writes batches to the store, and prunes rows older
// than the longest summary window (720 hours).
package badurl

import (
	"context"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/s2r-project/s2r/internal/store"
)

// Defaults.
const (
	DefaultQueueSize     = 4096
	DefaultBatchSize     = 256
	DefaultFlushInterval = time.Second
	// Retention is the longest window the bad-URL summary accepts
	// (windowHours bounded to 1..720, SPEC 8).
	Retention     = 720 * time.Hour
	pruneInterval = time.Hour
)

// Config configures a Recorder.
type Config struct {
	Store         *store.Store
	Logger        *slog.Logger
	QueueSize     int
	BatchSize     int
	FlushInterval time.Duration
}

// Recorder implements dataplane.BadURLRecorder.
type Recorder struct {
	cfg     Config
	queue   chan store.BadURLAttempt
	dropped atomic.Int64
	written atomic.Int64
}

// New returns a Recorder; call Run to start writing.
func New(cfg Config) *Recorder {
	if cfg.QueueSize <= 0 {
		cfg.QueueSize = DefaultQueueSize
	}
	if cfg.BatchSize <= 0 {
		cfg.BatchSize = DefaultBatchSize
	}
	if cfg.FlushInterval <= 0 {
		cfg.FlushInterval = DefaultFlushInterval
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	return &Recorder{cfg: cfg, queue: make(chan store.BadURLAttempt, cfg.QueueSize)}
}

// RecordBadURL enqueues one attempt. It never blocks: when the queue is
// full the attempt is dropped and counted.
func (r *Recorder) RecordBadURL(method, path string, at time.Time) {
	select {
	case r.queue <- store.BadURLAttempt{Path: path, Method: method, At: at}:
	default:
		r.dropped.Add(1)
	}
}

// Dropped returns how many attempts were dropped because the queue was full.
func (r *Recorder) Dropped() int64 { return r.dropped.Load() }

// Written returns how many attempts were stored.
func (r *Recorder) Written() int64 { return r.written.Load() }

// Register exposes s2r_bad_url_attempts_written_total and
// s2r_bad_url_attempts_dropped_total on reg.
func (r *Recorder) Register(reg prometheus.Registerer) error {
	for _, c := range []prometheus.Collector{
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "s2r_bad_url_attempts_written_total",
			Help: "Requests rejected with S2R-RUN-0405 stored for the bad-URL summary.",
		}, func() float64 { return float64(r.Written()) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "s2r_bad_url_attempts_dropped_total",
			Help: "Requests rejected with S2R-RUN-0405 not stored (queue full or write failed).",
		}, func() float64 { return float64(r.Dropped()) }),
	} {
		if err := reg.Register(c); err != nil {
			return err
		}
	}
	return nil
}

// Run writes queued attempts in batches until ctx ends, then flushes what
// is left (bounded by a short timeout) and returns nil.
func (r *Recorder) Run(ctx context.Context) error {
	tick := time.NewTicker(r.cfg.FlushInterval)
	defer tick.Stop()
	lastPrune := time.Time{}
	var warnedDropped int64
	batch := make([]store.BadURLAttempt, 0, r.cfg.BatchSize)
	for {
		select {
		case a := <-r.queue:
			batch = append(batch, a)
			if len(batch) >= r.cfg.BatchSize {
				batch = r.flush(ctx, batch)
			}
		case <-tick.C:
			batch = r.flush(ctx, batch)
			if d := r.dropped.Load(); d > warnedDropped {
				r.cfg.Logger.Warn("bad-URL attempts dropped", "dropped", d-warnedDropped, "droppedTotal", d)
				warnedDropped = d
			}
			if time.Since(lastPrune) >= pruneInterval {
				r.prune(ctx)
				lastPrune = time.Now()
			}
		case <-ctx.Done():
			r.drain(batch)
			return nil
		}
	}
}

// drain flushes the batch and whatever is still queued after shutdown.
func (r *Recorder) drain(batch []store.BadURLAttempt) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for {
		select {
		case a := <-r.queue:
			batch = append(batch, a)
		default:
			r.flush(ctx, batch)
			return
		}
	}
}

func (r *Recorder) flush(ctx context.Context, batch []store.BadURLAttempt) []store.BadURLAttempt {
	if len(batch) == 0 {
		return batch
	}
	err := r.cfg.Store.Transact(ctx, func(tx *store.Tx) error {
		return tx.InsertBadURLAttempts(ctx, batch)
	})
	if err != nil {
		r.dropped.Add(int64(len(batch)))
		r.cfg.Logger.Warn("bad-URL attempts not stored", "count", len(batch), "error", err.Error())
	} else {
		r.written.Add(int64(len(batch)))
	}
	return batch[:0]
}

// pruneJob names the pruning for store.TryExclusive: with several
// instances on one PostgreSQL, one of them prunes.
const pruneJob = "bad-url-prune"

func (r *Recorder) prune(ctx context.Context) {
	_, err := r.cfg.Store.TryExclusive(ctx, pruneJob, func(ctx context.Context) error {
		return r.cfg.Store.Transact(ctx, func(tx *store.Tx) error {
			_, err := tx.DeleteBadURLAttemptsBefore(ctx, time.Now().Add(-Retention))
			return err
		})
	})
	if err != nil && ctx.Err() == nil {
		r.cfg.Logger.Warn("bad-URL attempts not pruned", "error", err.Error())
	}
}
