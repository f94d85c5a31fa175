package httpx

import (
	"net/http"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
)

func TestSurfaceOf(t *testing.T) {
	tests := map[string]string{
		"/admin/v1/me": SurfaceAdmin, "/admin/v1": SurfaceAdmin, "/admin/v10": SurfaceRuntime,
		"/ingest/v1/x": SurfaceIngest, "/health/live": SurfaceHealth, "/metrics": SurfaceMetrics,
		"/publish/dev/a": SurfaceRuntime, "/foo": SurfaceRuntime, "/": SurfaceRuntime,
		"/console": SurfaceConsole, "/console/services/x": SurfaceConsole, "/consoles": SurfaceRuntime,
	}
	for path, want := range tests {
		if got := SurfaceOf(path); got != want {
			t.Errorf("SurfaceOf(%q) = %q, want %q", path, got, want)
		}
	}
}

func TestMetrics(t *testing.T) {
	reg := prometheus.NewRegistry()
	m, err := NewHTTPMetrics(reg)
	if err != nil {
		t.Fatal(err)
	}
	log, _ := newLogger()
	srv := serve(t, Recover(log)(Metrics(m)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/admin/v1/me":
			w.WriteHeader(http.StatusForbidden)
		case "/boom":
			panic("x")
		}
	}))))
	for _, p := range []string{"/publish/dev/a", "/publish/dev/b", "/admin/v1/me", "/boom"} {
		req, _ := http.NewRequest("GET", srv.URL+p, nil)
		do(t, req)
	}
	got := map[string]float64{}
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var histCount uint64
	for _, f := range families {
		for _, mt := range f.GetMetric() {
			labels := ""
			for _, l := range mt.GetLabel() {
				labels += l.GetName() + "=" + l.GetValue() + " "
			}
			switch f.GetName() {
			case "s2r_http_requests_total":
				got[labels] = mt.GetCounter().GetValue()
			case "s2r_http_request_duration_seconds":
				histCount += mt.GetHistogram().GetSampleCount()
			}
		}
	}
	want := map[string]float64{"code=200 surface=runtime ": 2, "code=403 surface=admin ": 1, "code=500 surface=runtime ": 1}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("requests{%s} = %v, want %v (all: %v)", k, got[k], v, got)
		}
	}
	if histCount != 4 {
		t.Errorf("duration samples = %d, want 4", histCount)
	}
}
