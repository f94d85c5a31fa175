package query

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/access"
	"github.com/s2r-project/s2r/internal/admin"
	"github.com/s2r-project/s2r/internal/discovery"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/observe"
	"github.com/s2r-project/s2r/internal/store"
)

// Test identities, bound by newTestAPI.
const (
	adminEmail    = "admin@example.com"
	operatorEmail = "operator@example.com"
	readerEmail   = "reader@example.com"
	nobodyEmail   = "nobody@example.com"
	acmeEmail     = "reader@acme.example.com" // reader of tenant acme
)

// testAPI is the real admin handler, with this package's routes and
// discovery's (connector instances), on a real store behind a real HTTP
// server on 127.0.0.1, with discovery's ingest API on another.
type testAPI struct {
	t      *testing.T
	api    *API
	http   *httptest.Server
	store  *store.Store
	now    time.Time
	disc   *discovery.Service
	ingest *httptest.Server
}

// newTestAPI serves the admin API for st with a clock fixed at now.
func newTestAPI(t *testing.T, st *store.Store, now time.Time) *testAPI {
	t.Helper()
	ta := &testAPI{t: t, store: st, now: now}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	disc, err := discovery.New(discovery.Config{Store: st, Logger: quiet, Now: func() time.Time { return now },
		RevisionPoll: 20 * time.Millisecond, AuthCacheTTL: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ta.disc = disc
	ta.api = New(Config{Store: st, Logger: quiet, Now: func() time.Time { return ta.now }, Ingest: disc})
	h := admin.New(admin.Config{Store: st, Logger: quiet, Routes: slices.Concat(ta.api.Routes(), disc.Routes()), Version: "test"})
	ta.http = httptest.NewServer(h)
	t.Cleanup(ta.http.Close)
	ta.ingest = httptest.NewServer(disc.IngestHandler())
	t.Cleanup(ta.ingest.Close)
	ctx := context.Background()
	err = st.Transact(ctx, func(tx *store.Tx) error {
		for i, b := range []struct {
			email, tenant string
			role          model.Role
		}{{adminEmail, model.DefaultTenant, model.RoleAdmin}, {operatorEmail, model.DefaultTenant, model.RoleOperator},
			{readerEmail, model.DefaultTenant, model.RoleReader}, {acmeEmail, "acme", model.RoleReader}} {
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
	return ta
}

// response is an answer.
type response struct {
	status int
	body   []byte
}

// do sends a request as email (no identity when "") with an optional
// body of the given content type.
func (a *testAPI) do(method, path, email string, body, contentType string) response {
	a.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, a.http.URL+path, rd)
	if err != nil {
		a.t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if email != "" {
		req.Header.Set(access.HeaderEmail, email)
	}
	resp, err := a.http.Client().Do(req)
	if err != nil {
		a.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		a.t.Fatal(err)
	}
	return response{status: resp.StatusCode, body: b}
}

// get is a GET as reader that must answer 200, decoded into v.
func (a *testAPI) get(path string, v any) {
	a.t.Helper()
	a.do("GET", path, readerEmail, "", "").want(a.t, 200).decode(a.t, v)
}

// want fails unless r has status.
func (r response) want(t *testing.T, status int) response {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d: %s", r.status, status, r.body)
	}
	return r
}

// decode decodes the body into v.
func (r response) decode(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("body %s: %v", r.body, err)
	}
}

// apiError is the SPEC 7.1 error shape.
type apiError struct {
	Error struct {
		Code    string         `json:"code"`
		Message string         `json:"message"`
		Details map[string]any `json:"details"`
	} `json:"error"`
}

// insertLogs stores runtime logs.
func insertLogs(t *testing.T, st *store.Store, logs []store.TxLog) {
	t.Helper()
	ctx := context.Background()
	if err := st.CopyTxLogs(ctx, logs); err != nil {
		t.Fatal(err)
	}
}

// aggregate runs the aggregation job once.
func aggregate(t *testing.T, st *store.Store, now time.Time) {
	t.Helper()
	agg, err := observe.NewAggregator(observe.AggregatorConfig{Store: st, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	if res, err := agg.RunOnce(context.Background()); err != nil || !res.Ran {
		t.Fatalf("aggregation: %+v %v", res, err)
	}
}
