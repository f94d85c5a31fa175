package discovery_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/s2r-project/s2r/internal/admin"
	"github.com/s2r-project/s2r/internal/discovery"
	"github.com/s2r-project/s2r/internal/httpx"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/secret"
	"github.com/s2r-project/s2r/internal/server"
	"github.com/s2r-project/s2r/internal/store"
)

// Identities of the test environment.
const (
	adminEmail    = "admin@example.com"
	operatorEmail = "operator@example.com"
	readerEmail   = "reader@example.com"
	nobodyEmail   = "nobody@example.com"
	acmeEmail     = "admin@acme.example.com" // admin of tenant "acme"
)

// env is discovery behind s2r's real HTTP frame (server.Config, with the
// admin API and its authorization) on 127.0.0.1, over a real store.
type env struct {
	t   testing.TB
	st  *store.Store
	svc *discovery.Service
	url string
	now time.Time // the service's clock, when fixed (zero: real time)
}

// envOption adjusts the discovery configuration of an env.
type envOption func(*discovery.Config)

func withClock(now func() time.Time) envOption { return func(c *discovery.Config) { c.Now = now } }
func withMaxMB(mb int) envOption {
	return func(c *discovery.Config) { c.MaxPayloadMB = func() int { return mb } }
}

func newEnv(t testing.TB, st *store.Store, opts ...envOption) *env {
	t.Helper()
	ctx := context.Background()
	// A second env on one store (a second s2r instance) finds them there.
	if bs, err := st.PermissionBindings(ctx); err != nil || len(bs) > 0 {
		return newEnvOn(t, st, opts...)
	}
	err := st.Transact(ctx, func(tx *store.Tx) error {
		for i, b := range []struct {
			email, tenant string
			role          model.Role
		}{{adminEmail, model.DefaultTenant, model.RoleAdmin}, {operatorEmail, model.DefaultTenant, model.RoleOperator},
			{readerEmail, model.DefaultTenant, model.RoleReader}, {acmeEmail, "acme", model.RoleAdmin}} {
			err := tx.InsertPermissionBinding(ctx, model.PermissionBinding{
				BindingID: "00000000-0000-4000-8000-00000000000" + string(rune('1'+i)), Email: b.email, Role: b.role,
				TenantID: b.tenant, CreatedAt: time.Now(), CreatedBy: "setup"})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return newEnvOn(t, st, opts...)
}

// newEnvOn is newEnv on a store whose identities exist already.
func newEnvOn(t testing.TB, st *store.Store, opts ...envOption) *env {
	t.Helper()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	cfg := discovery.Config{Store: st, Logger: log, AuthCacheTTL: 50 * time.Millisecond, RevisionPoll: 100 * time.Millisecond}
	for _, o := range opts {
		o(&cfg)
	}
	svc, err := discovery.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	box, err := secret.NewBox(bytes.Repeat([]byte{9}, secret.KeySize))
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
		Admin:   admin.New(admin.Config{Store: st, Secrets: box, Logger: log, Routes: svc.Routes()}),
		Ingest:  svc.IngestHandler(),
	}
	srv := httptest.NewServer(frame.MainHandler())
	t.Cleanup(srv.Close)
	return &env{t: t, st: st, svc: svc, url: srv.URL}
}

// response is an HTTP answer.
type response struct {
	status int
	header http.Header
	body   []byte
}

// errorBody is the SPEC 7.1 error shape.
type errorBody struct {
	Error struct {
		Code          string         `json:"code"`
		Message       string         `json:"message"`
		Details       map[string]any `json:"details"`
		CorrelationID string         `json:"correlationId"`
	} `json:"error"`
}

func (r response) errorOf(t testing.TB) errorBody {
	t.Helper()
	var e errorBody
	if err := json.Unmarshal(r.body, &e); err != nil || e.Error.Code == "" {
		t.Fatalf("not an error body (status %d): %s", r.status, r.body)
	}
	return e
}

func (r response) decode(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("decode %s: %v", r.body, err)
	}
}

func (r response) want(t testing.TB, status int) response {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d: %s", r.status, status, r.body)
	}
	return r
}

// wantError checks the status and code of an error answer.
func (r response) wantError(t testing.TB, status int, code string) errorBody {
	t.Helper()
	r.want(t, status)
	e := r.errorOf(t)
	if e.Error.Code != code {
		t.Fatalf("code %s, want %s: %s", e.Error.Code, code, r.body)
	}
	if e.Error.CorrelationID == "" {
		t.Errorf("no correlationId: %s", r.body)
	}
	return e
}

// do sends a request with headers (name, value pairs).
func (e *env) do(method, path string, body []byte, headers ...string) response {
	e.t.Helper()
	req, err := http.NewRequest(method, e.url+path, bytes.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return response{status: resp.StatusCode, header: resp.Header, body: b}
}

// admin calls the admin API as email with a JSON body.
func (e *env) admin(method, path, email, body string) response {
	e.t.Helper()
	h := []string{}
	if email != "" {
		h = append(h, "X-Idp-Authenticated-User-Email", email)
	}
	if body != "" {
		h = append(h, "Content-Type", "application/json")
	}
	return e.do(method, "/admin/v1"+path, []byte(body), h...)
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
	e.admin("POST", "/ingest-instances", adminEmail, body+"}").want(e.t, http.StatusCreated).decode(e.t, &out)
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
	e.admin("GET", "/master-discovery/rows"+query, email, "").want(e.t, 200).decode(e.t, &page)
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
