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
// path. Run reloads it when the configuration revision changes; it is the
// stop-gap until the runtime's settings snapshot arrives with the route
// table.
type PayloadLimit struct {
	store    *store.Store
	log      *slog.Logger
	interval time.Duration
	mb       atomic.Int64
	rev      int64
}

// NewPayloadLimit returns a limit at the default until Load or Run.
func NewPayloadLimit(s *store.Store, log *slog.Logger, interval time.Duration) *PayloadLimit {
	if interval <= 0 {
		interval = 2 * time.Second
	}
	p := &PayloadLimit{store: s, log: log, interval: interval, rev: -1}
	p.mb.Store(httpx.DefaultMaxPayloadMB)
	return p
}

// MB returns the current limit in MB; it has the httpx.MaxPayloadFunc shape.
func (p *PayloadLimit) MB() int { return int(p.mb.Load()) }

// Load reads the setting when the revision changed since the last load.
func (p *PayloadLimit) Load(ctx context.Context) error {
	rev, err := p.store.Revision(ctx)
	if err != nil {
		return err
	}
	if rev == p.rev {
		return nil
	}
	s, err := p.store.Settings(ctx)
	if err != nil {
		return err
	}
	if s.MaxPayloadMB >= 1 {
		p.mb.Store(s.MaxPayloadMB)
	}
	p.rev = rev
	return nil
}

// Run polls until ctx ends.
func (p *PayloadLimit) Run(ctx context.Context) error {
	t := time.NewTicker(p.interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
			if err := p.Load(ctx); err != nil && ctx.Err() == nil {
				p.log.Warn("reloading max_payload_mb failed", "error", err.Error())
			}
		}
	}
}
