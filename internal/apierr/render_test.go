package apierr

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/s2r-project/s2r/internal/correlation"
)

// withCorrelation sets a fixed correlation id, standing in for the httpx
// middleware (which imports this package).
func withCorrelation(id string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(correlation.WithID(r.Context(), id)))
	})
}

func get(t *testing.T, h http.Handler) (*http.Response, []byte) {
	t.Helper()
	srv := httptest.NewServer(h)
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/x")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

func captureLog(t *testing.T) *bytes.Buffer {
	t.Helper()
	var buf bytes.Buffer
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewJSONHandler(&buf, nil)))
	t.Cleanup(func() { slog.SetDefault(old) })
	return &buf
}

func TestHandlerFuncRendersJSON(t *testing.T) {
	tests := []struct {
		name       string
		err        error
		wantStatus int
		wantBody   string
	}{
		{
			name:       "api error with details",
			err:        PayloadTooLarge(RunPayloadTooLarge, 10),
			wantStatus: 413,
			wantBody:   `{"error":{"code":"S2R-RUN-0413","message":"payload exceeds the maximum of 10 MB","details":{"maxPayloadMb":10},"correlationId":"cid-1"}}`,
		},
		{
			name:       "wrapped api error",
			err:        fmt.Errorf("lookup: %w", New(RunNotFound, "no route")),
			wantStatus: 404,
			wantBody:   `{"error":{"code":"S2R-RUN-0404","message":"no route","details":{},"correlationId":"cid-1"}}`,
		},
		{
			name:       "plain error hides internals",
			err:        errors.New("dial tcp 10.0.0.1: secret-password"),
			wantStatus: 500,
			wantBody:   `{"error":{"code":"S2R-RUN-0500","message":"internal error","details":{},"correlationId":"cid-1"}}`,
		},
		{
			name:       "cause is never rendered",
			err:        Wrap(RunBackendFault, errors.New("secret-cause"), "backend failed"),
			wantStatus: 502,
			wantBody:   `{"error":{"code":"S2R-RUN-0502","message":"backend failed","details":{},"correlationId":"cid-1"}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			captureLog(t)
			h := withCorrelation("cid-1", HandlerFunc(func(w http.ResponseWriter, r *http.Request) error {
				return tt.err
			}))
			resp, body := get(t, h)
			if resp.StatusCode != tt.wantStatus {
				t.Errorf("status = %d, want %d", resp.StatusCode, tt.wantStatus)
			}
			if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Errorf("Content-Type = %q", ct)
			}
			if diff := cmp.Diff(tt.wantBody, strings.TrimSpace(string(body))); diff != "" {
				t.Errorf("body (-want +got):\n%s", diff)
			}
		})
	}
}

func TestInternalErrorIsLogged(t *testing.T) {
	logs := captureLog(t)
	h := withCorrelation("cid-2", HandlerFunc(func(w http.ResponseWriter, r *http.Request) error {
		return errors.New("db exploded")
	}))
	get(t, h)
	var line map[string]any
	if err := json.Unmarshal(logs.Bytes(), &line); err != nil {
		t.Fatalf("log is not one JSON line: %v\n%s", err, logs)
	}
	want := map[string]any{"code": "S2R-RUN-0500", "correlationId": "cid-2", "error": "db exploded", "level": "ERROR"}
	for k, v := range want {
		if line[k] != v {
			t.Errorf("log %s = %v, want %v", k, line[k], v)
		}
	}
}

func TestAdminHandlerFuncInternalCode(t *testing.T) {
	captureLog(t)
	h := AdminHandlerFunc(func(w http.ResponseWriter, r *http.Request) error { return errors.New("boom") })
	resp, body := get(t, h)
	if resp.StatusCode != 500 || !strings.Contains(string(body), `"S2R-ADM-0500"`) {
		t.Errorf("got %d %s, want 500 S2R-ADM-0500", resp.StatusCode, body)
	}
}

func TestHandlerFuncNoError(t *testing.T) {
	h := HandlerFunc(func(w http.ResponseWriter, r *http.Request) error {
		w.Write([]byte("ok"))
		return nil
	})
	resp, body := get(t, h)
	if resp.StatusCode != 200 || string(body) != "ok" {
		t.Errorf("got %d %q", resp.StatusCode, body)
	}
}

func TestWithDoesNotMutate(t *testing.T) {
	base := New(RunNotFound, "x").WithDetail("a", 1)
	derived := base.WithDetail("b", 2)
	if diff := cmp.Diff(map[string]any{"a": 1}, base.Details); diff != "" {
		t.Errorf("base changed (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]any{"a": 1, "b": 2}, derived.Details); diff != "" {
		t.Errorf("derived (-want +got):\n%s", diff)
	}
}

func TestUnencodableDetailsDropped(t *testing.T) {
	e := New(ValBadRequest, "bad").WithDetail("f", func() {})
	got := string(MarshalJSONBody(e, "c"))
	want := `{"error":{"code":"S2R-VAL-0400","message":"bad","details":{},"correlationId":"c"}}`
	if got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
