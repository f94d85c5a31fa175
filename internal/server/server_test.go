package server

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/dataplane"
	"github.com/s2r-project/s2r/internal/health"
	"github.com/s2r-project/s2r/internal/httpx"
)

func testConfig(t *testing.T, separate bool) Config {
	t.Helper()
	reg := NewRegistry()
	m, err := httpx.NewHTTPMetrics(reg)
	if err != nil {
		t.Fatal(err)
	}
	return Config{
		Logger:   slog.New(slog.NewJSONHandler(io.Discard, nil)),
		Registry: reg,
		Metrics:  m,
		Health:   health.New(health.Config{}),
		Runtime:  dataplane.New(dataplane.Config{}),
		Admin: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, "admin:"+r.URL.Path)
		}),
		Console: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, "console:"+r.URL.Path)
		}),
		SeparateAdmin: separate,
	}
}

func fetch(t *testing.T, base, path string) (int, string, http.Header) {
	t.Helper()
	resp, err := http.Get(base + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header
}

func TestRouting(t *testing.T) {
	main := httptest.NewServer(testConfig(t, false).MainHandler())
	defer main.Close()
	sepCfg := testConfig(t, true)
	sepMain := httptest.NewServer(sepCfg.MainHandler())
	defer sepMain.Close()
	sepAdmin := httptest.NewServer(sepCfg.AdminHandler())
	defer sepAdmin.Close()

	tests := []struct {
		name       string
		base       string
		path       string
		wantStatus int
		wantInBody string
	}{
		{"live", main.URL, "/health/live", 200, `{"status":"UP"}`},
		{"ready", main.URL, "/health/ready", 200, `"status":"UP"`},
		{"metrics", main.URL, "/metrics", 200, "go_goroutines"},
		{"admin", main.URL, "/admin/v1/me", 200, "admin:/admin/v1/me"},
		{"ingest", main.URL, "/ingest/v1/feed", 404, "S2R-RUN-0404"},
		{"runtime bad direction", main.URL, "/publish/", 400, "S2R-RUN-0405"},
		{"runtime foo", main.URL, "/foo", 400, "S2R-RUN-0405"},
		{"runtime unclean path not redirected", main.URL, "/publish//x/../y", 400, "S2R-RUN-0405"},
		{"runtime no route", main.URL, "/publish/dev/calc/add", 404, "S2R-RUN-0404"},
		{"separate: admin hidden on main", sepMain.URL, "/admin/v1/me", 404, "S2R-ADM-0404"},
		{"separate: admin listener serves admin", sepAdmin.URL, "/admin/v1/me", 200, "admin:/admin/v1/me"},
		{"separate: admin listener has no runtime", sepAdmin.URL, "/publish/dev/x", 404, "S2R-ADM-0404"},
		{"separate: admin listener health", sepAdmin.URL, "/health/live", 200, "UP"},
		{"console", main.URL, "/console/services/1", 200, "console:/console/services/1"},
		{"console root", main.URL, "/console", 200, "console:/console"},
		{"separate: console hidden on main", sepMain.URL, "/console/", 404, "the console is served on the admin listener only"},
		{"separate: admin listener serves console", sepAdmin.URL, "/console/audit", 200, "console:/console/audit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body, h := fetch(t, tt.base, tt.path)
			if status != tt.wantStatus || !strings.Contains(body, tt.wantInBody) {
				t.Errorf("GET %s = %d %s; want %d containing %s", tt.path, status, body, tt.wantStatus, tt.wantInBody)
			}
			if h.Get("X-Correlation-Id") == "" {
				t.Errorf("no X-Correlation-Id on %s", tt.path)
			}
		})
	}
}

func TestMetricsCountSurfaces(t *testing.T) {
	srv := httptest.NewServer(testConfig(t, false).MainHandler())
	defer srv.Close()
	fetch(t, srv.URL, "/foo")
	fetch(t, srv.URL, "/health/live")
	_, body, _ := fetch(t, srv.URL, "/metrics")
	for _, want := range []string{
		`s2r_http_requests_total{code="400",surface="runtime"} 1`,
		`s2r_http_requests_total{code="200",surface="health"} 1`,
		`s2r_http_request_duration_seconds_bucket{surface="runtime",le="+Inf"} 1`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}

func TestListenerGracefulShutdown(t *testing.T) {
	started := make(chan struct{})
	release := make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		<-release
		io.WriteString(w, "done")
	})
	ctx, cancel := context.WithCancel(context.Background())
	addrc := make(chan net.Addr, 1)
	l := Listener{Name: "main", Addr: "127.0.0.1:0", Handler: h, Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)),
		OnReady: func(_ string, a net.Addr) { addrc <- a }}
	runErr := make(chan error, 1)
	go func() { runErr <- l.Run(ctx) }()
	addr := <-addrc
	type result struct {
		body string
		err  error
	}
	resc := make(chan result, 1)
	go func() {
		resp, err := http.Get("http://" + addr.String() + "/slow")
		if err != nil {
			resc <- result{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		resc <- result{string(b), err}
	}()
	<-started
	cancel()
	// Shutdown closes the listener first: new connections are refused
	// while the in-flight request is still running.
	refused := false
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		c, err := net.DialTimeout("tcp", addr.String(), time.Second)
		if err != nil {
			refused = true
			break
		}
		c.Close()
	}
	if !refused {
		t.Error("listener still accepts 10s after shutdown began")
	}
	close(release)
	res := <-resc
	if res.err != nil || res.body != "done" {
		t.Errorf("in-flight request = %q, %v; want done", res.body, res.err)
	}
	if err := <-runErr; err != nil {
		t.Errorf("Run = %v, want nil", err)
	}
}

// TestAdminRefusesCrossOriginWrites: the admin surface of both listeners
// refuses a browser's cross-site change (the console's CSRF guard).
func TestAdminRefusesCrossOriginWrites(t *testing.T) {
	cfg := testConfig(t, true)
	for name, h := range map[string]http.Handler{"main": testConfig(t, false).MainHandler(), "admin": cfg.AdminHandler()} {
		srv := httptest.NewServer(h)
		req, _ := http.NewRequest("POST", srv.URL+"/admin/v1/services", nil)
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		srv.Close()
		if resp.StatusCode != 403 || !strings.Contains(string(b), "S2R-ADM-0403") {
			t.Errorf("%s: cross-site POST = %d %s, want 403 S2R-ADM-0403", name, resp.StatusCode, b)
		}
	}
}
