package observe

import (
	"context"
	"time"
)

// retryBackoff is the wait before a batch's second write attempt; it
// doubles with each further attempt.
const retryBackoff = 100 * time.Millisecond

// batchConfig configures a batchWriter: the queue and batch bounds, and
// the hooks that write a batch and count the outcome.
type batchConfig[In, Out any] struct {
	QueueSize     int
	BatchSize     int           // items per write, at most
	FlushInterval time.Duration // a partial batch waits at most this long
	DrainTimeout  time.Duration // how long shutdown may spend writing the queue
	Attempts      int           // write attempts per batch, retried with backoff

	// Convert turns a queued item into what is written; it runs on the
	// writer goroutine, off the request path.
	Convert func(In) Out
	// Write stores one batch (one attempt).
	Write func(ctx context.Context, batch []Out) error
	// Written follows a successful write.
	Written func(ctx context.Context, batch []Out)
	// Failed counts a batch still not written after Attempts.
	Failed func(n int, err error)
	// Abandoned counts the items still queued when the drain timed out.
	Abandoned func(n int)

	// Spill, when set, takes every batch that was not written, instead of
	// Failed and Abandoned: after Attempts, at once while Backlog reports
	// spilled items waiting (so batches keep their order), and at shutdown
	// once the drain has timed out. It counts what it cannot keep.
	Spill func(batch []Out)
	// Backlog reports whether spilled items wait to be written.
	Backlog func() bool
}

// batchWriter moves items from a bounded queue into the store in batches:
// the one queue-to-batch shape of the transaction recorder and of the
// bad-URL recorder. Producers call offer, which never waits; one goroutine
// calls run.
type batchWriter[In, Out any] struct {
	cfg   batchConfig[In, Out]
	queue chan In
}

func newBatchWriter[In, Out any](cfg batchConfig[In, Out]) *batchWriter[In, Out] {
	return &batchWriter[In, Out]{cfg: cfg, queue: make(chan In, cfg.QueueSize)}
}

// offer enqueues v without waiting; false means the queue is full and v
// was not taken.
func (w *batchWriter[In, Out]) offer(v In) bool {
	select {
	case w.queue <- v:
		return true
	default:
		return false
	}
}

// queued returns how many items wait in the queue.
func (w *batchWriter[In, Out]) queued() int { return len(w.queue) }

// run is the writer loop: a batch is written when it is full or at the
// FlushInterval tick after its first item. When ctx ends it drains.
func (w *batchWriter[In, Out]) run(ctx context.Context) {
	// Writes survive ctx so shutdown can drain; they are cut DrainTimeout
	// after ctx ends.
	wctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	stop := context.AfterFunc(ctx, func() {
		t := time.AfterFunc(w.cfg.DrainTimeout, cancel)
		context.AfterFunc(wctx, func() { t.Stop() })
	})
	defer stop()

	batch := make([]Out, 0, w.cfg.BatchSize)
	tick := time.NewTicker(w.cfg.FlushInterval)
	defer tick.Stop()
	for {
		select {
		case v := <-w.queue:
			batch = w.fill(append(batch, w.cfg.Convert(v)))
			if len(batch) >= w.cfg.BatchSize {
				batch = w.flush(wctx, batch)
			}
		case <-tick.C:
			if len(batch) > 0 {
				batch = w.flush(wctx, batch)
			}
		case <-ctx.Done():
			w.drain(wctx, batch)
			return
		}
	}
}

// fill moves queued items into batch without waiting, up to BatchSize.
func (w *batchWriter[In, Out]) fill(batch []Out) []Out {
	for len(batch) < w.cfg.BatchSize {
		select {
		case v := <-w.queue:
			batch = append(batch, w.cfg.Convert(v))
		default:
			return batch
		}
	}
	return batch
}

// drain writes everything queued, until the queue is empty or wctx ends;
// whatever is left then is abandoned.
func (w *batchWriter[In, Out]) drain(wctx context.Context, batch []Out) {
	for {
		batch = w.fill(batch)
		if len(batch) == 0 {
			return
		}
		batch = w.flush(wctx, batch)
		if wctx.Err() != nil && w.cfg.Spill == nil {
			if n := len(w.queue); n > 0 {
				w.cfg.Abandoned(n)
			}
			return
		}
	}
}

// flush writes batch, retrying up to Attempts times; a batch that still
// fails is spilled, or counted by Failed without Spill. While spilled
// items wait, batch is spilled at once. It returns batch emptied for
// reuse.
func (w *batchWriter[In, Out]) flush(wctx context.Context, batch []Out) []Out {
	if w.cfg.Spill != nil && w.cfg.Backlog() {
		w.cfg.Spill(batch)
		clear(batch)
		return batch[:0]
	}
	var err error
	for attempt := range w.cfg.Attempts {
		if attempt > 0 {
			select {
			case <-wctx.Done():
			case <-time.After(retryBackoff << (attempt - 1)):
			}
		}
		if wctx.Err() != nil {
			err = wctx.Err()
			break
		}
		if err = w.cfg.Write(wctx, batch); err == nil {
			w.cfg.Written(wctx, batch)
			break
		}
	}
	switch {
	case err != nil && w.cfg.Spill != nil:
		w.cfg.Spill(batch)
	case err != nil:
		w.cfg.Failed(len(batch), err)
	}
	clear(batch)
	return batch[:0]
}
