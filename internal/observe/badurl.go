package observe

import (
	"context"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/sync/errgroup"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

// Defaults of the bad-URL recorder.
const (
	defaultBadURLQueueSize     = 4096
	defaultBadURLBatchSize     = 256
	defaultBadURLFlushInterval = time.Second
	badURLDrainTimeout         = 5 * time.Second
	// BadURLRetention is the longest window the bad-URL summary accepts
	// (windowHours bounded to 1..720, SPEC 8).
	BadURLRetention     = 720 * time.Hour
	badURLPruneInterval = time.Hour
)

// BadURLConfig configures a BadURLRecorder.
type BadURLConfig struct {
	Store         *store.Store
	Logger        *slog.Logger
	QueueSize     int           // default 4096
	BatchSize     int           // default 256 attempts per INSERT batch
	FlushInterval time.Duration // default 1s
}

// BadURLRecorder records runtime requests rejected with S2R-RUN-0405 for
// the bad-URL summary; it implements dataplane.BadURLRecorder. The request
// path only enqueues into a bounded queue; Run writes batches to the store
// (one attempt each: a failed batch is dropped and counted) and prunes
// rows older than BadURLRetention.
type BadURLRecorder struct {
	cfg     BadURLConfig
	w       *batchWriter[model.BadURLAttempt, model.BadURLAttempt]
	dropped atomic.Int64 // queue full or write failed
	written atomic.Int64
}

// NewBadURLRecorder returns a BadURLRecorder; call Run to start writing.
func NewBadURLRecorder(cfg BadURLConfig) *BadURLRecorder {
	cfg.QueueSize = orDefault(cfg.QueueSize, defaultBadURLQueueSize)
	cfg.BatchSize = orDefault(cfg.BatchSize, defaultBadURLBatchSize)
	cfg.FlushInterval = orDefault(cfg.FlushInterval, defaultBadURLFlushInterval)
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	r := &BadURLRecorder{cfg: cfg}
	r.w = newBatchWriter(batchConfig[model.BadURLAttempt, model.BadURLAttempt]{
		QueueSize: cfg.QueueSize, BatchSize: cfg.BatchSize, FlushInterval: cfg.FlushInterval,
		DrainTimeout: badURLDrainTimeout, Attempts: 1,
		Convert: func(a model.BadURLAttempt) model.BadURLAttempt { return a },
		Write:   r.writeBatch,
		Written: func(_ context.Context, batch []model.BadURLAttempt) { r.written.Add(int64(len(batch))) },
		Failed:  r.batchFailed, Abandoned: r.drainAbandoned,
	})
	return r
}

// RecordBadURL enqueues one attempt. It never blocks: when the queue is
// full the attempt is dropped and counted.
func (r *BadURLRecorder) RecordBadURL(method, path string, at time.Time) {
	if !r.w.offer(model.BadURLAttempt{Path: path, Method: method, At: at}) {
		r.dropped.Add(1)
	}
}

// Dropped returns how many attempts were not stored: the queue was full
// or their write failed.
func (r *BadURLRecorder) Dropped() int64 { return r.dropped.Load() }

// Written returns how many attempts were stored.
func (r *BadURLRecorder) Written() int64 { return r.written.Load() }

// Register exposes s2r_bad_url_attempts_written_total and
// s2r_bad_url_attempts_dropped_total on reg.
func (r *BadURLRecorder) Register(reg prometheus.Registerer) error {
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

// Run writes queued attempts in batches, warns of drops and prunes until
// ctx ends, then writes what is left (within a short timeout) and returns
// nil.
func (r *BadURLRecorder) Run(ctx context.Context) error {
	var g errgroup.Group
	g.Go(func() error { r.w.run(ctx); return nil })
	g.Go(func() error { r.maintain(ctx); return nil })
	return g.Wait()
}

// maintain warns, once per FlushInterval, of the attempts dropped since
// the last warning, and prunes once per badURLPruneInterval (first at the
// first tick).
func (r *BadURLRecorder) maintain(ctx context.Context) {
	tick := time.NewTicker(r.cfg.FlushInterval)
	defer tick.Stop()
	var lastPrune time.Time
	var warnedDropped int64
	for {
		select {
		case <-tick.C:
			if d := r.dropped.Load(); d > warnedDropped {
				r.cfg.Logger.Warn("bad-URL attempts dropped", "dropped", d-warnedDropped, "droppedTotal", d)
				warnedDropped = d
			}
			if time.Since(lastPrune) >= badURLPruneInterval {
				r.prune(ctx)
				lastPrune = time.Now()
			}
		case <-ctx.Done():
			return
		}
	}
}

func (r *BadURLRecorder) writeBatch(ctx context.Context, batch []model.BadURLAttempt) error {
	return r.cfg.Store.Transact(ctx, func(tx *store.Tx) error {
		return tx.InsertBadURLAttempts(ctx, batch)
	})
}

func (r *BadURLRecorder) batchFailed(n int, err error) {
	r.dropped.Add(int64(n))
	r.cfg.Logger.Warn("bad-URL attempts not stored", "count", n, "error", err.Error())
}

func (r *BadURLRecorder) drainAbandoned(n int) {
	r.dropped.Add(int64(n))
	r.cfg.Logger.Warn("bad-URL attempts not stored: shutdown drain timed out", "count", n)
}

// badURLPruneJob names the pruning for store.TryExclusive: with several
// instances on one PostgreSQL, one of them prunes.
const badURLPruneJob = "bad-url-prune"

func (r *BadURLRecorder) prune(ctx context.Context) {
	_, err := r.cfg.Store.TryExclusive(ctx, badURLPruneJob, func(ctx context.Context) error {
		return r.cfg.Store.Transact(ctx, func(tx *store.Tx) error {
			_, err := tx.DeleteBadURLAttemptsBefore(ctx, time.Now().Add(-BadURLRetention))
			return err
		})
	})
	if err != nil && ctx.Err() == nil {
		r.cfg.Logger.Warn("bad-URL attempts not pruned", "error", err.Error())
	}
}
