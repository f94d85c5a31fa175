package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"path/filepath"
	"slices"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/s2r-project/s2r/internal/admin"
	"github.com/s2r-project/s2r/internal/async"
	"github.com/s2r-project/s2r/internal/config"
	"github.com/s2r-project/s2r/internal/console"
	"github.com/s2r-project/s2r/internal/contracts"
	"github.com/s2r-project/s2r/internal/dataplane"
	"github.com/s2r-project/s2r/internal/discovery"
	"github.com/s2r-project/s2r/internal/health"
	"github.com/s2r-project/s2r/internal/httpx"
	"github.com/s2r-project/s2r/internal/license"
	"github.com/s2r-project/s2r/internal/limit"
	"github.com/s2r-project/s2r/internal/notify"
	"github.com/s2r-project/s2r/internal/observe"
	"github.com/s2r-project/s2r/internal/observe/query"
	"github.com/s2r-project/s2r/internal/routing"
	routeload "github.com/s2r-project/s2r/internal/routing/load"
	"github.com/s2r-project/s2r/internal/secret"
	"github.com/s2r-project/s2r/internal/server"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/upstream"
	"github.com/s2r-project/s2r/web"
)

// serve runs every surface until ctx ends. Each listener logs its bound
// address ("listening"), which is how tests on port 0 find it.
func serve(ctx context.Context, getenv func(string) string, stderr io.Writer) error {
	cfg, err := loadConfig(getenv)
	if err != nil {
		return err
	}
	tuneGC(getenv)
	log := newLogger(stderr, cfg.LogLevel)
	slog.SetDefault(log) // apierr logs internal errors through the default logger

	lic, err := license.Load(cfg.LicenseFile)
	if err != nil {
		return usageError{fmt.Errorf("%s: %w", config.EnvLicenseFile, err)}
	}
	licenses := license.NewChecker(lic, nil)
	logLicense(log, licenses)

	key, err := secret.LoadOrCreateKey(cfg.SecretKey, cfg.SecretKeyFile, cfg.DatabaseURL == "")
	if err != nil {
		return usageError{fmt.Errorf("%w (with PostgreSQL every instance needs the same key: set %s or %s)", err, config.EnvSecretKey, config.EnvSecretKeyFile)}
	}
	box, err := secret.NewBox(key)
	if err != nil {
		return err
	}

	st, err := store.Open(ctx, store.Config{URL: cfg.DatabaseURL, DataDir: cfg.DataDir})
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.Migrate(ctx); err != nil {
		return err
	}
	schema, _ := st.SchemaVersion(ctx)
	log.Info("starting s2r", "version", version, "commit", commit, "database", st.Dialect().String(), "schemaVersion", schema,
		"databaseUrl", redactedURL(cfg.DatabaseURL), "dataDir", cfg.DataDir, "adminListenAddr", cfg.AdminListenAddr,
		"bootstrapAdmins", len(cfg.BootstrapAdmins), "licenseFile", cfg.LicenseFile)

	if cfg.DevIdentity != "" {
		log.Warn("S2R_DEV_IDENTITY is set: admin requests from this machine without identity headers act as "+cfg.DevIdentity+
			"; for trying s2r on a laptop only", "devIdentity", cfg.DevIdentity)
	}
	consoleHandler, err := console.New(web.Console())
	if err != nil {
		return err
	}

	reg := server.NewRegistry()
	metrics, err := httpx.NewHTTPMetrics(reg)
	if err != nil {
		return err
	}
	if err := reg.Register(newJobCollector(st.JobStats)); err != nil {
		return err
	}
	tracer, stopTracing, err := startTracing(ctx, getenv, log)
	if err != nil {
		return err
	}
	defer stopTracing()
	backendClient := upstream.NewClient()
	defer backendClient.Close()
	outbound := upstream.NewOutbound(backendClient)
	// The route table carries the runtime's one settings snapshot
	// (routing.Settings): the request path and the background jobs
	// (recorder, aggregation, discovery, alerts, async) read it from the
	// reloader, never the store, so a settings change reaches them all
	// through one load. One parsed-contract cache serves the route loader,
	// admin and observe: each stored WSDL is parsed once.
	parsed := contracts.New(st)
	// The backend selection exists before the route table: each table
	// swapped in gives a profile whose endpoint changed a fresh breaker.
	var routes *routing.Reloader
	backends, err := upstream.NewSelection(upstream.SelectionConfig{Outbound: outbound, Jobs: st, Logger: log, Registerer: reg,
		Targets: func() []upstream.HealthTarget { return dataplane.HealthTargets(routes.Table()) }})
	if err != nil {
		return err
	}
	// Backend protection and client rate limits (DESIGN 10.6), per
	// instance: the limiters outlive route tables.
	limits, clients := limit.NewRegistry(nil), limit.NewClients(0, nil)
	// Inbound WS-Security nonces live in the database, so a replay is
	// refused by every instance sharing it (DESIGN 10.2).
	routes = routeload.NewReloader(routeload.Config{Store: st, Contracts: parsed, Secrets: box, Logger: log, Nonces: st,
		Limits: limits, Breakers: backends.Breakers,
		OnSwap: func(t *routing.Table) { outbound.Apply(t.Settings().Outbound) }}, 2*time.Second)
	if err := routes.Register(reg); err != nil {
		return err
	}
	if err := reg.Register(limit.NewMetrics(limits, clients, func() map[string]string { return routes.Table().ProfileServices() })); err != nil {
		return err
	}
	if err := routes.Reload(ctx); err != nil {
		log.Error("initial route table load failed: serving no routes until a reload succeeds", "error", err.Error())
	}
	badURLs := observe.NewBadURLRecorder(observe.BadURLConfig{Store: st, Logger: log})
	if err := badURLs.Register(reg); err != nil {
		return err
	}
	recorder, err := observe.New(observe.Config{Store: st, Settings: routes, Logger: log, Registerer: reg,
		SpoolDir: filepath.Join(cfg.DataDir, "tx-spool"), SpoolMaxBytes: int64(cfg.TxSpoolMaxMB) << 20,
		SpoolMaxAge: time.Duration(cfg.TxSpoolMaxAgeHours) * time.Hour})
	if err != nil {
		return err
	}
	aggregator, err := observe.NewAggregator(observe.AggregatorConfig{Store: st, Settings: routes, Logger: log})
	if err != nil {
		return err
	}
	disc, err := discovery.New(discovery.Config{Store: st, Settings: routes, Logger: log, Registerer: reg})
	if err != nil {
		return err
	}
	asyncs := async.New(async.Config{Store: st, Logger: log, MaxPayloadMB: routes.MaxPayloadMB, Settings: routes})
	// Alert mail: the rules and their last hour come from discovery.
	alerts, err := notify.New(notify.Config{Store: st, Settings: routes, Secrets: box, Logger: log, PublicBaseURL: cfg.PublicBaseURL,
		Candidates: alertCandidates(disc)})
	if err != nil {
		return err
	}
	runtimeCfg := dataplane.Config{
		BadURLs:       badURLs,
		License:       licenses,
		MaxPayloadMB:  routes.MaxPayloadMB,
		Routes:        routes,
		Backends:      dataplane.SelectedBackends{Client: backendClient, Selector: backends.Selector},
		Logger:        log,
		Recorder:      recorder,
		PublicBaseURL: cfg.PublicBaseURL,
		Gateway: dataplane.GatewayConfig{TrustedProxies: routes.TrustedProxies,
			Client: backendClient, Selector: backends.Selector},
		Async:   asyncs,
		Clients: clients,
	}
	traceRuntime(tracer, &runtimeCfg, backendClient)
	dispatcher := dataplane.New(runtimeCfg)
	srv := server.Config{
		Logger:   log,
		Registry: reg,
		Metrics:  metrics,
		Health:   health.New(health.Config{DB: st, License: licenses}),
		Runtime:  dispatcher,
		Admin: admin.New(admin.Config{
			Store:           st,
			Secrets:         box,
			Logger:          log,
			BootstrapAdmins: cfg.BootstrapAdmins,
			DevIdentity:     cfg.DevIdentity,
			Version:         version,
			BackendHealth:   backends.Selector,
			BackendClient:   backendClient,
			Contracts:       parsed,
			PublicBaseURL:   cfg.PublicBaseURL,
			// Admin writes answer once this instance's table serves them.
			Runtime: routes,
			Routes: slices.Concat(alerts.Routes(), asyncs.Routes(dispatcher),
				query.New(query.Config{Store: st, Logger: log, Contracts: parsed, Ingest: disc}).Routes(), disc.Routes()),
		}),
		Ingest:        disc.IngestHandler(),
		Console:       consoleHandler,
		SeparateAdmin: cfg.AdminListenAddr != "",
	}

	// The recorder outlives the listeners: it stops (draining its queue)
	// only after the last in-flight request has handed over its record.
	recCtx, stopRecorder := context.WithCancel(context.WithoutCancel(ctx))
	defer stopRecorder()
	recorded := make(chan error, 1)
	go func() { recorded <- recorder.Run(recCtx) }()

	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error { return badURLs.Run(gctx) })
	g.Go(func() error { return aggregator.Run(gctx) })
	g.Go(func() error { return routes.Run(gctx) })
	g.Go(func() error { return backends.Run(gctx) })
	g.Go(func() error { return disc.Run(gctx) })
	g.Go(func() error { return asyncs.Run(gctx) })
	g.Go(func() error { return alerts.Run(gctx) })
	listeners := []server.Listener{{Name: "main", Addr: cfg.ListenAddr, Handler: srv.MainHandler(), Logger: log,
		Engine: cfg.HTTPEngine == config.HTTPEngineOwn}}
	if cfg.AdminListenAddr != "" {
		listeners = append(listeners, server.Listener{Name: "admin", Addr: cfg.AdminListenAddr, Handler: srv.AdminHandler(), Logger: log})
	}
	consoleOn := listeners[len(listeners)-1].Name // the admin listener when there is one
	for _, l := range listeners {
		l.OnReady = consoleAnnouncer(log, consoleOn)
		g.Go(func() error { return l.Run(gctx) })
	}
	err = g.Wait()
	stopRecorder()
	err = errors.Join(err, <-recorded)
	log.Info("stopped", "error", errString(err))
	return err
}

func logLicense(log *slog.Logger, c *license.Checker) {
	switch l, st := c.License(), c.State(); st {
	case license.Valid:
		if l != nil {
			log.Info("license valid", "licensee", l.Licensee, "expiresAt", l.ExpiresAt)
		}
	case license.Grace:
		log.Warn("license expired: grace period", "expiresAt", l.ExpiresAt, "graceDays", l.GraceDays)
	case license.RuntimeStop:
		log.Error("license expired: runtime stopped (503) until a valid license is installed", "expiresAt", l.ExpiresAt)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// redactedURL hides the password of a database URL for logs.
func redactedURL(raw string) string {
	if raw == "" {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable)"
	}
	return u.Redacted()
}
