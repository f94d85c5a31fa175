package upstream

import (
	"context"
	"crypto/rand"
	"errors"
	"log/slog"

	"github.com/prometheus/client_golang/prometheus"
)

// SelectionConfig configures a Selection.
type SelectionConfig struct {
	// Outbound holds the outbound policies; nil: NewOutbound(Client).
	Outbound *Outbound
	// Client is the backend client every direction shares; the outbound
	// policy is applied to it (when Outbound is nil).
	Client *Client
	// Targets returns the backends to health-check now (from the current
	// route table); it must not block.
	Targets func() []HealthTarget
	// Jobs runs the checks on one instance at a time and shares their
	// results (store.Store); nil: this instance checks alone.
	Jobs       HealthJobs
	Logger     *slog.Logger
	Registerer prometheus.Registerer
}

// Selection is the backend selection shared by every direction and the
// admin: health state and checker, circuit breakers, the Selector, the
// outbound policies, and the health results shared between instances.
type Selection struct {
	Health   *Health
	Breakers *Breakers
	Selector *Selector
	Checker  *Checker
	// Outbound holds the outbound policies the checks connect under;
	// each new settings snapshot is applied to it (Outbound.Apply).
	Outbound *Outbound
	shared   *sharedHealth
}

// NewSelection builds the selection and registers its metrics.
func NewSelection(cfg SelectionConfig) (*Selection, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Targets == nil {
		return nil, errors.New("upstream: selection without health check targets")
	}
	log := cfg.Logger
	s := &Selection{Health: NewHealth(), Outbound: cfg.Outbound}
	if s.Outbound == nil {
		s.Outbound = NewOutbound(cfg.Client)
	}
	s.Breakers = NewBreakers(BreakerConfig{OnStateChange: func(profile string, from, to BreakerState) {
		log.Warn("backend circuit breaker changed", "profile", profile, "from", from.String(), "to", to.String())
	}})
	s.Selector = NewSelector(s.Health, s.Breakers)
	s.Checker = &Checker{Health: s.Health, Logger: log, Fetcher: s.Outbound.Fetcher, Policy: s.Outbound.BackendPolicy,
		Targets: cfg.Targets}
	if cfg.Jobs != nil {
		s.shared = &sharedHealth{jobs: cfg.Jobs, log: log, origin: rand.Text()}
		s.Checker.Exclusive = func(ctx context.Context, fn func(context.Context) error) (bool, error) {
			return cfg.Jobs.TryExclusive(ctx, HealthCheckJob, fn)
		}
		s.Checker.Share = s.shared.publish
	}
	if cfg.Registerer != nil {
		if err := cfg.Registerer.Register(NewMetrics(s.Health, s.Breakers)); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Run runs the health checks and applies the results other instances
// share, until ctx ends.
func (s *Selection) Run(ctx context.Context) error {
	if s.shared != nil {
		go s.shared.watch(ctx, s.Health)
	}
	return s.Checker.Run(ctx)
}
