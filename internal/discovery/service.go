// Package discovery is traffic-driven discovery: the ingest API that load
// balancers and other gateways send their traffic logs to
// (/ingest/v1/*), the connector instances that authenticate them, the
// master discovery rows built from that traffic (one per normalised
// service URI, with hourly, per-minute and consumer rollups maintained at
// ingest), their admin endpoints (list, drill-down, failures, alert
// rule), ingest freshness, and the retention of it all.
//
// Other areas read discovery through Service.AlertCandidates (alert
// evaluation, internal/notify) and Service.Freshness (the dashboard), and
// read the lb_events and generic_logs tables documented in
// docs/discovery.md (observability).
package discovery

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/sync/errgroup"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/redact"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/store"
)

// SettingsSource gives the runtime's current settings snapshot: the
// routing.Reloader in s2r serve, which compiles it with the route table at
// every configuration revision. Each call is an atomic load, so ingest
// reads it per batch.
type SettingsSource interface {
	Settings() routing.Settings
}

// Config holds what discovery needs. Only Store is required.
type Config struct {
	Store *store.Store
	// Settings gives max_payload_mb, default_retention_days and the
	// redactor of ingested traffic (debug_redact_names, the API-key header
	// names); nil: the defaults.
	Settings SettingsSource
	Logger   *slog.Logger
	// MaxPayloadMB, when set, replaces the snapshot's max_payload_mb
	// (tests).
	MaxPayloadMB func() int
	// Registerer receives the ingest metrics; nil: none.
	Registerer prometheus.Registerer
	// Now is the clock; nil: time.Now in UTC, microseconds.
	Now func() time.Time
	// AuthCacheTTL is how long a token check is cached (and so how long a
	// revocation takes to reach other s2r instances); default 2s.
	AuthCacheTTL time.Duration
	// SeenFlushInterval is how often instances' last event times are
	// written; default 5s.
	SeenFlushInterval time.Duration
	// RetentionInterval is how often retention runs; default 1h.
	RetentionInterval time.Duration
	// RevisionPoll is how often the configuration revision is checked to
	// reload the onboarded-service matcher; default 5s.
	RevisionPoll time.Duration
}

// Service is the discovery area: handlers, background jobs and the
// functions other areas call.
type Service struct {
	cfg     Config
	log     *slog.Logger
	auth    *authenticator
	seen    *lastSeen
	metrics *ingestMetrics

	matchMu sync.Mutex
	matcher atomic.Pointer[matcher]
}

// New returns the service; Run starts its background jobs.
func New(cfg Config) (*Service, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = adminapi.Now
	}
	cfg.AuthCacheTTL = orDefault(cfg.AuthCacheTTL, 2*time.Second)
	cfg.SeenFlushInterval = orDefault(cfg.SeenFlushInterval, 5*time.Second)
	cfg.RetentionInterval = orDefault(cfg.RetentionInterval, time.Hour)
	cfg.RevisionPoll = orDefault(cfg.RevisionPoll, 5*time.Second)
	m, err := newIngestMetrics(cfg.Registerer)
	if err != nil {
		return nil, err
	}
	s := &Service{
		cfg:     cfg,
		log:     cfg.Logger,
		auth:    newAuthenticator(cfg.Store, cfg.AuthCacheTTL, cfg.Now),
		seen:    newLastSeen(),
		metrics: m,
	}
	if s.cfg.MaxPayloadMB == nil {
		s.cfg.MaxPayloadMB = func() int { return s.settings().MaxPayloadMB }
	}
	return s, nil
}

// settings returns the current settings snapshot.
func (s *Service) settings() routing.Settings {
	if s.cfg.Settings == nil {
		return routing.DefaultSettings()
	}
	return s.cfg.Settings.Settings()
}

// redactor returns the redactor of ingested traffic of the current
// snapshot: an atomic load, no store read, on the ingest path.
func (s *Service) redactor() *redact.Redactor { return s.settings().Redactor }

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// maxPayloadMB is the byte limit of a batch, in MB (at least 1).
func (s *Service) maxPayloadMB() int { return max(1, s.cfg.MaxPayloadMB()) }

