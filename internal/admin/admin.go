// Package admin serves the control-plane API under /admin/v1.
//
// routes.go lists every route with its method pattern, minimum role and
// handler; registration wraps each handler in authorization, and records
// the failure audit event a route names, so no route can be reached
// unguarded and no refused change goes unaudited. Handlers return errors,
// rendered in one place by apierr. The API describes itself at
// /admin/v1/openapi.json, generated (adminapi.OpenAPIDocument) from the
// same route table.
//
// This package holds the catalog (services, versions, operations, rules,
// mappings, grants, per-version OpenAPI), identity and settings handlers;
// onboarding (WSDL import, autopilot, repair), bundle (configuration as
// code) and backends (profiles and their tests, datasets, monitors) live in
// their own packages below it and contribute their routes to the one table.
package admin

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/s2r-project/s2r/internal/access"
	"github.com/s2r-project/s2r/internal/admin/backends"
	"github.com/s2r-project/s2r/internal/admin/bundle"
	"github.com/s2r-project/s2r/internal/admin/onboarding"
	"github.com/s2r-project/s2r/internal/admin/policies"
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/contracts"
	"github.com/s2r-project/s2r/internal/correlation"
	"github.com/s2r-project/s2r/internal/secret"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/upstream"
)

// Prefix is the path prefix of every admin route.
const Prefix = adminapi.Prefix

// Config holds what the admin API needs.
type Config struct {
	Store           *store.Store
	Secrets         *secret.Box
	Logger          *slog.Logger
	BootstrapAdmins []string // e-mails that are always admin (S2R_BOOTSTRAP_ADMINS)
	// DevIdentity (S2R_DEV_IDENTITY) is the identity of loopback requests
	// without identity headers (access.DevRequest); "" turns it off.
	DevIdentity   string
	Version       string // s2r version, shown in the OpenAPI document
	PublicBaseURL string // S2R_PUBLIC_BASE_URL: server URL of generated publish OpenAPI documents ("" = relative)

	// BackendHealth is the runtime's live backend health (backend_health.go); nil: every backend healthy.
	BackendHealth BackendHealthReader
	// BackendClient makes the outbound calls of backend tests: the
	// runtime's client, whose connections follow the backend policy
	// (docs/security.md); nil uses a client of admin's own without one.
	BackendClient *upstream.Client
	// Contracts is the parsed-contract cache shared with the route
	// loader and the observability API (built once in serve); nil gives
	// admin a cache of its own (tests).
	Contracts *contracts.Cache

	// Runtime is this instance's route table (routing.Reloader, wired in
	// serve): a write that changes the configuration answers once it is
	// served here (read_your_writes.go). nil: writes answer at commit.
	Runtime LocalRuntime
	// RuntimeWait bounds that wait; 0 means DefaultRuntimeWait.
	RuntimeWait time.Duration

	// Routes are the routes of areas whose handlers live in their own
	// packages (async executions, observability, discovery, alert mail);
	// they are registered, authorized and documented with admin's own.
	Routes []adminapi.Route
}

// server is the admin API.
type server struct {
	store   *store.Store
	secrets *secret.Box
	log     *slog.Logger
	access  *access.Resolver
	version string
	public  string // Config.PublicBaseURL
	now     func() time.Time
	routes  []route
	mux     *http.ServeMux
	gate    http.Handler // mux behind the identity check
	openapi openAPICache
	// contracts parses stored WSDL import artifacts once (internal/contracts).
	contracts *contracts.Cache
	// backendHealth reads the runtime's backend health (backend_health.go).
	backendHealth BackendHealthReader
	// backends serves the backend profile, test, dataset and monitor routes.
	backends *backends.Handlers
	// onboarding serves the WSDL import, autopilot and repair routes.
	onboarding *onboarding.Handlers
	// bundle serves configuration as code (GET /bundle, POST /bundle:apply).
	bundle *bundle.Handlers
	// policies serves grants, inbound WS-Security and rate limits (internal/admin/policies).
	policies *policies.Handlers
	// runtime and runtimeWait are Config.Runtime and Config.RuntimeWait
	// (read_your_writes.go).
	runtime     LocalRuntime
	runtimeWait time.Duration
	// extra holds Config.Routes.
	extra []adminapi.Route

	// afterSettingWrite, when set (by tests), runs inside the settings PATCH
	// transaction after each setting is written; an error aborts the
	// transaction as a crash at that point would.
	afterSettingWrite func(name string) error
}

// New returns the admin API handler for paths under /admin/v1/.
func New(cfg Config) http.Handler {
	return newServer(cfg)
}

func newServer(cfg Config) *server {
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	s := &server{
		store:   cfg.Store,
		secrets: cfg.Secrets,
		log:     log,
		access:  access.NewResolver(cfg.Store, cfg.BootstrapAdmins, access.DefaultCacheTTL),
		version: cfg.Version,
		public:  cfg.PublicBaseURL,
		now:     adminapi.Now,
	}
	s.access.SetDevIdentity(cfg.DevIdentity)
	s.backendHealth = cfg.BackendHealth
	s.extra = cfg.Routes
	s.runtime, s.runtimeWait = cfg.Runtime, cfg.RuntimeWait
	if s.runtimeWait <= 0 {
		s.runtimeWait = DefaultRuntimeWait
	}
	s.contracts = cfg.Contracts
	if s.contracts == nil {
		s.contracts = contracts.New(cfg.Store)
	}
	s.backends = backends.New(backends.Config{Store: cfg.Store, Secrets: cfg.Secrets,
		Client: cfg.BackendClient, Contracts: s.contracts, Now: s.now})
	s.onboarding = onboarding.New(onboarding.Config{Store: cfg.Store, Logger: log, Contracts: s.contracts, Now: s.now})
	s.bundle = bundle.New(bundle.Config{Store: cfg.Store, Secrets: cfg.Secrets, Now: s.now, Contracts: s.contracts,
		CheckOverride: checkServiceOverride})
	s.policies = policies.New(policies.Config{Store: cfg.Store, Secrets: cfg.Secrets, Now: s.now})
	s.routes = s.routeTable()
	s.mux = s.register(s.routes)
	s.gate = apierr.AdminHandlerFunc(func(w http.ResponseWriter, r *http.Request) error {
		if err := s.access.Authenticated(r); err != nil {
			return err
		}
		s.mux.ServeHTTP(w, r)
		return nil
	})
	return s
}

// ServeHTTP ensures the request has a correlation id (the server's
// middleware normally sets it) and dispatches it. A request without
// identity is answered 401 before the mux sees it: not even the mux's
// redirects (of /admin/v1, or of an unclean path) answer it.
func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if correlation.ID(r.Context()) == "" {
		id := correlation.FromHeader(r.Header.Get(correlation.Header))
		w.Header().Set(correlation.Header, id)
		r = r.WithContext(correlation.WithID(r.Context(), id))
	}
	s.gate.ServeHTTP(w, r)
}
