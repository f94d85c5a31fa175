package query

import (
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// concrete fills a route's path wildcards.
func concrete(path string) string {
	return strings.NewReplacer("{correlationId}", "cid-1", "{id}", "0b6c3e52-8d2f-4f0e-9a51-3c1d2e4f5a6b").Replace(path)
}

// TestRoutesGuarded sends every route of the package through the real
// admin handler: 401 without identity, 403 for an identity without a role
// (below reader), and neither for reader, operator and admin.
func TestRoutesGuarded(t *testing.T) {
	api := newTestAPI(t, storetest.SQLite(t), time.Now())
	for _, rt := range api.api.Routes() {
		if rt.Role != model.RoleReader {
			t.Errorf("%s %s: role %s, want reader", rt.Method, rt.Path, rt.Role)
		}
	}
	admintest.CheckGuarded(t, api.c, api.api.Routes(), admintest.Guard{Path: concrete, Body: "<a/>", ContentType: "text/xml", Admitted: true})
}

// TestRoutesDocumented checks the admin OpenAPI document, with this
// package's routes, is valid and describes each of them.
func TestRoutesDocumented(t *testing.T) {
	api := newTestAPI(t, storetest.SQLite(t), time.Now())
	admintest.CheckDocumented(t, api.c, api.api.Routes())
}

// TestBadParameters pairs bad inputs with 400 S2R-VAL-0400 naming the
// parameter.
func TestBadParameters(t *testing.T) {
	api := newTestAPI(t, storetest.SQLite(t), time.Now())
	long := strings.Repeat("x", 300)
	tests := []struct{ path, field string }{
		{"/metrics?window=2h", "window"},
		{"/metrics?start=yesterday", "start"},
		{"/metrics?end=2026-13-01T00:00:00Z", "end"},
		{"/metrics?start=2026-02-02T00:00:00Z&end=2026-02-01T00:00:00Z", "start"},
		{"/metrics?start=2020-01-01T00:00:00Z&end=2026-01-01T00:00:00Z", "start"},
		{"/metrics?source=lbx", "source"},
		{"/metrics?source=runtime,lb", "source"},
		{"/metrics?direction=sideways", "direction"},
		{"/metrics?onboardedOnly=yes", "onboardedOnly"},
		{"/metrics?serviceKeys=" + long, "serviceKeys"},
		{"/metrics?environments=%FF", "environments"},
		{"/metrics?serviceKeys=a%00b", "serviceKeys"},
		{"/metrics?serviceKeys=" + strings.Repeat("k,", 50) + strings.Repeat("q,", 1) + manyKeys(101), "serviceKeys"},
		{"/dashboard/summary?trafficThreshold=-1", "trafficThreshold"},
		{"/dashboard/summary?trafficThreshold=lots", "trafficThreshold"},
		{"/dashboard/summary?p95LatencyTargetMs=NaN", "p95LatencyTargetMs"},
		{"/dashboard/summary?availabilityTarget=100.5", "availabilityTarget"},
		{"/dashboard/summary?source=generic2", "source"},
		{"/dashboard/summary?direction=up", "direction"},
		{"/slo-report?window=90d", "window"},
		{"/slo-report?availabilityTarget=-3", "availabilityTarget"},
		{"/slo-report?p95LatencyTargetMs=x", "p95LatencyTargetMs"},
		{"/service-metric-timeline", "serviceKey"},
		{"/service-metric-timeline?serviceKey=a&window=1y", "window"},
		{"/service-metric-timeline?serviceKey=a&environment=" + long, "environment"},
		{"/traffic-search?since=nope", "since"},
		{"/traffic-search?until=nope", "until"},
		{"/traffic-search?since=2026-02-02T00:00:00Z&until=2026-02-01T00:00:00Z", "since"},
		{"/traffic-search?limit=1001", "limit"},
		{"/traffic-search?limit=0", "limit"},
		{"/traffic-search?statusClass=teapot", "statusClass"},
		{"/traffic-search?statusClass=700", "statusClass"},
		{"/traffic-search?source=everything", "source"},
		{"/traffic-search?monitorFilter=some", "monitorFilter"},
		{"/traffic-search?direction=east", "direction"},
		{"/traffic-search?uriContains=" + long, "uriContains"},
		{"/traffic-search?backendContains=%FF", "backendContains"},
		{"/metrics?source=all", "source"},
		{"/slo-report?source=both", "source"},
		{"/traffic-search?consumerIpContains=" + long, "consumerIpContains"},
		{"/traffic-search?payloadContains=%FF", "payloadContains"},
		{"/traffic-search?source=generic", "source"},
		{"/traffic-logs?source=runtime", "source"},
		{"/traffic-logs?pageSize=201", "pageSize"},
		{"/traffic-logs?page=0", "page"},
		{"/traffic-logs?instanceId=abc", "instanceId"},
		{"/traffic-logs?window=2d", "window"},
		{"/traffic-logs?start=later", "start"},
		{"/traffic-logs?end=2026-01-01T00:00:00Z&start=2026-02-01T00:00:00Z", "start"},
		{"/traffic-logs?serviceUri=" + long, "serviceUri"},
		{"/traffic-logs?customer=%FF", "customer"},
		{"/traffic-logs?frontVirtualServer=a%00b", "frontVirtualServer"},
		{"/traffic-logs?backVirtualServer=" + long, "backVirtualServer"},
		{"/traffic-logs?vendor=" + long, "vendor"},
		{"/traffic-logs?resultCode=%FF", "resultCode"},
		{"/traffic-logs/not-an-id", "id"},
		{"/traffic-logs/0?source=generic", "id"},
		{"/traffic-logs/0b6c3e52-8d2f-4f0e-9a51-3c1d2e4f5a6b?source=generic", "source"},
		{"/traffic-logs/123", "source"},
		{"/traffic-logs/123?source=lb", "source"},
		{"/traffic-logs/123?source=runtime", "source"},
		{"/traffic-logs/123?source=generic&includeCloud=maybe", "includeCloud"},
		{"/lb-logs?stage=finished", "stage"},
		{"/lb-logs?pageSize=500", "pageSize"},
		{"/lb-logs?instanceId=0b6c3e52", "instanceId"},
		{"/lb-logs/123", "id"},
		{"/lb-logs/0b6c3e52-8d2f-4f0e-9a51-3c1d2e4f5a6b?includeCloud=1", "includeCloud"},
		{"/debug-traces/%FF", "correlationId"},
		{"/debug-traces/" + long + "/replay-metadata", "correlationId"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			var e admintest.ErrorBody
			api.do("GET", "/admin/v1"+tt.path, readerEmail, "", "").WantStatus(t, 400).Decode(t, &e)
			if e.Error.Code != "S2R-VAL-0400" || e.Error.Details["field"] != tt.field {
				t.Errorf("error %+v, want S2R-VAL-0400 naming %s", e.Error, tt.field)
			}
		})
	}
}

func manyKeys(n int) string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = "key" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + string(rune('a'+i/26))
	}
	return strings.Join(keys, ",")
}
