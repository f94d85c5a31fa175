package query

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/admin"
	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/discovery"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/observe"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/routing/load/loadtest"
	"github.com/s2r-project/s2r/internal/store"
)

// Test identities, bound by newTestAPI: admintest's staff in the default
// tenant, and a reader of tenant acme.
const (
	adminEmail    = admintest.AdminEmail
	operatorEmail = admintest.OperatorEmail
	readerEmail   = admintest.ReaderEmail
	acmeEmail     = "reader@acme.example.com"
)

// testAPI is the real admin handler, with this package's routes and
// discovery's (connector instances), on a real store behind a real HTTP
// server on 127.0.0.1, with discovery's ingest API on another.
type testAPI struct {
	t      *testing.T
	api    *API
	c      *admintest.Client
	store  *store.Store
	routes *routing.Reloader // the settings snapshot discovery reads
	now    time.Time
	disc   *discovery.Service
	ingest *httptest.Server
}

// newTestAPI serves the admin API for st with a clock fixed at now.
func newTestAPI(t *testing.T, st *store.Store, now time.Time) *testAPI {
	t.Helper()
	ta := &testAPI{t: t, store: st, now: now, routes: loadtest.Follow(t, st)}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	disc, err := discovery.New(discovery.Config{Store: st, Settings: ta.routes, Logger: quiet, Now: func() time.Time { return now },
		RevisionPoll: 20 * time.Millisecond, AuthCacheTTL: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ta.disc = disc
	ta.api = New(Config{Store: st, Logger: quiet, Now: func() time.Time { return ta.now }, Ingest: disc})
	h := admin.New(admin.Config{Store: st, Logger: quiet, Routes: slices.Concat(ta.api.Routes(), disc.Routes()), Version: "test"})
	ta.c = admintest.Serve(t, h)
	ta.ingest = httptest.NewServer(disc.IngestHandler())
	t.Cleanup(ta.ingest.Close)
	admintest.Bind(t, st, append(admintest.Staff(), admintest.Binding{Email: acmeEmail, Role: model.RoleReader, TenantID: "acme"})...)
	return ta
}

// response is an answer.
type response = admintest.Response

// do sends a request as email (no identity when "") with an optional
// body of the given content type.
func (a *testAPI) do(method, path, email string, body, contentType string) response {
	a.t.Helper()
	var b []byte
	if body != "" {
		b = []byte(body)
	}
	return a.c.Send(method, path, email, contentType, b)
}

// get is a GET as reader that must answer 200, decoded into v.
func (a *testAPI) get(path string, v any) {
	a.t.Helper()
	a.do("GET", path, readerEmail, "", "").WantStatus(a.t, 200).Decode(a.t, v)
}

// insertLogs stores runtime logs.
func insertLogs(t *testing.T, st *store.Store, logs []model.TxLog) {
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
