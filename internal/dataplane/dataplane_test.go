package dataplane

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/s2r-project/s2r/internal/httpx"
	"github.com/s2r-project/s2r/internal/license"
)

type memRecorder struct {
	mu    sync.Mutex
	paths []string
}

func (m *memRecorder) RecordBadURL(method, path string, at time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.paths = append(m.paths, method+" "+path)
}

type stateFunc func() license.State

func (f stateFunc) State() license.State { return f() }

type errBody struct {
	Error struct {
		Code          string         `json:"code"`
		Message       string         `json:"message"`
		Details       map[string]any `json:"details"`
		CorrelationID string         `json:"correlationId"`
	} `json:"error"`
}

func TestDispatcher(t *testing.T) {
	rec := &memRecorder{}
	state := license.Valid
	var mu sync.Mutex
	d := New(Config{
		BadURLs:      rec,
		License:      stateFunc(func() license.State { mu.Lock(); defer mu.Unlock(); return state }),
		MaxPayloadMB: func() int { return 1 },
	})
	srv := httptest.NewServer(httpx.Correlation(d))
	defer srv.Close()

	tests := []struct {
		name       string
		method     string
		path       string
		header     map[string]string
		body       []byte
		stop       bool
		wantStatus int
		wantCode   string
		wantSOAP   string // "1.1" or "1.2" when a Fault is expected
	}{
		{name: "direction alone", method: "GET", path: "/publish/", wantStatus: 400, wantCode: "S2R-RUN-0405"},
		{name: "direction no slash", method: "GET", path: "/publish", wantStatus: 400, wantCode: "S2R-RUN-0405"},
		{name: "unknown direction", method: "POST", path: "/foo/dev/x", wantStatus: 400, wantCode: "S2R-RUN-0405"},
		{name: "root", method: "GET", path: "/", wantStatus: 400, wantCode: "S2R-RUN-0405"},
		{name: "case matters", method: "GET", path: "/Publish/dev/x", wantStatus: 400, wantCode: "S2R-RUN-0405"},
		{name: "empty environment", method: "GET", path: "/gateway//x", wantStatus: 400, wantCode: "S2R-RUN-0405"},
		{name: "no service key", method: "GET", path: "/publish/dev", wantStatus: 404, wantCode: "S2R-RUN-0404"},
		{name: "unknown route", method: "POST", path: "/publish/dev/calc/add", wantStatus: 404, wantCode: "S2R-RUN-0404"},
		{name: "gateway unknown route", method: "POST", path: "/gateway/dev/calc", wantStatus: 404, wantCode: "S2R-RUN-0404"},
		{name: "consume unknown route soap11", method: "POST", path: "/consume/dev/calc", header: map[string]string{"Content-Type": "text/xml"},
			wantStatus: 500, wantCode: "S2R-RUN-0404", wantSOAP: "1.1"},
		{name: "consume unknown route soap12", method: "POST", path: "/consume/dev/calc", header: map[string]string{"Content-Type": "application/soap+xml; charset=utf-8"},
			wantStatus: 400, wantCode: "S2R-RUN-0404", wantSOAP: "1.2"},
		{name: "consume license stop soap12", method: "POST", path: "/consume/dev/calc", stop: true,
			header:     map[string]string{"Content-Type": "application/soap+xml"},
			wantStatus: 500, wantCode: "S2R-RUN-0503", wantSOAP: "1.2"},
		{name: "payload too large", method: "POST", path: "/publish/dev/calc/add", body: make([]byte, 1<<20+1), wantStatus: 413, wantCode: "S2R-RUN-0413"},
		{name: "license stop", method: "POST", path: "/publish/dev/calc/add", stop: true, wantStatus: 503, wantCode: "S2R-RUN-0503"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mu.Lock()
			state = license.Valid
			if tt.stop {
				state = license.RuntimeStop
			}
			mu.Unlock()
			req, _ := http.NewRequest(tt.method, srv.URL+tt.path, bytes.NewReader(tt.body))
			for k, v := range tt.header {
				req.Header.Set(k, v)
			}
			req.Header.Set("X-Correlation-Id", "cid-"+strings.ReplaceAll(tt.name, " ", "-"))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tt.wantStatus {
				t.Errorf("status = %d, want %d: %s", resp.StatusCode, tt.wantStatus, b)
			}
			cid := req.Header.Get("X-Correlation-Id")
			if tt.wantSOAP != "" {
				if !strings.Contains(string(b), "<s2r:code>"+tt.wantCode+"</s2r:code>") || !strings.Contains(string(b), cid) {
					t.Errorf("fault lacks code or correlation id: %s", b)
				}
				ns := map[string]string{"1.1": "http://schemas.xmlsoap.org/soap/envelope/", "1.2": "http://www.w3.org/2003/05/soap-envelope"}[tt.wantSOAP]
				if !strings.Contains(string(b), ns) {
					t.Errorf("fault is not SOAP %s: %s", tt.wantSOAP, b)
				}
				return
			}
			var eb errBody
			if err := json.Unmarshal(b, &eb); err != nil {
				t.Fatalf("body is not JSON: %v: %s", err, b)
			}
			if eb.Error.Code != tt.wantCode || eb.Error.CorrelationID != cid {
				t.Errorf("code %s cid %s, want %s %s", eb.Error.Code, eb.Error.CorrelationID, tt.wantCode, cid)
			}
			if tt.wantCode == "S2R-RUN-0413" && eb.Error.Details["maxPayloadMb"] != float64(1) {
				t.Errorf("details = %v, want maxPayloadMb 1", eb.Error.Details)
			}
		})
	}
	// Paths without a direction, and paths that name no active service:
	// the Unmapped URLs of the console.
	want := []string{"GET /publish/", "GET /publish", "POST /foo/dev/x", "GET /", "GET /Publish/dev/x", "GET /gateway//x",
		"GET /publish/dev", "POST /publish/dev/calc/add", "POST /gateway/dev/calc", "POST /consume/dev/calc", "POST /consume/dev/calc"}
	if diff := cmp.Diff(want, rec.paths); diff != "" {
		t.Errorf("recorded bad URLs (-want +got):\n%s", diff)
	}
}

func TestParseTarget(t *testing.T) {
	tests := []struct {
		path string
		want Target
		ok   bool
	}{
		{"/publish/dev/calc/add", Target{Publish, "dev", "calc", "/add"}, true},
		{"/consume/prod/svc", Target{Consume, "prod", "svc", ""}, true},
		{"/gateway/dev/svc/", Target{Gateway, "dev", "svc", "/"}, true},
		{"/publish/dev/", Target{Publish, "dev", "", ""}, true},
		{"/publish/", Target{}, false},
		{"publish/dev/x", Target{}, false},
		{"", Target{}, false},
	}
	for _, tt := range tests {
		got, ok := parseTarget(tt.path)
		if ok != tt.ok || got != tt.want {
			t.Errorf("parseTarget(%q) = %+v, %v; want %+v, %v", tt.path, got, ok, tt.want, tt.ok)
		}
	}
}

func FuzzParseTarget(f *testing.F) {
	for _, s := range []string{"/publish/dev/calc/add", "/consume//", "/x", "", "/gateway/dev/svc/a/b/c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, path string) {
		tg, ok := parseTarget(path)
		if !ok {
			return
		}
		if _, valid := ParseDirection(string(tg.Direction)); !valid || tg.Environment == "" {
			t.Errorf("parseTarget(%q) accepted %+v", path, tg)
		}
		if strings.Contains(tg.Environment, "/") || strings.Contains(tg.ServiceKey, "/") {
			t.Errorf("segment holds a slash: %+v", tg)
		}
	})
}
