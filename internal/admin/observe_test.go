package admin

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// seedTxLogs stores 40 logs, one a minute back from now, cycling through
// two services, four results and both directions, plus one debug record
// two days old.
func seedTxLogs(t *testing.T, st *store.Store, now time.Time) {
	t.Helper()
	results := []struct {
		code   string
		status int
	}{{"success", 200}, {"failed", 400}, {"backend_failure", 502}, {"timeout", 504}}
	var logs []model.TxLog
	for i := range 40 {
		r := results[i%4]
		logs = append(logs, model.TxLog{
			CorrelationID: fmt.Sprintf("cid-%02d", i), OccurredAt: now.Add(-time.Duration(i) * time.Minute),
			Direction: []string{"publish", "consume"}[i%2], Environment: "dev",
			ServiceKey: []string{"calc", "weather"}[i%2], OperationKey: "add", Method: "POST", Path: "/publish/dev/calc/add",
			HTTPStatus: r.status, ResultCode: r.code, TotalMs: float64(i), ConverterMs: float64(i) / 100,
		})
	}
	logs[6].ValidationIssues = []model.ValidationIssue{{Pointer: "/result", Reason: "bad facet"}}
	logs = append(logs, model.TxLog{
		CorrelationID: "cid-debug", OccurredAt: now.Add(-48 * time.Hour), Direction: "publish", Environment: "prod",
		ServiceKey: "calc", OperationKey: "add", Method: "POST", Path: "/publish/prod/calc/add", HTTPStatus: 200,
		ResultCode: "success", Debug: true, RequestPayload: []byte(`{"a":1}`), BackendResponse: []byte("<r>\xff</r>"),
	})
	ctx := context.Background()
	if err := st.Transact(ctx, func(tx *store.Tx) error { return tx.InsertTxLogs(ctx, logs) }); err != nil {
		t.Fatal(err)
	}
}

func TestRuntimeLogs(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		now := time.Now().UTC()
		api.srv.now = func() time.Time { return now }
		seedTxLogs(t, st, now)
		tests := []struct {
			query string
			total int64
			first string
		}{
			{"", 40, "cid-00"}, // default window: the last 24 hours
			{"window=60d", 41, "cid-00"},
			{"environment=dev&serviceKey=weather", 20, "cid-01"},
			{"serviceKey=calc&operationKey=add", 20, "cid-00"},
			{"resultCode=timeout", 10, "cid-03"},
			{"resultCode=timeout,failed", 20, "cid-01"},
			{"resultCode=timeout&resultCode=failed", 20, "cid-01"},
			{"status=502", 10, "cid-02"},
			{"status=5xx", 20, "cid-02"},
			{"status=4XX", 10, "cid-01"},
			{"correlationId=cid-debug", 1, "cid-debug"}, // no default window with a correlation id
			{"direction=consume", 20, "cid-01"},
			{"window=15m", 16, "cid-00"},
			{"start=" + url.QueryEscape(now.Add(-10*time.Minute).Format(time.RFC3339Nano)) + "&end=" + url.QueryEscape(now.Add(-5*time.Minute).Format(time.RFC3339Nano)), 6, "cid-05"},
			{"window=60d&environment=prod", 1, "cid-debug"},
			{"pageSize=5&page=2", 40, "cid-05"},
			{"violations=true", 1, "cid-06"},
			{"violations=false", 40, "cid-00"},
		}
		for _, tt := range tests {
			t.Run(tt.query, func(t *testing.T) {
				var page model.ObservabilityPageRecord[model.TxLog]
				api.Do("GET", "/admin/v1/runtime-logs?"+tt.query, readerEmail, "").WantStatus(t, 200).Decode(t, &page)
				first := ""
				if len(page.Items) > 0 {
					first = page.Items[0].CorrelationID
				}
				if page.TotalItems != tt.total || first != tt.first {
					t.Errorf("total %d first %q, want %d %q", page.TotalItems, first, tt.total, tt.first)
				}
			})
		}
		bad := map[string]string{
			"status=6xx": "status", "status=abc": "status", "status=99": "status",
			"resultCode=ok": "resultCode", "direction=sideways": "direction", "window=2h": "window",
			"start=yesterday": "start", "pageSize=500": "pageSize", "page=0": "page",
			"serviceKey=%FF": "serviceKey", "correlationId=a%00b": "correlationId", "violations=yes": "violations",
		}
		for query, field := range bad {
			t.Run("bad "+query, func(t *testing.T) {
				e := api.Do("GET", "/admin/v1/runtime-logs?"+query, readerEmail, "").WantStatus(t, 400).ErrorOf(t)
				if e.Error.Code != "S2R-VAL-0400" || e.Error.Details["field"] != field {
					t.Errorf("error %+v, want S2R-VAL-0400 naming %s", e.Error, field)
				}
			})
		}
		t.Run("latency", func(t *testing.T) {
			var lat model.TxLatency
			api.Do("GET", "/admin/v1/runtime-logs/latency?serviceKey=calc", readerEmail, "").WantStatus(t, 200).Decode(t, &lat)
			want := model.TxLatency{Count: 20, ConverterP50Ms: 0.18, ConverterP99Ms: 0.38, TotalP50Ms: 18, TotalP99Ms: 38}
			if diff := cmp.Diff(want, lat); diff != "" {
				t.Errorf("latency (-want +got):\n%s", diff)
			}
		})
	})
}

