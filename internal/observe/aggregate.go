package observe

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/store"
)

// aggregationJob names the aggregation job for store.TryExclusive: with
// several instances on one PostgreSQL, one of them aggregates at a time.
const aggregationJob = "traffic-aggregation"

// Aggregation defaults.
const (
	// DefaultSettle is how long after a raw row id was seen the job still
	// looks for rows with lower ids: on PostgreSQL an id is taken when a
	// row is inserted, so a slow transaction can make a lower id visible
	// after a higher one. Rows are written in short batch transactions.
	DefaultSettle = 2 * time.Minute
	// aggregateRetentionFloor keeps at least this much aggregated history,
	// so the longest window (60d) is answered even when raw records are
	// kept for less.
	aggregateRetentionFloor = 60 * 24 * time.Hour
	// aggregateRetentionEvery spaces the deletion of old aggregates.
	aggregateRetentionEvery = time.Hour
)

// AggregatorConfig configures an Aggregator. Store is required.
type AggregatorConfig struct {
	Store *store.Store
	// Settings gives aggregation_interval_seconds and
	// default_retention_days (the routing.Reloader in s2r serve); nil:
	// the defaults.
	Settings SettingsSource
	Logger   *slog.Logger
	Now      func() time.Time
	// Settle is DefaultSettle when 0.
	Settle time.Duration
	// Interval, when not 0, replaces setting aggregation_interval_seconds
	// (tests).
	Interval time.Duration
}

// Aggregator maintains the hourly aggregation tables (SPEC 4.11 rule 1,
// DESIGN 9): every aggregation_interval_seconds it re-aggregates, from the
// raw records, every hour that received records since its previous run,
// back-dated ones included, found through the raw row ids rather than the
// clock. An hour is always recomputed whole, so a run repeated (or run
// twice by a crash between the write and the progress mark) gives the
// same rows.
type Aggregator struct {
	cfg           AggregatorConfig
	lastRetention time.Time
}

