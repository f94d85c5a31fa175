package query

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/access"
	"github.com/s2r-project/s2r/internal/admin"
	"github.com/s2r-project/s2r/internal/discovery"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/routing"
	routeload "github.com/s2r-project/s2r/internal/routing/load"
	"github.com/s2r-project/s2r/internal/store"
)

// The benchmarks below measure the observability endpoints on a database
// filled by scripts/bench-observe.sh (docs/PERFORMANCE.md): they run only
// when S2R_OBSERVE_BENCH_URL names it, with S2R_OBSERVE_BENCH_END the end
// of the generated span (the clock of the queries).
const (
	envBenchURL = "S2R_OBSERVE_BENCH_URL"
	envBenchEnd = "S2R_OBSERVE_BENCH_END"
	benchEmail  = "bench@example.com"
)

// benchServer is the admin handler with this package's routes, on the
// benchmark database, behind a real HTTP server on 127.0.0.1.
type benchServer struct {
	srv   *httptest.Server
	store *store.Store
	end   time.Time
}

func newBenchServer(b *testing.B) *benchServer {
	b.Helper()
	u := os.Getenv(envBenchURL)
	if u == "" {
		b.Skip("set " + envBenchURL + " (scripts/bench-observe.sh)")
	}
	end, err := time.Parse(time.RFC3339, os.Getenv(envBenchEnd))
	if err != nil {
		b.Fatalf("%s: %v", envBenchEnd, err)
	}
	st, err := store.Open(context.Background(), store.Config{URL: u})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	settings, err := routeload.Settings(context.Background(), st)
	if err != nil {
		b.Fatal(err)
	}
	disc, err := discovery.New(discovery.Config{Store: st, Settings: routing.Fixed{Snapshot: settings}, Logger: quiet,
		Now: func() time.Time { return end }})
	if err != nil {
		b.Fatal(err)
	}
	api := New(Config{Store: st, Logger: quiet, Now: func() time.Time { return end }, Ingest: disc})
	srv := httptest.NewServer(admin.New(admin.Config{Store: st, Logger: quiet, Routes: api.Routes(), BootstrapAdmins: []string{benchEmail}}))
	b.Cleanup(srv.Close)
	return &benchServer{srv: srv, store: st, end: end}
}

// get benchmarks one GET of path.
func (s *benchServer) get(b *testing.B, path string) {
	b.Helper()
	req, _ := http.NewRequest("GET", s.srv.URL+"/admin/v1"+path, nil)
	req.Header.Set(access.HeaderEmail, benchEmail)
	n := 0
	for b.Loop() {
		resp, err := s.srv.Client().Do(req)
		if err != nil {
			b.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			b.Fatalf("%s: %d %s", path, resp.StatusCode, body)
		}
		n = len(body)
	}
	b.ReportMetric(float64(n), "bytes/answer")
}

func (s *benchServer) iso(d time.Duration) string {
	return url.QueryEscape(s.end.Add(d).Format(time.RFC3339))
}

func BenchmarkMetrics60d(b *testing.B) { newBenchServer(b).get(b, "/metrics?window=60d") }

func BenchmarkMetrics60dOnboarded(b *testing.B) {
	newBenchServer(b).get(b, "/metrics?window=60d&onboardedOnly=true")
}

func BenchmarkMetrics1hRaw(b *testing.B) { newBenchServer(b).get(b, "/metrics?window=1h") }

func BenchmarkMetrics1hRawOnboarded(b *testing.B) {
	newBenchServer(b).get(b, "/metrics?window=1h&onboardedOnly=true")
}

// BenchmarkLatencyBaseline1h is the baseline of the 1-hour figures: the
// runtime-logs latency endpoint (one count and four OFFSET probes over the
// same hour, no grouping).
func BenchmarkLatencyBaseline1h(b *testing.B) {
	s := newBenchServer(b)
	s.get(b, "/runtime-logs/latency?start="+s.iso(-time.Hour)+"&end="+s.iso(0))
}