func TestBadURLSummaryEndpoint(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		now := time.Now().UTC().Truncate(time.Microsecond)
		api.srv.now = func() time.Time { return now }
		ctx := context.Background()
		attempts := []model.BadURLAttempt{
			{Path: "/publish/", Method: "GET", At: now.Add(-time.Hour)},
			{Path: "/publish/", Method: "POST", At: now.Add(-time.Minute)},
			{Path: "/foo", Method: "GET", At: now.Add(-30 * time.Hour)},
			{Path: "/ancient", Method: "GET", At: now.Add(-800 * time.Hour)},
		}
		if err := st.Transact(ctx, func(tx *store.Tx) error { return tx.InsertBadURLAttempts(ctx, attempts) }); err != nil {
			t.Fatal(err)
		}
		tests := []struct {
			query string
			paths []string
		}{
			{"", []string{"/publish/"}},
			{"windowHours=48", []string{"/foo", "/publish/"}},
			{"windowHours=0", []string{"/publish/"}},             // clamped to 1
			{"windowHours=99999", []string{"/foo", "/publish/"}}, // clamped to 720
		}
		for _, tt := range tests {
			t.Run(tt.query, func(t *testing.T) {
				var got map[string]badURLEntry
				api.Do("GET", "/admin/v1/bad-url-summary?"+tt.query, readerEmail, "").WantStatus(t, 200).Decode(t, &got)
				paths := []string{}
				for p := range got {
					paths = append(paths, p)
				}
				slices.Sort(paths)
				if diff := cmp.Diff(tt.paths, paths); diff != "" {
					t.Errorf("paths (-want +got):\n%s", diff)
				}
			})
		}
		var got map[string]badURLEntry
		api.Do("GET", "/admin/v1/bad-url-summary", readerEmail, "").WantStatus(t, 200).Decode(t, &got)
		want := badURLEntry{Count: 2, LastSeenAt: now.Add(-time.Minute), Methods: []string{"GET", "POST"}}
		if diff := cmp.Diff(want, got["/publish/"]); diff != "" {
			t.Errorf("/publish/ (-want +got):\n%s", diff)
		}
		e := api.Do("GET", "/admin/v1/bad-url-summary?windowHours=x", readerEmail, "").WantStatus(t, 400).ErrorOf(t)
		if e.Error.Details["field"] != "windowHours" {
			t.Errorf("error %+v", e.Error)
		}
	})
}
