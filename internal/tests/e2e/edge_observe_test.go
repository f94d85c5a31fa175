package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/loadgen"
	"github.com/s2r-project/s2r/internal/tests/poll"
)

// TestEdgeTrafficObserved sends load-balancer transactions (a credential
// in their headers and WS-Security payloads) and generic logs through
// the ingest API of a real `s2r serve`, and follows them into the
// observability views: the aggregated and raw metrics of the lb and
// generic sources (the aggregation job running in the server), the
// dashboard, the unified traffic logs with a merged transaction's detail,
// and the search, none of which may show or find the credential.
func TestEdgeTrafficObserved(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *server) {
		s.admin(t, "PATCH", "/settings", map[string]any{"aggregation_interval_seconds": 5}).WantStatus(t, 200)
		lbToken := admintest.Dig(s.admin(t, "POST", "/ingest-instances", map[string]any{"vendor": "f5", "name": "edge"}).WantStatus(t, 201).JSON(t), "token")
		kongToken := admintest.Dig(s.admin(t, "POST", "/ingest-instances", map[string]any{"vendor": "kong", "name": "gw"}).WantStatus(t, 201).JSON(t), "token")
		gen := loadgen.New(loadgen.Config{Services: 3, ErrorRate: 0.5, PayloadBytes: 200, Seed: 3})
		now := time.Now()
		events := gen.LBBatch(400, now.Add(-2*time.Hour)) // in an earlier hour: read from the aggregates
		events = append(events, gen.LBBatch(40, now)...)
		calls := 0
		for i := range events {
			e := &events[i]
			if e.Stage == "client_request" {
				e.Headers["Authorization"] = "Bearer " + redactCanary
				e.Payload = soapWithHeader(false, wsseHeader, "<m:Get>keep-body</m:Get>")
			}
			if e.Stage == "client_response" {
				calls++
			}
		}
		ingest := func(path, token string, v any) {
			body, _ := json.Marshal(v)
			s.do(t, "POST", path, "", body, "Authorization", "Bearer "+token).WantStatus(t, 200)
		}
		ingest("/ingest/v1/lb-events", lbToken, events)
		ingest("/ingest/v1/generic-logs", kongToken, gen.GenericBatch(25, now))

		total := func(query string) (n int) {
			var items []struct {
				RequestCount int `json:"requestCount"`
			}
			if err := json.Unmarshal(s.admin(t, "GET", "/metrics?"+query, nil).WantStatus(t, 200).Body, &items); err != nil {
				t.Fatal(err)
			}
			for _, it := range items {
				n += it.RequestCount
			}
			return n
		}
		poll.UntilOK(t, settle, "lb calls aggregated", func() string {
			if n := total("window=24h&source=lb"); n != calls {
				return fmt.Sprintf("%d lb calls in 24 h, want %d", n, calls)
			}
			return ""
		})
		if n := total("window=1h&source=generic"); n != 25 {
			t.Errorf("%d generic calls in the last hour, want 25", n)
		}
		dash := s.admin(t, "GET", "/dashboard/summary", nil).WantStatus(t, 200).JSON(t)
		kpis, _ := dash["kpis"].(map[string]any)
		if stale, ok := kpis["f5IngestStale"].(bool); !ok || stale {
			t.Errorf("kpis %v", kpis)
		}
		if vs, _ := dash["topVsLevelFailures24h"].([]any); len(vs) == 0 {
			t.Errorf("no virtual-server failures: %v", dash["topVsLevelFailures24h"])
		}

		page := s.admin(t, "GET", "/traffic-logs?window=24h&source=lb&pageSize=5", nil).WantStatus(t, 200).JSON(t)
		items, _ := page["items"].([]any)
		if len(items) != 5 || page["totalItems"].(float64) != float64(calls) {
			t.Fatalf("traffic logs page %v", page)
		}
		id := admintest.Dig(items[0], "id")
		detail := s.admin(t, "GET", "/traffic-logs/"+id+"?source=lb", nil).WantStatus(t, 200)
		if evs, _ := detail.JSON(t)["events"].([]any); len(evs) != 4 || !bytes.Contains(detail.Body, []byte("keep-body")) {
			t.Errorf("detail %s", detail.Body)
		}
		search := s.admin(t, "GET", "/traffic-search?source=all&payloadContains=alice&since="+
			strings.ReplaceAll(now.Add(-3*time.Hour).UTC().Format(time.RFC3339), ":", "%3A"), nil).WantStatus(t, 200).JSON(t)
		if found, _ := search["items"].([]any); len(found) == 0 {
			t.Errorf("payload search found nothing: %v", search)
		}
		for _, path := range []string{"/traffic-logs/" + id, "/lb-logs/" + id,
			"/traffic-search?source=lb&payloadContains=" + redactCanary, "/traffic-logs?window=24h&pageSize=200"} {
			r := s.admin(t, "GET", path, nil).WantStatus(t, http.StatusOK)
			if bytes.Contains(r.Body, []byte(redactCanary)) || strings.Contains(path, "payloadContains") && bytes.Contains(r.Body, []byte(`"lb"`)) {
				t.Errorf("%s shows or finds the credential: %.300s", path, r.Body)
			}
		}
	})
}
