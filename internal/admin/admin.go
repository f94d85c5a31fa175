// Package admin serves the control-plane API under /admin/v1.
//
// routes.go lists every route with its method pattern, minimum role and
// handler; registration wraps each handler in authorization, so no route
// can be reached unguarded. Handlers return errors, rendered in one place
// by apierr. The API describes itself at /admin/v1/openapi.json, generated
// from the same route table.
package admin

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/s2r-project/s2r/internal/access"
	"github.com/s2r-project/s2r/internal/contracts"
	"github.com/s2r-project/s2r/internal/correlation"
	"github.com/s2r-project/s2r/internal/secret"
	"github.com/s2r-project/s2r/internal/store"
)

// Prefix is the path prefix of every admin route.
const Prefix = "/admin/v1"

// Config holds what the admin API needs.
type Config struct {
	Store           *store.Store
	Secrets         *secret.Box
	Logger          *slog.Logger
	BootstrapAdmins []string // e-mails that are always admin (S2R_BOOTSTRAP_ADMINS)
	Version         string   // s2r version, shown in the OpenAPI document
	PublicBaseURL   string   // S2R_PUBLIC_BASE_URL: server URL of generated publish OpenAPI documents ("" = relative)

	// BackendHealth is the runtime's live backend health (backend_health.go); nil: every backend healthy.
	BackendHealth BackendHealthReader
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
	openapi openAPICache
	// contracts parses stored WSDL import artifacts once (internal/contracts).
	contracts *contracts.Cache
	// backendHealth reads the runtime's backend health (backend_health.go).
	backendHealth BackendHealthReader

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
		now:     storedNow,
	}
	s.backendHealth = cfg.BackendHealth
	s.contracts = contracts.New(cfg.Store)
	s.routes = s.routeTable()
	s.mux = s.register(s.routes)
	return s
}

// ServeHTTP ensures the request has a correlation id (the server's
// middleware normally sets it) and dispatches it.
func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if correlation.ID(r.Context()) == "" {
		id := correlation.FromHeader(r.Header.Get(correlation.Header))
		w.Header().Set(correlation.Header, id)
		r = r.WithContext(correlation.WithID(r.Context(), id))
	}
	s.mux.ServeHTTP(w, r)
}

// writeJSON writes v as a JSON response with status.
func writeJSON(w http.ResponseWriter, status int, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	// Once the status is sent nothing more can be rendered, so a write
	// error (a gone client) is not returned.
	_, _ = w.Write(buf.Bytes())
	return nil
}

// storedNow is the current time as the store keeps it (UTC, microseconds),
// so a timestamp answered at creation equals the one read back later.
func storedNow() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }
