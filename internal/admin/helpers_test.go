package admin

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/access"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/secret"
	"github.com/s2r-project/s2r/internal/store"
)

// Test identities: root is a bootstrap admin; the others get direct
// permission bindings from newTestAPI.
const (
	rootEmail     = "root@example.com"
	adminEmail    = "admin@example.com"
	operatorEmail = "operator@example.com"
	readerEmail   = "reader@example.com"
	nobodyEmail   = "nobody@example.com"
)

// testAPI is an admin server on a real store behind a real HTTP server.
type testAPI struct {
	t     *testing.T
	srv   *server
	http  *httptest.Server
	store *store.Store
	box   *secret.Box
	logs  *syncBuffer
}

// syncBuffer is a goroutine-safe log sink.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// newTestAPI serves the admin API for st on 127.0.0.1. Logs of the server
// and of the default logger (used by apierr) go to api.logs.
func newTestAPI(t *testing.T, st *store.Store) *testAPI {
	t.Helper()
	box, err := secret.NewBox(bytes.Repeat([]byte{9}, secret.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	logs := &syncBuffer{}
	logger := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	prev := slog.Default()
	slog.SetDefault(logger)
	t.Cleanup(func() { slog.SetDefault(prev) })
	s := newServer(Config{Store: st, Secrets: box, Logger: logger, BootstrapAdmins: []string{rootEmail}, Version: "test"})
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	api := &testAPI{t: t, srv: s, http: ts, store: st, box: box, logs: logs}
	ctx := context.Background()
	err = st.Transact(ctx, func(tx *store.Tx) error {
		for i, b := range []struct {
			email string
			role  model.Role
		}{{adminEmail, model.RoleAdmin}, {operatorEmail, model.RoleOperator}, {readerEmail, model.RoleReader}} {
			err := tx.InsertPermissionBinding(ctx, model.PermissionBinding{
				BindingID: "00000000-0000-4000-8000-00000000000" + string(rune('1'+i)), Email: b.email, Role: b.role,
				TenantID: model.DefaultTenant, CreatedAt: time.Now(), CreatedBy: "setup"})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return api
}

// response is a decoded answer.
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

// do sends a request as email (no identity when ""), with groups, and a
// JSON body when body is not "".
func (a *testAPI) do(method, path, email, body string, groups ...string) response {
	a.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, a.http.URL+path, rd)
	if err != nil {
		a.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if email != "" {
		req.Header.Set(access.HeaderEmail, email)
	}
	if len(groups) > 0 {
		req.Header.Set(access.HeaderGroups, strings.Join(groups, ","))
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
	return response{status: resp.StatusCode, header: resp.Header, body: b}
}

// errorOf decodes an error answer.
func (r response) errorOf(t *testing.T) errorBody {
	t.Helper()
	var e errorBody
	if err := json.Unmarshal(r.body, &e); err != nil {
		t.Fatalf("error body %q: %v", r.body, err)
	}
	return e
}

// decode decodes a success answer into v.
func (r response) decode(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("body %q: %v", r.body, err)
	}
}

// wantStatus fails unless r has status.
func (r response) wantStatus(t *testing.T, status int) response {
	t.Helper()
	if r.status != status {
		t.Fatalf("status = %d, want %d; body %s", r.status, status, r.body)
	}
	return r
}
