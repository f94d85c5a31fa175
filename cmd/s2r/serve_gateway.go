package main

import (
	"context"
	"log/slog"
	"net/netip"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/s2r-project/s2r/internal/dataplane"
	"github.com/s2r-project/s2r/internal/fetch"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/upstream"
)

// backendMachinery is the backend selection shared by every direction and
// the admin: health state and checker, breakers, the selector, and the
// gateway settings kept in memory for the request path.
type backendMachinery struct {
	health   *upstream.Health
	breakers *upstream.Breakers
	selector *upstream.Selector
	checker  *upstream.Checker
	settings *gatewaySettings
	shared   *sharedHealth
}

// Run runs the health checks and applies the results other instances
// share, until ctx ends.
func (m *backendMachinery) Run(ctx context.Context) error {
	go m.shared.watch(ctx, m.health)
	return m.checker.Run(ctx)
}

// tableSource is what the machinery needs of the route reloader.
type tableSource interface{ Table() *routing.Table }

func newBackendMachinery(st *store.Store, routes tableSource, client *upstream.Client, log *slog.Logger, reg prometheus.Registerer) (*backendMachinery, error) {
	m := &backendMachinery{health: upstream.NewHealth(), settings: &gatewaySettings{store: st, log: log, client: client},
		shared: &sharedHealth{store: st, log: log, origin: uuid.NewString()}}
	m.breakers = upstream.NewBreakers(upstream.BreakerConfig{OnStateChange: func(profile string, from, to upstream.BreakerState) {
		log.Warn("backend circuit breaker changed", "profile", profile, "from", from.String(), "to", to.String())
	}})
	m.selector = upstream.NewSelector(m.health, m.breakers)
	m.checker = &upstream.Checker{Health: m.health, Logger: log, Fetcher: m.settings.Fetcher, Policy: m.settings.BackendPolicy,
		Targets: func() []upstream.HealthTarget { return dataplane.HealthTargets(routes.Table()) },
		Exclusive: func(ctx context.Context, fn func(context.Context) error) (bool, error) {
			return st.TryExclusive(ctx, healthCheckJob, fn)
		},
		Share: m.shared.publish}
	if err := reg.Register(upstream.NewMetrics(m.health, m.breakers)); err != nil {
		return nil, err
	}
	return m, nil
}

// gatewaySettings keeps gateway_trusted_proxies and the outbound
// policies in memory, reloaded on every configuration revision change:
// the fetch policy of wsdl_fetch checks, and the backend policy
// (fetch.Policy.ForBackends) of every connection to a backend endpoint,
// which it also hands to the backend client.
type gatewaySettings struct {
	store   *store.Store
	log     *slog.Logger
	client  *upstream.Client
	trusted atomic.Pointer[[]netip.Prefix]
	fetcher atomic.Pointer[fetch.Fetcher]
	backend atomic.Pointer[fetch.Policy]
}

// TrustedProxies returns the current gateway_trusted_proxies.
func (g *gatewaySettings) TrustedProxies() []netip.Prefix {
	if p := g.trusted.Load(); p != nil {
		return *p
	}
	return nil
}

// Fetcher returns the fetcher of wsdl_fetch health checks.
func (g *gatewaySettings) Fetcher() *fetch.Fetcher { return g.fetcher.Load() }

// BackendPolicy returns the policy of connections to backend endpoints.
func (g *gatewaySettings) BackendPolicy() fetch.Policy {
	if p := g.backend.Load(); p != nil {
		return *p
	}
	return fetch.Policy{}.ForBackends()
}

// Load reads the settings now. Unparsable CIDRs (which the admin refuses)
// are skipped.
func (g *gatewaySettings) Load(ctx context.Context) error {
	s, err := g.store.Settings(ctx)
	if err != nil {
		return err
	}
	trusted := parsePrefixes(s.GatewayTrustedProxies)
	g.trusted.Store(&trusted)
	policy := fetch.Policy{AllowedCIDRs: parsePrefixes(s.OutboundAllowedCIDRs), DeniedCIDRs: parsePrefixes(s.OutboundDeniedCIDRs),
		MaxBytes: 4 << 20, Timeout: upstream.MaxCheckTimeout}
	backend := policy.ForBackends()
	g.backend.Store(&backend)
	if g.client != nil {
		g.client.SetPolicy(backend)
	}
	old := g.fetcher.Swap(fetch.New(policy))
	if old != nil {
		old.CloseIdleConnections()
	}
	return nil
}

// Run reloads on every revision change until ctx ends.
func (g *gatewaySettings) Run(ctx context.Context) error {
	return g.store.WatchRevision(ctx, 5*time.Second, func(int64) {
		if err := g.Load(ctx); err != nil && ctx.Err() == nil {
			g.log.Warn("reloading gateway settings failed", "error", err.Error())
		}
	})
}

func parsePrefixes(cidrs []string) []netip.Prefix {
	out := make([]netip.Prefix, 0, len(cidrs))
	for _, c := range cidrs {
		if p, err := netip.ParsePrefix(c); err == nil {
			out = append(out, p.Masked())
		} else if a, err := netip.ParseAddr(c); err == nil {
			out = append(out, netip.PrefixFrom(a, a.BitLen()))
		}
	}
	return out
}
