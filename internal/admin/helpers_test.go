package admin

import (
	"log/slog"
	"testing"

	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/secret"
	"github.com/s2r-project/s2r/internal/store"
)

// Test identities: root is a bootstrap admin; the others get direct
// permission bindings from newTestAPI (admintest.Staff).
const (
	rootEmail     = admintest.RootEmail
	adminEmail    = admintest.AdminEmail
	operatorEmail = admintest.OperatorEmail
	readerEmail   = admintest.ReaderEmail
	nobodyEmail   = admintest.NobodyEmail
)

// response is one answer of the admin API.
type response = admintest.Response

// testAPI is an admin server on a real store behind a real HTTP server;
// its Client sends requests to it.
type testAPI struct {
	*admintest.Client
	t     *testing.T
	srv   *server
	store *store.Store
	box   *secret.Box
	logs  *admintest.LogBuffer
}

// newTestAPI serves the admin API for st on 127.0.0.1. Logs of the server
// and of the default logger (used by apierr) go to api.logs.
func newTestAPI(t *testing.T, st *store.Store) *testAPI {
	t.Helper()
	box := admintest.Box(t)
	logger, logs := admintest.Logger()
	prev := slog.Default()
	slog.SetDefault(logger)
	t.Cleanup(func() { slog.SetDefault(prev) })
	s := newServer(Config{Store: st, Secrets: box, Logger: logger, BootstrapAdmins: []string{rootEmail}, Version: "test"})
	admintest.Bind(t, st, admintest.Staff()...)
	return &testAPI{Client: admintest.Serve(t, s), t: t, srv: s, store: st, box: box, logs: logs}
}
