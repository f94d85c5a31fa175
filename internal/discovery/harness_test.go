package discovery_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/s2r-project/s2r/internal/admin"
	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/discovery"
	"github.com/s2r-project/s2r/internal/httpx"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/routing/load/loadtest"
	"github.com/s2r-project/s2r/internal/server"
	"github.com/s2r-project/s2r/internal/store"
)

// Identities of the test environment.
const (
	adminEmail    = admintest.AdminEmail
	operatorEmail = admintest.OperatorEmail
	readerEmail   = admintest.ReaderEmail
	acmeEmail     = "admin@acme.example.com" // admin of tenant "acme"
)

// env is discovery behind s2r's real HTTP frame (server.Config, with the
// admin API and its authorization) on 127.0.0.1, over a real store, with
// the route reloader whose settings snapshot discovery reads, as in s2r
// serve.
type env struct {
	t      testing.TB
	st     *store.Store
	routes *routing.Reloader
	svc    *discovery.Service
	c      *admintest.Client // of the frame on 127.0.0.1
	now    time.Time         // the service's clock, when fixed (zero: real time)
}

// envOption adjusts the discovery configuration of an env.
type envOption func(*discovery.Config)

func withClock(now func() time.Time) envOption { return func(c *discovery.Config) { c.Now = now } }
func withMaxMB(mb int) envOption {
	return func(c *discovery.Config) { c.MaxPayloadMB = func() int { return mb } }
}

func withRevisionPoll(d time.Duration) envOption {
	return func(c *discovery.Config) { c.RevisionPoll = d }
}

// newEnv binds the test identities on st (kept when a first env, another
// s2r instance, bound them already) and serves discovery.
func newEnv(t testing.TB, st *store.Store, opts ...envOption) *env {
	t.Helper()
	admintest.Bind(t, st, append(admintest.Staff(), admintest.Binding{Email: acmeEmail, Role: model.RoleAdmin, TenantID: "acme"})...)
	return newEnvOn(t, st, opts...)
}

// newEnvOn is newEnv on a store whose identities exist already.
func newEnvOn(t testing.TB, st *store.Store, opts ...envOption) *env {
	t.Helper()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	routes := loadtest.Follow(t, st)
	cfg := discovery.Config{Store: st, Settings: routes, Logger: log, AuthCacheTTL: 50 * time.Millisecond, RevisionPoll: 100 * time.Millisecond}
	for _, o := range opts {
		o(&cfg)
	}
	svc, err := discovery.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewRegistry()
	metrics, err := httpx.NewHTTPMetrics(reg)
	if err != nil {
		t.Fatal(err)
	}
	frame := server.Config{Logger: log, Registry: reg, Metrics: metrics,
		Health:  http.NotFoundHandler(),
		Runtime: http.NotFoundHandler(),
		Admin:   admin.New(admin.Config{Store: st, Secrets: admintest.Box(t), Logger: log, Routes: svc.Routes()}),
		Ingest:  svc.IngestHandler(),
	}
	c := admintest.Serve(t, frame.MainHandler())
	return &env{t: t, st: st, routes: routes, svc: svc, c: c}
}

// caughtUp waits until the env's reloader holds the table of the store's
// current revision; it follows the revision by itself.
func (e *env) caughtUp() {
	e.t.Helper()
	loadtest.CaughtUp(e.t, e.st, e.routes)
}

// response is an HTTP answer.
type response = admintest.Response

// do sends a request with headers (name, value pairs).
func (e *env) do(method, path string, body []byte, headers ...string) response {
	e.t.Helper()
	return e.c.Send(method, path, "", "", body, headers...)
}

// admin calls the admin API as email with a JSON body.
func (e *env) admin(method, path, email, body string) response {
	e.t.Helper()
	return e.c.Do(method, adminapi.Prefix+path, email, body)
}

// ingest posts body to an ingest path with token.
func (e *env) ingest(path, token string, body []byte, headers ...string) response {
	e.t.Helper()
	h := append([]string{"Authorization", "Bearer " + token, "Content-Type", "application/json"}, headers...)
	return e.do("POST", path, body, h...)
}

// register registers an instance as admin and returns it with its token.
func (e *env) register(vendor, name, tenant string) discovery.RegisteredInstance {
	e.t.Helper()
	body := `{"vendor":"` + vendor + `","name":"` + name + `"`
	if tenant != "" {
		body += `,"tenantId":"` + tenant + `"`
	}
	var out discovery.RegisteredInstance
	e.admin("POST", "/ingest-instances", adminEmail, body+"}").WantStatus(e.t, http.StatusCreated).Decode(e.t, &out)
	return out
}

// jsonOf marshals v.
func jsonOf(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// rows lists the master discovery rows visible to email with query.
func (e *env) rows(email, query string) model.ObservabilityPageRecord[discovery.RowView] {
	e.t.Helper()
	var page model.ObservabilityPageRecord[discovery.RowView]
	e.admin("GET", "/master-discovery/rows"+query, email, "").WantStatus(e.t, 200).Decode(e.t, &page)
	return page
}

// rowByURI returns the row of serviceURI visible to the default admin.
func (e *env) rowByURI(serviceURI string) discovery.RowView {
	e.t.Helper()
	for _, r := range e.rows(adminEmail, "?pageSize=200").Items {
		if r.ServiceURI == serviceURI {
			return r
		}
	}
	e.t.Fatalf("no row %s", serviceURI)
	return discovery.RowView{}
}