// NewAggregator returns an Aggregator; Run starts it.
func NewAggregator(cfg AggregatorConfig) (*Aggregator, error) {
	if cfg.Store == nil {
		return nil, errors.New("observe: the aggregator needs a store")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Settle <= 0 {
		cfg.Settle = DefaultSettle
	}
	return &Aggregator{cfg: cfg}, nil
}

// Run aggregates at start and then every interval until ctx ends. A
// failed run is logged and retried at the next interval. A wait is
// measured again whenever a new settings snapshot replaces the one it
// read, so a shorter interval applies at once.
func (a *Aggregator) Run(ctx context.Context) error {
	for {
		started := time.Now()
		if _, err := a.RunOnce(ctx); err != nil && ctx.Err() == nil {
			a.cfg.Logger.Warn("aggregation failed", "error", err.Error())
		}
		if !a.wait(ctx, started) {
			return nil
		}
	}
}

// wait waits until one interval after started; false when ctx ended.
func (a *Aggregator) wait(ctx context.Context, started time.Time) bool {
	t := time.NewTimer(time.Hour)
	defer t.Stop()
	for {
		s := a.settings()
		wait := time.Until(started.Add(a.interval(s)))
		if wait <= 0 {
			return true
		}
		t.Reset(wait)
		select {
		case <-ctx.Done():
			return false
		case <-s.Replaced():
		case <-t.C:
		}
	}
}

// settings returns the current settings snapshot.
func (a *Aggregator) settings() routing.Settings {
	if a.cfg.Settings == nil {
		return routing.DefaultSettings()
	}
	return a.cfg.Settings.Settings()
}

// interval is Config.Interval or setting aggregation_interval_seconds.
func (a *Aggregator) interval(s routing.Settings) time.Duration {
	if a.cfg.Interval > 0 {
		return a.cfg.Interval
	}
	return s.AggregationInterval
}

// RunResult reports one run.
type RunResult struct {
	// Ran is false when another instance was running the job.
	Ran bool
	// Hours is the number of source hours re-aggregated.
	Hours int
}

// RunOnce runs the job once for every source, unless another instance is
// running it.
func (a *Aggregator) RunOnce(ctx context.Context) (RunResult, error) {
	var res RunResult
	ran, err := a.cfg.Store.TryExclusive(ctx, aggregationJob, func(ctx context.Context) error {
		var errs []error
		// Edge hours older than the retention of their raw events are
		// left as they are: retention is removing what they were made of.
		edgeCut := a.edgeCut()
		// Discovery rows whose service match changed have their hours
		// marked, so the edge aggregates follow the match.
		if _, err := a.cfg.Store.DirtyRematchedRows(ctx, edgeCut); err != nil {
			errs = append(errs, err)
		}
		for _, src := range store.TrafficSources() {
			cut := edgeCut
			if src == model.SourceRuntime {
				cut = time.Time{}
			}
			n, err := a.aggregateSource(ctx, src, cut)
			res.Hours += n
			if err != nil {
				errs = append(errs, err)
			}
		}
		if err := a.retain(ctx); err != nil {
			errs = append(errs, err)
		}
		return errors.Join(errs...)
	})
	res.Ran = ran
	return res, err
}

// edgeCut is the start of the oldest hour of edge traffic the job
// re-aggregates: default_retention_days ago.
func (a *Aggregator) edgeCut() time.Time {
	days := a.settings().RetentionDays
	return a.cfg.Now().Add(-time.Duration(days) * 24 * time.Hour).UTC().Truncate(time.Hour)
}

// aggregateSource re-aggregates the hours named by source's change log
// entries with an id above the state's low-water mark (hours before cut
// excepted), then moves the marks and prunes the change entries passed.
func (a *Aggregator) aggregateSource(ctx context.Context, source string, cut time.Time) (int, error) {
	st, err := a.cfg.Store.AggregationState(ctx, source)
	if err != nil {
		return 0, err
	}
	now := a.cfg.Now()
	maxID, err := a.cfg.Store.TrafficMaxID(ctx, source)
	if err != nil {
		return 0, err
	}
	n := 0
	if maxID > st.LowWater {
		hours, err := a.cfg.Store.TrafficHoursBetweenIDs(ctx, source, st.LowWater, maxID)
		if err != nil {
			return 0, err
		}
		var days []time.Time
		for _, h := range hours {
			if h.Before(cut) {
				continue
			}
			if err := a.AggregateHour(ctx, source, h); err != nil {
				return n, err
			}
			n++
			if d := h.UTC().Truncate(24 * time.Hour); !slices.Contains(days, d) {
				days = append(days, d)
			}
		}
		// The days are rolled up before the marks move, so a crash
		// between leaves their hours to be done again.
		for _, d := range days {
			if err := a.cfg.Store.Transact(ctx, func(tx *store.Tx) error { return tx.RollupTrafficDay(ctx, source, d) }); err != nil {
				return n, err
			}
		}
	}
	next := st
	switch {
	case st.RefreshedAt.IsZero():
		// First run: everything up to maxID has just been aggregated.
		next.LowWater, next.HighWater, next.HighWaterAt = maxID, maxID, now
	case now.Sub(st.HighWaterAt) >= a.cfg.Settle:
		next.LowWater, next.HighWater, next.HighWaterAt = st.HighWater, maxID, now
	}
	next.RefreshedAt = a.cfg.Now()
	if err := a.cfg.Store.Transact(ctx, func(tx *store.Tx) error { return tx.PutAggregationState(ctx, next) }); err != nil {
		return n, err
	}
	return n, a.cfg.Store.PruneTrafficChanges(ctx, source, next.LowWater)
}

// AggregateHour recomputes the aggregates of one source hour from its raw
// records and replaces the stored ones (its day's rollup is the caller's). The raw rows are read outside the
// write transaction, so SQLite's single writer is held only for the
// replacement.
func (a *Aggregator) AggregateHour(ctx context.Context, source string, hour time.Time) error {
	hour = hour.UTC().Truncate(time.Hour)
	rows, err := a.cfg.Store.ComputeTrafficHour(ctx, source, hour)
	if err != nil {
		return err
	}
	err = a.cfg.Store.Transact(ctx, func(tx *store.Tx) error { return tx.ReplaceTrafficHour(ctx, source, hour, rows) })
	if err != nil {
		return fmt.Errorf("observe: aggregate %s %s: %w", source, hour.Format(time.RFC3339), err)
	}
	return nil
}

// retain deletes aggregates older than default_retention_days, but never
// those of the last 60 days, at most once an hour.
func (a *Aggregator) retain(ctx context.Context) error {
	now := a.cfg.Now()
	if now.Sub(a.lastRetention) < aggregateRetentionEvery {
		return nil
	}
	keep := max(time.Duration(a.settings().RetentionDays)*24*time.Hour, aggregateRetentionFloor)
	err := a.cfg.Store.Transact(ctx, func(tx *store.Tx) error {
		if _, err := tx.DeleteTrafficHourlyBefore(ctx, now.Add(-keep).Truncate(time.Hour)); err != nil {
			return err
		}
		return tx.DeleteVanishedRowMatches(ctx)
	})
	if err == nil {
		a.lastRetention = now
	}
	return err
}
