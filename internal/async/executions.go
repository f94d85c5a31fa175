// Package async keeps the async callback executions of publish operations
// (SPEC 2.2, 3.1, 4.5; DESIGN 6.5, 9) over the store: Executions is the
// runtime's dataplane.AsyncExecutions, runs the expiry sweeper, and serves
// the /admin/v1/async-executions routes (Routes), which internal/admin
// registers, authorizes and documents with its own.
package async

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/s2r-project/s2r/internal/dataplane"
	"github.com/s2r-project/s2r/internal/httpx"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/store"
)

// Config configures Executions.
type Config struct {
	Store  *store.Store
	Logger *slog.Logger
	// Now is the clock; default time.Now.
	Now func() time.Time
	// SweepInterval is the period of the expiry sweeper; default 10 s:
	// with several instances the sweeper's leader is also replaced at the
	// next tick of another instance, which must come within 30 s of its
	// death (docs/decisions-resilience.md).
	SweepInterval time.Duration
	// Settings gives the runtime's settings snapshot
	// (async_callback_ttl_seconds, default_retention_days); nil: the
	// defaults.
	Settings SettingsSource
	// MaxPayloadMB bounds the raw callbacks the admin API accepts;
	// default httpx.DefaultMaxPayloadMB.
	MaxPayloadMB httpx.MaxPayloadFunc
}

// SettingsSource gives the runtime's current settings, compiled with the
// route table (routing.Reloader implements it); it must not do I/O.
type SettingsSource interface {
	Settings() routing.Settings
}

// Executions stores async executions. The settings it needs on the
// request path (async_callback_ttl_seconds) come from the runtime's
// settings snapshot, never from the store.
type Executions struct {
	cfg Config
}

var _ dataplane.AsyncExecutions = (*Executions)(nil)

// New returns Executions.
func New(cfg Config) *Executions {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.SweepInterval <= 0 {
		cfg.SweepInterval = 10 * time.Second
	}
	return &Executions{cfg: cfg}
}

// now is the clock at the store's precision.
func (x *Executions) now() time.Time { return x.cfg.Now().UTC().Truncate(time.Microsecond) }

// settings returns the current settings snapshot.
func (x *Executions) settings() routing.Settings {
	if x.cfg.Settings == nil {
		return routing.DefaultSettings()
	}
	return x.cfg.Settings.Settings()
}

// ttl is the current async_callback_ttl_seconds.
func (x *Executions) ttl() time.Duration { return x.settings().AsyncCallbackTTL }

// Run sweeps every SweepInterval until ctx ends; then it returns nil.
func (x *Executions) Run(ctx context.Context) error {
	x.sweepLoop(ctx)
	return nil
}

// Start implements dataplane.AsyncExecutions.
func (x *Executions) Start(ctx context.Context, e *model.AsyncExecution, tokenHash string) error {
	now := x.now()
	e.CreatedAt, e.UpdatedAt, e.ExpiresAt = now, now, now.Add(x.ttl())
	err := x.cfg.Store.Transact(ctx, func(tx *store.Tx) error { return tx.InsertAsyncExecution(ctx, *e, tokenHash) })
	if errors.Is(err, store.ErrAlreadyExists) {
		return model.ErrAsyncDuplicate
	}
	return unavailable(err)
}

// unavailable marks a failure to reach the database with
// model.ErrAsyncUnavailable, so the runtime answers 503 and not 500.
func unavailable(err error) error {
	if err != nil && errors.Is(err, store.ErrUnavailable) && !errors.Is(err, model.ErrAsyncUnavailable) {
		return fmt.Errorf("%w: %w", model.ErrAsyncUnavailable, err)
	}
	return err
}

// Poll implements dataplane.AsyncExecutions: one conditional UPDATE swaps
// the token; only when it matched nothing is the row read to tell why.
func (x *Executions) Poll(ctx context.Context, key model.AsyncKey, id, tokenHash, nextHash string) (model.AsyncExecution, error) {
	now := x.now()
	var e model.AsyncExecution
	err := x.cfg.Store.Transact(ctx, func(tx *store.Tx) (err error) {
		e, err = tx.RotatePollToken(ctx, key, id, tokenHash, nextHash, now)
		return err
	})
	if err == nil || !errors.Is(err, store.ErrNotFound) {
		return e, unavailable(err)
	}
	cur, hash, err := x.cfg.Store.AsyncPollState(ctx, id)
	switch {
	case errors.Is(err, store.ErrNotFound) || (err == nil && !key.Matches(cur)):
		return e, model.ErrAsyncNotFound
	case err != nil:
		return e, unavailable(err)
	case subtle.ConstantTimeCompare([]byte(hash), []byte(tokenHash)) != 1:
		return e, model.ErrAsyncToken
	case cur.Status == model.AsyncExpired || cur.Overdue(now):
		x.expireOverdue(ctx, cur, now)
		return e, model.ErrAsyncExpired
	}
	return e, model.ErrAsyncToken // another poll used the token first
}

// waiting returns execution id of key when a callback may finish it;
// ErrAsyncNotFound, ErrAsyncFinished or ErrAsyncExpired otherwise.
func (x *Executions) waiting(ctx context.Context, key model.AsyncKey, id string) (model.AsyncExecution, error) {
	e, err := x.cfg.Store.AsyncExecution(ctx, id)
	switch {
	case errors.Is(err, store.ErrNotFound) || (err == nil && !key.Matches(e)):
		return e, model.ErrAsyncNotFound
	case err != nil:
		return e, unavailable(err)
	case e.Status == model.AsyncCompleted || e.Status == model.AsyncFailed:
		return e, model.ErrAsyncFinished
	case e.Status == model.AsyncExpired || e.Overdue(x.now()):
		x.expireOverdue(ctx, e, x.now())
		return e, model.ErrAsyncExpired
	}
	return e, nil
}

// Finish implements dataplane.AsyncExecutions with a conditional UPDATE
// on status waiting_callback: of concurrent finishers exactly one wins.
func (x *Executions) Finish(ctx context.Context, key model.AsyncKey, id string, out model.AsyncOutcome) (model.AsyncExecution, error) {
	now := x.now()
	var done bool
	err := x.cfg.Store.Transact(ctx, func(tx *store.Tx) (err error) {
		done, err = tx.FinishAsyncExecution(ctx, id,
			store.AsyncCondition{From: []string{model.AsyncWaiting}, LiveAt: now, Key: key}, out, now)
		return err
	})
	if err != nil {
		return model.AsyncExecution{}, unavailable(err)
	}
	if done {
		return model.AsyncExecution{CorrelationID: id, Status: out.Status}, nil
	}
	if e, err := x.waiting(ctx, key, id); err != nil {
		return e, err
	}
	return model.AsyncExecution{}, model.ErrAsyncFinished
}

// expireOverdue moves an overdue execution to expired at once instead of
// waiting for the sweeper; a failure is left to the sweeper.
func (x *Executions) expireOverdue(ctx context.Context, e model.AsyncExecution, now time.Time) {
	if !e.Overdue(now) {
		return
	}
	ctx = context.WithoutCancel(ctx)
	err := x.cfg.Store.Transact(ctx, func(tx *store.Tx) error {
		_, err := tx.FinishAsyncExecution(ctx, e.CorrelationID, store.AsyncCondition{From: []string{model.AsyncWaiting}},
			model.AsyncOutcome{Status: model.AsyncExpired}, now)
		return err
	})
	if err != nil {
		x.cfg.Logger.Warn("async: expiring an overdue execution failed", "correlationId", e.CorrelationID, "error", err.Error())
	}
}
