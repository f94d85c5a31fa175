package query

import (
	"slices"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// TestTrafficSearchEdge searches lb transactions, generic logs and
// runtime records together: sources, the filters only some sources have,
// the tenant, truncation across sources and the reader's payload search.
func TestTrafficSearchEdge(t *testing.T) {
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st, now)
		fx := seedEdgeLogs(t, api, now)
		insertLogs(t, st, []model.TxLog{
			{CorrelationID: "r-1", OccurredAt: now.Add(-6 * time.Minute), Direction: "publish", Environment: "prod", ServiceKey: "calc",
				OperationKey: "add", Method: "POST", Path: "/publish/prod/calc/add", HTTPStatus: 502, ResultCode: "backend_failure",
				BackendTarget: "http://10.0.0.1:8080/CalcService/Calc.asmx", ClientIP: "10.9.8.3"},
			{CorrelationID: "r-2", OccurredAt: now.Add(-8 * time.Minute), Direction: "consume", Environment: "dev", ServiceKey: "weather",
				OperationKey: "get", Method: "POST", Path: "/consume/dev/weather", HTTPStatus: 200, ResultCode: "success"},
		})
		a, b, gen := "lb:"+txA, "lb:"+txB, "generic:"+fx.genericID
		for _, tt := range []struct {
			query, email string
			want         []string
			truncated    bool
		}{
			{"", readerEmail, []string{a, "runtime:r-1", "runtime:r-2", b}, false},
			{"source=lb", readerEmail, []string{a, b}, false},
			{"source=all", readerEmail, []string{a, "runtime:r-1", gen, "runtime:r-2", b}, false},
			{"source=all&limit=2", readerEmail, []string{a, "runtime:r-1"}, true},
			{"source=all&consumerIpContains=10.9.8", readerEmail, []string{gen, b}, false},
			{"source=both&uriContains=CALCULATOR", readerEmail, []string{a}, false},
			{"source=all&uriContains=calc", readerEmail, []string{a, "runtime:r-1"}, false},
			{"source=all&backendContains=10.0.0.1:8080", readerEmail, []string{a, "runtime:r-1", b}, false},
			{"source=all&statusClass=server_error", readerEmail, []string{"runtime:r-1", gen}, false},
			{"source=all&statusClass=200", readerEmail, []string{a, "runtime:r-2"}, false},
			{"source=all&direction=consume", readerEmail, []string{"runtime:r-2"}, false},
			{"source=all&payloadContains=boom", operatorEmail, []string{gen}, false},
			{"source=runtime&payloadContains=boom", operatorEmail, nil, false},
			{"source=lb", acmeEmail, []string{"lb:" + txD}, false},
		} {
			var got searchResult
			api.do("GET", "/admin/v1/traffic-search?since="+iso(now.Add(-time.Hour))+"&"+tt.query, tt.email, "", "").WantStatus(t, 200).Decode(t, &got)
			var ids []string
			for _, it := range got.Items {
				id := it.ID
				if it.Source == model.SourceRuntime {
					id = it.CorrelationID
				}
				ids = append(ids, it.Source+":"+id)
			}
			if !slices.Equal(ids, tt.want) || got.Truncated != tt.truncated {
				t.Errorf("%s as %s: %v truncated %v, want %v %v", tt.query, tt.email, ids, got.Truncated, tt.want, tt.truncated)
			}
		}
		var got searchResult
		api.get("/admin/v1/traffic-search?source=lb&since="+iso(now.Add(-time.Hour)), &got)
		if it := got.Items[0]; it.GatewayVendor != "f5" || it.ServiceKey != "calculator" || it.OperationKey != "/calcservice/calc.asmx" ||
			it.StatusCode != 200 || it.LatencyMs != 41 || it.ConsumerIP != "172.16.0.7" || it.Method != "POST" {
			t.Errorf("lb item %+v", it)
		}
		var e admintest.ErrorBody
		api.do("GET", "/admin/v1/traffic-search?payloadContains=x", readerEmail, "", "").WantStatus(t, 403).Decode(t, &e)
		if e.Error.Code != "S2R-ADM-0403" || e.Error.Details["field"] != "payloadContains" {
			t.Errorf("reader's payload search: %+v", e)
		}
	})
}

// TestDashboardEdge checks the dashboard's ingest KPI and issues (a
// stale f5 instance of the caller's tenant, not another tenant's) and
// that source=runtime leaves the edge parts out.
func TestDashboardEdge(t *testing.T) {
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st, now)
		seedEdgeLogs(t, api, now)
		var d dashboard
		api.get("/admin/v1/dashboard/summary", &d)
		if d.KPIs.F5IngestStale || len(d.TopVsLevelFailures24h) != 1 || d.TopVsLevelFailures24h[0].FrontVirtualServer != "vs-partner" ||
			d.TopVsLevelFailures24h[0].ResultCodes["reset"] != 1 || len(d.DataFreshness.Sources) != 3 {
			t.Errorf("fresh dashboard: kpis %+v vs %+v freshness %+v", d.KPIs, d.TopVsLevelFailures24h, d.DataFreshness)
		}
		api.now = now.Add(2 * time.Hour) // every instance silent for two hours
		d = dashboard{}
		api.get("/admin/v1/dashboard/summary", &d)
		var ingest []urgentIssue
		for _, is := range d.UrgentIssues {
			if is.Type == issueIngestStale {
				ingest = append(ingest, is)
			}
		}
		if !d.KPIs.F5IngestStale || len(ingest) != 2 || ingest[0].Severity != severityCritical || ingest[0].Vendor != "f5" ||
			ingest[1].Vendor != "kong" || ingest[0].InstanceID == "" || ingest[0].Since == nil {
			t.Errorf("stale dashboard: kpis %+v issues %+v", d.KPIs, ingest)
		}
		d = dashboard{}
		api.get("/admin/v1/dashboard/summary?source=runtime", &d)
		if d.KPIs.F5IngestStale || len(d.TopVsLevelFailures24h) != 0 || slices.ContainsFunc(d.UrgentIssues, func(is urgentIssue) bool {
			return is.Type == issueIngestStale
		}) {
			t.Errorf("runtime-only dashboard: %+v %+v %+v", d.KPIs, d.TopVsLevelFailures24h, d.UrgentIssues)
		}
	})
}
