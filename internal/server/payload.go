package server

import (
	"context"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/s2r-project/s2r/internal/httpx"
	"github.com/s2r-project/s2r/internal/store"
)

// PayloadLimit keeps the max_payload_mb setting in memory for the request
// path and reloads it whenever the configuration revision changes (at
// once for changes through this instance or, on PostgreSQL, any instance;
// within the poll interval otherwise). It is the stop-gap until the
// runtime's settings snapshot arrives with the route table.
type PayloadLimit struct {
	store    *store.Store
	log      *slog.Logger
	interval time.Duration
	mb       atomic.Int64
}

// NewPayloadLimit returns a limit at the default until Load or Run.
func NewPayloadLimit(s *store.Store, log *slog.Logger, interval time.Duration) *PayloadLimit {
	if interval <= 0 {
		interval = 5 * time.Second
	}
	p := &PayloadLimit{store: s, log: log, interval: interval}
	p.mb.Store(httpx.DefaultMaxPayloadMB)
	return p
}

// MB returns the current limit in MB; it has the httpx.MaxPayloadFunc shape.
func (p *PayloadLimit) MB() int { return int(p.mb.Load()) }

// Load reads the setting now.
func (p *PayloadLimit) Load(ctx context.Context) error {
	s, err := p.store.Settings(ctx)
	if err != nil {
		return err
	}
	if s.MaxPayloadMB >= 1 {
		p.mb.Store(s.MaxPayloadMB)
	}
	return nil
}

// Run reloads on every revision change until ctx ends.
func (p *PayloadLimit) Run(ctx context.Context) error {
	return p.store.WatchRevision(ctx, p.interval, func(int64) {
		if err := p.Load(ctx); err != nil && ctx.Err() == nil {
			p.log.Warn("reloading max_payload_mb failed", "error", err.Error())
		}
	})
}
