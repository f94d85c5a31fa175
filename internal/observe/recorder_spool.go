package observe

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/s2r-project/s2r/internal/model"
)

// Drop reasons of the spool (s2r_tx_records_dropped_total).
const (
	DropSpoolFull    = "spool_full"    // the spool was at S2R_TX_SPOOL_MAX_MB
	DropSpoolExpired = "spool_expired" // spooled longer than S2R_TX_SPOOL_MAX_AGE_HOURS
	DropSpoolBad     = "spool_unreadable"
)

// replayInterval is how often the replayer tries the database again while
// records wait in the spool.
const replayInterval = 500 * time.Millisecond

// spoolState is the recorder's side of the spool: its counters and the
// once-per-outage log flags.
type spoolState struct {
	s        *spool
	spooled  prometheus.Counter
	replayed atomic.Int64
	// warned is set by the first spill of an outage and dropWarned by its
	// first drop; both are cleared when the spool is empty again.
	warned, dropWarned atomic.Bool
}

// newSpoolMetrics registers the spool's collectors.
func (r *Recorder) newSpoolMetrics(reg prometheus.Registerer) error {
	st := r.spool
	st.spooled = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "s2r_tx_records_spooled_total",
		Help: "Transaction records the database could not take, kept in the on-disk spool to be written later.",
	})
	waiting := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "s2r_tx_spool_records",
		Help: "Transaction records waiting in the on-disk spool for the database.",
	}, func() float64 { return float64(st.s.pending()) })
	size := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "s2r_tx_spool_bytes",
		Help: "Size of the on-disk spool of transaction records.",
	}, func() float64 { return float64(st.s.size()) })
	for _, c := range []prometheus.Collector{st.spooled, waiting, size} {
		if err := reg.Register(c); err != nil {
			return err
		}
	}
	r.metrics.dropped.WithLabelValues(DropSpoolFull)
	r.metrics.dropped.WithLabelValues(DropSpoolExpired)
	r.metrics.dropped.WithLabelValues(DropSpoolBad)
	return nil
}

// backlog reports whether spooled records wait: new batches then go to
// the spool behind them, so records are written in order.
func (r *Recorder) backlog() bool { return r.spool.s.pending() > 0 }

// spill keeps a batch the database did not take; past the spool's size it
// is dropped, counted and logged once per outage.
func (r *Recorder) spill(batch []model.TxLog) {
	st := r.spool
	err := st.s.append(batch)
	if err == nil {
		st.spooled.Add(float64(len(batch)))
		if st.warned.CompareAndSwap(false, true) {
			r.cfg.Logger.Warn("recorder: the database does not take transaction records; keeping them in the spool",
				"dir", st.s.dir, "maxBytes", st.s.maxBytes)
		}
		return
	}
	reason := DropSpoolFull
	if !errors.Is(err, errSpoolFull) {
		reason = DropWriteFailed // the spool's disk failed
	}
	r.spoolDropped(len(batch), reason, err)
}

// spoolDropped counts records the spool could not keep or kept too long.
func (r *Recorder) spoolDropped(n int, reason string, err error) {
	r.writeDropped.Add(int64(n))
	r.metrics.dropped.WithLabelValues(reason).Add(float64(n))
	if r.spool.dropWarned.CompareAndSwap(false, true) {
		r.cfg.Logger.Error("recorder: transaction records dropped from the spool (logged once per outage)",
			"reason", reason, "dropped", n, "error", err.Error())
	}
}

// replay writes the spooled records to the database, oldest first, until
// ctx ends. A file is removed only once its records are stored.
func (r *Recorder) replay(ctx context.Context) {
	t := time.NewTicker(replayInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		for ctx.Err() == nil && r.replayHead(ctx) {
		}
	}
}

// replayHead writes (or expires) the spool's oldest file and reports
// whether the next one may be tried at once.
func (r *Recorder) replayHead(ctx context.Context) bool {
	st := r.spool
	f, ok := st.s.head()
	if !ok {
		if st.warned.Swap(false) {
			r.cfg.Logger.Info("recorder: the spool is written; transaction records go to the database again",
				"replayed", st.replayed.Load())
		}
		st.dropWarned.Store(false)
		return false
	}
	if st.s.expired(f) {
		r.spoolDropped(f.records, DropSpoolExpired, errors.New("spooled longer than the age limit"))
		r.removeSpooled(f)
		return true
	}
	logs, err := st.s.read(f)
	if err != nil { // unreadable: dropped rather than retried for ever
		r.spoolDropped(f.records, DropSpoolBad, err)
		r.removeSpooled(f)
		return true
	}
	if err := r.cfg.Store.CopyTxLogs(ctx, logs); err != nil {
		return false
	}
	r.removeSpooled(f)
	st.replayed.Add(int64(len(logs)))
	r.batchWritten(ctx, logs)
	return true
}

// removeSpooled takes f out of the spool, logging a file left on disk.
func (r *Recorder) removeSpooled(f spoolFile) {
	if err := r.spool.s.remove(f); err != nil {
		r.cfg.Logger.Error("recorder: a spool file could not be deleted", "error", err.Error())
	}
}
