package discovery

import (
	"context"
	"fmt"
	"time"

	"github.com/s2r-project/s2r/internal/store"
)

// retentionJob names the retention job for store.TryExclusive: with
// several instances on one PostgreSQL, one deletes at a time.
const retentionJob = "discovery-retention"

// retentionChunk bounds the events one delete transaction removes, so
// retention never holds the (SQLite) writer for long.
const retentionChunk = 5000

// minuteRetention is how long per-minute rollups are kept: the alert
// window is one hour.
const minuteRetention = 3 * time.Hour

// retentionStartDelay spaces the first run from start-up, when every
// job runs at once.
const retentionStartDelay = time.Minute

// retainLoop runs Retain a minute after start and every RetentionInterval.
func (s *Service) retainLoop(ctx context.Context) {
	select {
	case <-ctx.Done():
		return
	case <-time.After(min(retentionStartDelay, s.cfg.RetentionInterval)):
	}
	t := time.NewTicker(s.cfg.RetentionInterval)
	defer t.Stop()
	for {
		if n, err := s.Retain(ctx); err != nil && ctx.Err() == nil {
			s.log.Warn("discovery: retention failed", "error", err.Error())
		} else if n > 0 {
			s.log.Info("discovery: retention removed ingested data", "removed", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Retain deletes lb events, generic logs, rollups and rows older than
// default_retention_days (per-minute rollups after three hours) and
// returns how many rows it removed. When another instance is running the
// job it returns 0 at once.
func (s *Service) Retain(ctx context.Context) (int64, error) {
	now := s.cfg.Now()
	cut := now.Add(-time.Duration(s.settings().RetentionDays) * 24 * time.Hour)
	var removed int64
	_, err := s.cfg.Store.TryExclusive(ctx, retentionJob, func(ctx context.Context) error {
		for {
			var lb, gen int64
			err := s.cfg.Store.Transact(ctx, func(tx *store.Tx) (err error) {
				lb, gen, err = tx.DeleteIngestEventsBefore(ctx, cut, retentionChunk)
				return err
			})
			if err != nil {
				return fmt.Errorf("discovery: retention: %w", err)
			}
			removed += lb + gen
			if lb < retentionChunk && gen < retentionChunk {
				break
			}
		}
		return s.cfg.Store.Transact(ctx, func(tx *store.Tx) error {
			n, err := tx.DeleteDiscoveryRollupsBefore(ctx, cut, now.Add(-minuteRetention))
			removed += n
			return err
		})
	})
	return removed, err
}
