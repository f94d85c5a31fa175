package observe

import (
	"context"
	"fmt"
	"time"

	"github.com/s2r-project/s2r/internal/store"
)

// retentionJob names the retention job for store.TryExclusive: with
// several instances on one PostgreSQL, one of them deletes at a time.
const retentionJob = "runtime-tx-retention"

// retentionChunk bounds the rows one delete transaction removes, so the
// retention job never holds the (SQLite) writer for long.
const retentionChunk = 5000

// retain runs Retain at start and every RetentionInterval until ctx ends.
func (r *Recorder) retain(ctx context.Context) {
	t := time.NewTicker(r.cfg.RetentionInterval)
	defer t.Stop()
	for {
		if n, err := r.Retain(ctx); err != nil && ctx.Err() == nil {
			r.cfg.Logger.Warn("recorder: retention failed", "error", err.Error())
		} else if n > 0 {
			r.cfg.Logger.Info("recorder: retention removed runtime logs", "removed", n, "retentionDays", r.settings().RetentionDays)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Retain deletes the runtime logs older than default_retention_days and
// returns how many it removed. When another instance is already running
// the job it returns 0 at once.
func (r *Recorder) Retain(ctx context.Context) (int64, error) {
	cut := r.cfg.Now().Add(-time.Duration(r.settings().RetentionDays) * 24 * time.Hour)
	var removed int64
	_, err := r.cfg.Store.TryExclusive(ctx, retentionJob, func(ctx context.Context) error {
		for {
			var n int64
			err := r.cfg.Store.Transact(ctx, func(tx *store.Tx) (err error) {
				n, err = tx.DeleteTxLogsBefore(ctx, cut, retentionChunk)
				return err
			})
			if err != nil {
				return fmt.Errorf("observe: retention: %w", err)
			}
			removed += n
			if n < retentionChunk {
				return nil
			}
		}
	})
	return removed, err
}