// Routes returns the admin routes of discovery, for admin.Config.Routes.
// Roles per DESIGN 6.3: reads for reader, alert rules for operator,
// ingest instances for admin.
func (s *Service) Routes() []adminapi.Route {
	return []adminapi.Route{
		{Method: "POST", Path: "/ingest-instances", Role: model.RoleAdmin, Handle: s.postInstance, Doc: docPostInstance,
			Audit: adminapi.OnFailure("ingest_instance.register", "ingest_instance", "")},
		{Method: "GET", Path: "/ingest-instances", Role: model.RoleReader, Handle: s.getInstances, Doc: docGetInstances},
		{Method: "DELETE", Path: "/ingest-instances/{instanceId}", Role: model.RoleAdmin, Handle: s.deleteInstance, Doc: docDeleteInstance,
			Audit: adminapi.OnFailure("ingest_instance.revoke", "ingest_instance", "{instanceId}")},
		{Method: "GET", Path: "/master-discovery/rows", Role: model.RoleReader, Handle: s.getRows, Doc: docGetRows},
		{Method: "GET", Path: "/master-discovery/rows/{rowId}/drill-down", Role: model.RoleReader, Handle: s.getDrillDown, Doc: docGetDrillDown},
		{Method: "GET", Path: "/master-discovery/rows/{rowId}/failures", Role: model.RoleReader, Handle: s.getFailures, Doc: docGetFailures},
		{Method: "PUT", Path: "/master-discovery/rows/{rowId}/alert", Role: model.RoleOperator, Handle: s.putAlert, Doc: docPutAlert,
			Audit: adminapi.OnFailure("discovery.alert_rule.put", "discovery_row", "{rowId}")},
	}
}

// Run runs the background jobs until ctx ends: the onboarded-service
// matcher reload (with row re-matching), the last-seen flush and
// retention. The last-seen times are flushed once more on the way out.
func (s *Service) Run(ctx context.Context) error {
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error { return s.watchServices(gctx) })
	g.Go(func() error { s.flushSeenLoop(gctx); return nil })
	g.Go(func() error { s.retainLoop(gctx); return nil })
	return g.Wait()
}

// currentMatcher returns the onboarded-service matcher, loading it the
// first time (a load failure leaves every URI a shadow service until the
// next reload).
func (s *Service) currentMatcher(ctx context.Context) *matcher {
	if m := s.matcher.Load(); m != nil {
		return m
	}
	s.matchMu.Lock()
	defer s.matchMu.Unlock()
	if m := s.matcher.Load(); m != nil {
		return m
	}
	m, err := loadMatcher(ctx, s.cfg.Store)
	if err != nil {
		s.log.Warn("discovery: onboarded services not loaded", "error", err.Error())
		return nil
	}
	s.matcher.Store(m)
	return m
}

// watchServices reloads the matcher whenever the configuration revision
// changes (services and backend profiles are configuration) and re-matches
// the rows. It wakes when the route table's snapshot is replaced (in s2r
// serve the reloader follows every revision), and polls the revision every
// RevisionPoll besides, for a Config without Settings and in case a
// reload fails.
func (s *Service) watchServices(ctx context.Context) error {
	t := time.NewTicker(s.cfg.RevisionPoll)
	defer t.Stop()
	last := int64(-1)
	for {
		// Taken before the revision is read, so a swap in between wakes
		// the next wait instead of being missed.
		replaced := s.settings().Replaced()
		if rev, err := s.cfg.Store.Revision(ctx); err == nil && rev != last {
			if s.refreshServices(ctx) {
				last = rev
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		case <-replaced:
		}
	}
}

// refreshServices reloads the matcher and re-matches the rows; false
// when it could not be loaded.
func (s *Service) refreshServices(ctx context.Context) bool {
	m, err := loadMatcher(ctx, s.cfg.Store)
	if err != nil {
		if ctx.Err() == nil {
			s.log.Warn("discovery: reloading onboarded services failed", "error", err.Error())
		}
		return false
	}
	s.matcher.Store(m)
	if n, err := reconcile(ctx, s.cfg.Store, m); err != nil && ctx.Err() == nil {
		s.log.Warn("discovery: re-matching rows failed", "error", err.Error())
	} else if n > 0 {
		s.log.Info("discovery: rows re-matched to onboarded services", "rows", n)
	}
	return true
}

// writeJSON writes v with status.
func writeJSON(w http.ResponseWriter, status int, v any) error {
	return adminapi.WriteJSON(w, status, v)
}