// BenchmarkMetrics60dFromRaw is the baseline of the 60-day figures: the
// same grouping computed from the raw records with exact percentiles,
// which the hourly aggregates replace.
func BenchmarkMetrics60dFromRaw(b *testing.B) {
	s := newBenchServer(b)
	q := model.MetricQuery{Since: s.end.Add(-60 * 24 * time.Hour), Until: s.end, Group: model.BySource | model.ByService}
	for b.Loop() {
		if _, err := s.store.Metrics(context.Background(), q); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDashboard(b *testing.B) { newBenchServer(b).get(b, "/dashboard/summary") }

func BenchmarkSLOReport24h(b *testing.B) { newBenchServer(b).get(b, "/slo-report?window=24h") }

func BenchmarkSLOReport1h(b *testing.B) { newBenchServer(b).get(b, "/slo-report?window=1h") }

func BenchmarkServiceTimeline30d(b *testing.B) {
	newBenchServer(b).get(b, "/service-metric-timeline?serviceKey=svc001&window=30d")
}

// The searches cover 24 hours: the newest 200 of everything, a rare
// service (most of the day's records are read to find 200), server
// errors, and a substring nothing matches (every record of the day read).
func BenchmarkTrafficSearch24h(b *testing.B) {
	s := newBenchServer(b)
	s.get(b, "/traffic-search?since="+s.iso(-24*time.Hour)+"&until="+s.iso(0))
}

func BenchmarkTrafficSearch24hRare(b *testing.B) {
	s := newBenchServer(b)
	s.get(b, "/traffic-search?uriContains=svc187&since="+s.iso(-24*time.Hour)+"&until="+s.iso(0))
}

func BenchmarkTrafficSearch24hServerErrors(b *testing.B) {
	s := newBenchServer(b)
	s.get(b, "/traffic-search?statusClass=server_error&since="+s.iso(-24*time.Hour)+"&until="+s.iso(0))
}

func BenchmarkTrafficSearch24hNoMatch(b *testing.B) {
	s := newBenchServer(b)
	s.get(b, "/traffic-search?uriContains=nothing-matches&limit=1000&since="+s.iso(-24*time.Hour)+"&until="+s.iso(0))
}

func BenchmarkMetrics1hRawLB(b *testing.B) { newBenchServer(b).get(b, "/metrics?window=1h&source=lb") }

func BenchmarkMetrics60dLB(b *testing.B) { newBenchServer(b).get(b, "/metrics?window=60d&source=lb") }

// The lb searches cover 24 hours of lb transactions (about 40,000 of the
// day's 170,000 events are client_responses): the newest 200, a rare
// service, a consumer IP substring, and a payload substring that no
// payload holds (every transaction's payloads of the day read: the worst
// case).
func BenchmarkTrafficSearch24hLB(b *testing.B) {
	s := newBenchServer(b)
	s.get(b, "/traffic-search?source=lb&since="+s.iso(-24*time.Hour)+"&until="+s.iso(0))
}

func BenchmarkTrafficSearch24hAll(b *testing.B) {
	s := newBenchServer(b)
	s.get(b, "/traffic-search?source=all&since="+s.iso(-24*time.Hour)+"&until="+s.iso(0))
}

func BenchmarkTrafficSearch24hLBRare(b *testing.B) {
	s := newBenchServer(b)
	s.get(b, "/traffic-search?source=lb&uriContains=tariffservice&since="+s.iso(-24*time.Hour)+"&until="+s.iso(0))
}

func BenchmarkTrafficSearch24hLBConsumer(b *testing.B) {
	s := newBenchServer(b)
	s.get(b, "/traffic-search?source=lb&consumerIpContains=172.16.7.&since="+s.iso(-24*time.Hour)+"&until="+s.iso(0))
}

func BenchmarkTrafficSearch24hLBPayloadNoMatch(b *testing.B) {
	s := newBenchServer(b)
	s.get(b, "/traffic-search?source=lb&payloadContains=nothing-matches&since="+s.iso(-24*time.Hour)+"&until="+s.iso(0))
}

// The traffic logs: page 1 over 24 hours of every edge source (a count of
// the day's transactions and the newest 50 merged with their stages),
// with filters, and one transaction's detail with its payloads.
func BenchmarkTrafficLogs24h(b *testing.B) { newBenchServer(b).get(b, "/traffic-logs?window=24h") }

func BenchmarkTrafficLogs24hFiltered(b *testing.B) {
	newBenchServer(b).get(b, "/traffic-logs?window=24h&source=lb&resultCode=reset,no_backend&frontVirtualServer=vs_")
}

func BenchmarkTrafficLogs15m(b *testing.B) { newBenchServer(b).get(b, "/traffic-logs") }

func BenchmarkLBLogs24hInFlight(b *testing.B) {
	newBenchServer(b).get(b, "/lb-logs?window=24h&stage=client_request&pageSize=200")
}

func BenchmarkTrafficLogDetail(b *testing.B) {
	s := newBenchServer(b)
	var gtid string
	err := s.store.Transact(context.Background(), func(tx *store.Tx) error {
		return tx.QueryRow(context.Background(), "SELECT CAST(global_transaction_id AS TEXT) FROM lb_events "+
			"WHERE occurred_at <= $1 ORDER BY occurred_at DESC LIMIT 1", store.NewTime(s.end)).Scan(&gtid)
	})
	if err != nil {
		b.Fatal(err)
	}
	s.get(b, "/traffic-logs/"+gtid)
}
