package observe

import (
	"context"
	"time"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

// trafficMarkEvery is how stale a service's lastTrafficAt may get: a
// service is marked at most once per interval, so a busy service costs one
// UPDATE a minute, not one per batch. The service list's traffic filter
// ("with" or "without" traffic) needs no finer grain.
const trafficMarkEvery = time.Minute

// markTraffic sets lastTrafficAt of the services of a written batch
// (the writer and the spool's replayer, one at a time). A failure is
// logged: the records are stored, and the next batch of the service tries
// again.
func (r *Recorder) markTraffic(ctx context.Context, batch []model.TxLog) {
	r.markMu.Lock()
	defer r.markMu.Unlock()
	latest := map[string]time.Time{}
	for i := range batch {
		id, at := batch[i].ServiceID, batch[i].OccurredAt
		if id == "" || r.marked[id].Add(trafficMarkEvery).After(at) {
			continue
		}
		if at.After(latest[id]) {
			latest[id] = at
		}
	}
	if len(latest) == 0 {
		return
	}
	err := r.cfg.Store.Transact(ctx, func(tx *store.Tx) error {
		for id, at := range latest {
			if err := tx.MarkServiceTraffic(ctx, id, at); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		r.cfg.Logger.Warn("recorder: lastTrafficAt not updated", "services", len(latest), "error", err.Error())
		return
	}
	for id, at := range latest {
		r.marked[id] = at
	}
}
