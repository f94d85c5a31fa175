package async

import (
	"context"
	"fmt"
	"time"

	"github.com/s2r-project/s2r/internal/store"
)

// sweepJob names the sweeper for store.TryExclusive: with several
// instances on one PostgreSQL, one of them sweeps at a time.
const sweepJob = "async-expiry"

// sweepChunk bounds the rows one sweeper transaction changes, so the
// sweeper never holds the (SQLite) writer for long.
const sweepChunk = 1000

// sweepLoop sweeps at once and every SweepInterval until ctx ends.
func (x *Executions) sweepLoop(ctx context.Context) {
	t := time.NewTicker(x.cfg.SweepInterval)
	defer t.Stop()
	for {
		expired, removed, err := x.Sweep(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			x.cfg.Logger.Warn("async: sweep failed", "error", err.Error())
		case expired > 0 || removed > 0:
			x.cfg.Logger.Info("async: swept executions", "expired", expired, "removed", removed)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Sweep moves every waiting execution past its expiry to expired (DESIGN
// 6.5) and removes finished executions created more than
// default_retention_days ago. It returns the counts; when another
// instance is sweeping it returns zeros at once.
func (x *Executions) Sweep(ctx context.Context) (expired, removed int64, err error) {
	now := x.now()
	cut := now.Add(-time.Duration(x.settings().RetentionDays) * 24 * time.Hour)
	_, err = x.cfg.Store.TryExclusive(ctx, sweepJob, func(ctx context.Context) error {
		var err error
		if expired, err = x.chunked(ctx, func(tx *store.Tx) (int64, error) {
			return tx.ExpireAsyncExecutions(ctx, now, sweepChunk)
		}); err != nil {
			return fmt.Errorf("async: expire: %w", err)
		}
		if removed, err = x.chunked(ctx, func(tx *store.Tx) (int64, error) {
			return tx.DeleteAsyncExecutionsBefore(ctx, cut, sweepChunk)
		}); err != nil {
			return fmt.Errorf("async: retention: %w", err)
		}
		return nil
	})
	return expired, removed, err
}

// chunked runs step in its own transaction until it changes fewer than
// sweepChunk rows, and returns the total.
func (x *Executions) chunked(ctx context.Context, step func(*store.Tx) (int64, error)) (int64, error) {
	var total int64
	for {
		var n int64
		err := x.cfg.Store.Transact(ctx, func(tx *store.Tx) (err error) {
			n, err = step(tx)
			return err
		})
		if err != nil {
			return total, err
		}
		total += n
		if n < sweepChunk {
			return total, nil
		}
	}
}
