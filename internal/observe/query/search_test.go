package query

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// searchFixture stores 60 records, one a minute back from now.
func searchFixture(t *testing.T, st *store.Store, now time.Time) {
	t.Helper()
	var logs []model.TxLog
	for i := range 60 {
		svc := fixtureTraffic[i%3]
		logs = append(logs, model.TxLog{
			CorrelationID: fmt.Sprintf("s-%02d", i), OccurredAt: now.Add(-time.Duration(i) * time.Minute),
			Direction: svc.direction, Environment: svc.env, ServiceKey: svc.key, ServiceID: svc.id,
			OperationKey: []string{"Add", "sub_total"}[i%2], Method: "POST", Path: "/" + svc.direction + "/" + svc.env + "/" + svc.key,
			HTTPStatus: []int{200, 404, 502, 201}[i%4], ResultCode: "success", TotalMs: float64(i),
			BackendTarget: []string{"http://10.0.0.5:8080/calc", "https://Backend.example.com/ws"}[i%2], ClientIP: "10.9.9.9",
		})
	}
	insertLogs(t, st, logs)
}

func TestTrafficSearch(t *testing.T) {
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		seedServices(t, st)
		searchFixture(t, st, now)
		ctx := context.Background()
		err := st.Transact(ctx, func(tx *store.Tx) error {
			return tx.PutSyntheticMonitor(ctx, model.SyntheticMonitor{ServiceID: fixtureServices[1].ServiceID, Enabled: true,
				IntervalSec: 60, UpdatedAt: now, UpdatedBy: "t"})
		})
		if err != nil {
			t.Fatal(err)
		}
		api := newTestAPI(t, st, now)
		ids := func(from, to, step int, keep func(i int) bool) []string {
			var out []string
			for i := from; i <= to; i += step {
				if keep == nil || keep(i) {
					out = append(out, fmt.Sprintf("s-%02d", i))
				}
			}
			return out
		}
		tests := []struct {
			query     string
			want      []string
			truncated bool
		}{
			{"", ids(0, 59, 1, nil), false}, // default: the last hour, 60 records at 0..59 minutes
			{"limit=5", ids(0, 4, 1, nil), true},
			{"uriContains=WEATHER", ids(1, 59, 3, nil), false},
			{"uriContains=_total&limit=3", []string{"s-01", "s-03", "s-05"}, true},
			{"uriContains=%25", nil, false}, // a literal %, not a wildcard
			{"backendContains=backend.example.com", ids(1, 59, 2, nil), false},
			{"backendContains=10.0.0.5:8080", ids(0, 58, 2, nil), false},
			{"statusClass=server_error", ids(2, 58, 4, nil), false},
			{"statusClass=success", ids(0, 59, 1, func(i int) bool { return i%4 == 0 || i%4 == 3 }), false},
			{"statusClass=client_error", ids(1, 57, 4, nil), false},
			{"statusClass=201", ids(3, 59, 4, nil), false},
			{"direction=gateway&source=runtime", ids(2, 59, 3, nil), false},
			{"monitorFilter=has", ids(1, 59, 3, nil), false},
			{"monitorFilter=none&source=all", ids(0, 59, 1, func(i int) bool { return i%3 != 1 }), false},
			{"since=" + url.QueryEscape(now.Add(-10*time.Minute).Format(time.RFC3339)) + "&until=" + url.QueryEscape(now.Add(-5*time.Minute).Format(time.RFC3339)),
				ids(5, 10, 1, nil), false},
			{"until=" + url.QueryEscape(now.Add(-50*time.Minute).Format(time.RFC3339)) + "&source=both", ids(50, 59, 1, nil), false},
		}
		for _, tt := range tests {
			t.Run(tt.query, func(t *testing.T) {
				var got searchResult
				api.get("/admin/v1/traffic-search?"+tt.query, &got)
				var gotIDs []string
				for i, it := range got.Items {
					gotIDs = append(gotIDs, it.CorrelationID)
					if it.Source != "runtime" || it.ID == "" || (i > 0 && it.OccurredAt.After(got.Items[i-1].OccurredAt)) {
						t.Errorf("item %d %+v: want runtime items, newest first", i, it)
					}
				}
				if !slices.Equal(gotIDs, tt.want) || got.Truncated != tt.truncated {
					t.Errorf("got %v truncated %v, want %v %v", gotIDs, got.Truncated, tt.want, tt.truncated)
				}
			})
		}
	})
}
