package health

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/license"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

type pingFunc func(ctx context.Context) error

func (f pingFunc) Ping(ctx context.Context) error { return f(ctx) }

type fixedState license.State

func (s fixedState) State() license.State { return license.State(s) }

func get(t *testing.T, h http.Handler, method, path string) (int, string) {
	t.Helper()
	srv := httptest.NewServer(h)
	defer srv.Close()
	req, _ := http.NewRequest(method, srv.URL+path, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestHealth(t *testing.T) {
	db := storetest.SQLite(t)
	closed := storetest.SQLite(t)
	closed.Close()
	hang := pingFunc(func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() })
	tests := []struct {
		name       string
		cfg        Config
		method     string
		path       string
		wantStatus int
		wantBody   string
	}{
		{"live", Config{}, "GET", LivePath, 200, `{"status":"UP"}`},
		{"live even when db down", Config{DB: closed, License: fixedState(license.RuntimeStop)}, "GET", LivePath, 200, `{"status":"UP"}`},
		{"ready real sqlite", Config{DB: db}, "GET", ReadyPath, 200, `{"status":"UP","checks":{"database":"UP","license":"VALID"}}`},
		{"ready grace", Config{DB: db, License: fixedState(license.Grace)}, "GET", ReadyPath, 200, `{"status":"UP","checks":{"database":"UP","license":"GRACE"}}`},
		{"ready closed db", Config{DB: closed}, "GET", ReadyPath, 503, `{"status":"DOWN","checks":{"database":"DOWN","license":"VALID"}}`},
		{"ready db timeout", Config{DB: hang, Timeout: 50 * time.Millisecond}, "GET", ReadyPath, 503, `{"status":"DOWN","checks":{"database":"DOWN","license":"VALID"}}`},
		{"ready runtime stop", Config{DB: db, License: fixedState(license.RuntimeStop)}, "GET", ReadyPath, 503, `{"status":"DOWN","checks":{"database":"UP","license":"RUNTIME_STOP"}}`},
		{"ready db error", Config{DB: pingFunc(func(context.Context) error { return errors.New("x") })}, "GET", ReadyPath, 503, `{"status":"DOWN","checks":{"database":"DOWN","license":"VALID"}}`},
		{"post", Config{}, "POST", LivePath, 405, ""},
		{"unknown", Config{}, "GET", "/health/other", 404, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := get(t, New(tt.cfg), tt.method, tt.path)
			if status != tt.wantStatus {
				t.Errorf("status = %d, want %d (%s)", status, tt.wantStatus, body)
			}
			if tt.wantBody != "" && body != tt.wantBody {
				t.Errorf("body = %s, want %s", body, tt.wantBody)
			}
		})
	}
}

func TestReadyPostgres(t *testing.T) {
	db := storetest.Postgres(t)
	status, body := get(t, New(Config{DB: db}), "GET", ReadyPath)
	if status != 200 {
		t.Errorf("ready on PostgreSQL = %d %s", status, body)
	}
}
