package discovery_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/discovery"
	"github.com/s2r-project/s2r/internal/loadgen"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// send posts events (lb events or generic logs) with token.
func (e *env) send(token string, events any) discovery.IngestResponse {
	e.t.Helper()
	body, err := loadgen.Encode(events, false, false)
	if err != nil {
		e.t.Fatal(err)
	}
	path := discovery.PathLBEvents
	if _, ok := events.([]loadgen.GenericLog); ok {
		path = discovery.PathGenericLogs
	}
	var ans discovery.IngestResponse
	e.ingest(path, token, body).WantStatus(e.t, 200).Decode(e.t, &ans)
	return ans
}

// tx builds one four-stage transaction on uri at start; status 200 and
// result ok unless failing.
func tx(uri, client string, start time.Time, n int, failing bool) []loadgen.LBEvent {
	gtid := uuidN(1_000_000 + n)
	out := make([]loadgen.LBEvent, 0, 4)
	for i, stage := range []string{"client_request", "server_request", "server_response", "client_response"} {
		e := loadgen.LBEvent{EventID: uuidN(n*4 + i), GlobalTransactionID: gtid, Stage: stage,
			Timestamp: start.Add(time.Duration(i) * time.Millisecond).Format(time.RFC3339Nano), ClientIP: client,
			Method: "POST", URI: uri, StatusCode: 200, DurationMs: 10, ResultCode: "ok", Backend: "10.0.0.5:8080"}
		switch stage {
		case "client_request":
			e.Payload = "<req n='" + strconv.Itoa(n) + "'/>"
			e.Headers = map[string]string{"SOAPAction": "add"}
		case "client_response":
			e.Payload = "<resp n='" + strconv.Itoa(n) + "'/>"
			if failing {
				e.StatusCode, e.SoapFault, e.Payload = 500, true, "<fault/>"
			}
		}
		out = append(out, e)
	}
	return out
}

// uuidN is a UUID made from n.
func uuidN(n int) string {
	s := strconv.FormatInt(int64(n), 16)
	s = strings.Repeat("0", 12-len(s)) + s
	return "00000000-0000-4000-8000-" + s
}

func TestRowsListAndFilters(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		e := newEnv(t, st)
		f5 := e.register("f5", "bigip-1", "")
		kong := e.register("kong", "kong-1", "")
		acme := e.register("f5", "acme-bigip", "acme")
		now := time.Now().UTC().Add(-time.Minute)
		var lb []loadgen.LBEvent
		for i := range 6 {
			lb = append(lb, tx("/CalcService/Calc.asmx?wsdl", "10.1.0."+strconv.Itoa(i%2+1), now, i, i == 5)...)
		}
		e.send(f5.Token, lb)
		e.send(kong.Token, []loadgen.GenericLog{
			{EventID: uuidN(900), Timestamp: now.Format(time.RFC3339), ServiceURI: "/api/orders/48213", StatusCode: 200, ConsumerIP: "10.9.0.1"},
			{EventID: uuidN(901), Timestamp: now.Format(time.RFC3339), ServiceURI: "/api/orders/77", StatusCode: 503, ConsumerIP: "10.9.0.2"},
			{EventID: uuidN(902), Timestamp: now.Format(time.RFC3339), ServiceURI: "/calcservice/calc.asmx", StatusCode: 200},
		})
		e.send(acme.Token, tx("/acme/only", "10.7.0.1", now, 50, false))

		page := e.rows(adminEmail, "")
		if page.TotalItems != 2 {
			t.Fatalf("default tenant rows %+v", page)
		}
		calc := e.rowByURI("/calcservice/calc.asmx")
		if calc.LBInstanceID != f5.InstanceID || calc.Vendor != "f5" || strings.Join(calc.Sources, ",") != "lb,generic" ||
			strings.Join(calc.Vendors, ",") != "f5,kong" || calc.Calls24h != 7 || calc.Errors24h != 1 ||
			calc.Environment != "discovered" || calc.ServiceKey != calc.ServiceURI || calc.OnboardedServiceID != "" {
			t.Errorf("calc row %+v", calc)
		}
		orders := e.rowByURI("/api/orders/{id}")
		if orders.LBInstanceID != "" || orders.Vendor != "kong" || orders.Calls24h != 2 || orders.Errors24h != 1 {
			t.Errorf("orders row %+v", orders)
		}
		for _, tc := range []struct {
			query string
			want  int64
		}{
			{"?q=CALC", 1}, {"?q=orders", 1}, {"?q=nothing", 0}, {"?vendor=kong", 2}, {"?vendor=f5", 1},
			{"?source=lb", 1}, {"?source=generic", 2}, {"?onboarded=false", 2}, {"?onboarded=true", 0},
			{"?pageSize=1&page=2", 2},
		} {
			if got := e.rows(adminEmail, tc.query); got.TotalItems != tc.want {
				t.Errorf("%s: %d rows, want %d", tc.query, got.TotalItems, tc.want)
			}
		}
		for _, q := range []string{"?source=x", "?onboarded=maybe", "?pageSize=500", "?page=0"} {
			e.admin("GET", "/master-discovery/rows"+q, readerEmail, "").WantError(t, 400, apierr.ValBadRequest)
		}
		// Another tenant sees its own rows only, and none of these.
		if got := e.rows(acmeEmail, ""); got.TotalItems != 1 || got.Items[0].ServiceURI != "/acme/only" {
			t.Errorf("acme rows %+v", got)
		}
		for _, path := range []string{"/drill-down", "/failures"} {
			e.admin("GET", "/master-discovery/rows/"+strconv.FormatInt(calc.RowID, 10)+path, acmeEmail, "").
				WantError(t, 404, apierr.DiscNotFound)
		}
		e.admin("GET", "/master-discovery/rows/999999/drill-down", adminEmail, "").WantError(t, 404, apierr.DiscNotFound)
		e.admin("GET", "/master-discovery/rows/abc/failures", adminEmail, "").WantError(t, 404, apierr.DiscNotFound)
	})
}

func TestDrillDownAndFailures(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		e := newEnv(t, st)
		f5 := e.register("f5", "bigip-1", "")
		kong := e.register("kong", "kong-1", "")
		start := time.Now().UTC().Add(-2 * time.Hour)
		var lb []loadgen.LBEvent
		for i := range 80 { // 80 transactions over two hours, every 8th failing
			lb = append(lb, tx("/calc", "10.1.0."+strconv.Itoa(i%3+1), start.Add(time.Duration(i)*90*time.Second), i, i%8 == 0)...)
		}
		e.send(f5.Token, lb)
		e.send(kong.Token, []loadgen.GenericLog{{EventID: uuidN(5000), Timestamp: start.Format(time.RFC3339), ServiceURI: "/calc",
			StatusCode: 200, ConsumerIP: "10.2.0.9", RequestPayload: "<g/>", ResponsePayload: "<gr/>"}})
		row := e.rowByURI("/calc")
		base := "/master-discovery/rows/" + strconv.FormatInt(row.RowID, 10)

		var dd discovery.DrillDown
		e.admin("GET", base+"/drill-down", readerEmail, "").WantStatus(t, 200).Decode(t, &dd)
		if dd.TimelineDays != 7 || dd.Source != "lb" || len(dd.Timeline) != 7*24 || dd.AlertRule != nil {
			t.Errorf("defaults: days %d source %s timeline %d rule %v", dd.TimelineDays, dd.Source, len(dd.Timeline), dd.AlertRule)
		}
		if !dd.TimelineTo.Equal(dd.TimelineFrom.Add(7*24*time.Hour)) || dd.TimelineFrom.Minute() != 0 {
			t.Errorf("window %v .. %v", dd.TimelineFrom, dd.TimelineTo)
		}
		var calls, failures int64
		for _, p := range dd.Timeline {
			calls += p.Calls
			failures += p.Failures
		}
		if calls != 80 || failures != 10 {
			t.Errorf("timeline calls %d failures %d, want 80 and 10", calls, failures)
		}
		if dd.ConsumerCount != 3 || len(dd.Consumers) != 3 || dd.Consumers[0].Calls < dd.Consumers[2].Calls {
			t.Errorf("consumers %d %+v", dd.ConsumerCount, dd.Consumers)
		}
		if len(dd.GoodExamples) != 50 {
			t.Fatalf("%d good examples, want 50", len(dd.GoodExamples))
		}
		for i, x := range dd.GoodExamples {
			n := strings.TrimSuffix(strings.TrimPrefix(x.Response.Payload, "<resp n='"), "'/>")
			if x.Source != "lb" || x.StatusCode != 200 || x.Request.Payload != "<req n='"+n+"'/>" ||
				x.Request.Headers["SOAPAction"] != "add" || x.GlobalTransactionID == "" {
				t.Errorf("example %d: %+v", i, x)
			}
			if i > 0 && x.OccurredAt.After(dd.GoodExamples[i-1].OccurredAt) {
				t.Errorf("examples not newest first at %d", i)
			}
		}
		// Parameters: clamped days, source rule.
		for _, tc := range []struct {
			query  string
			days   int
			source string
		}{{"?timelineDays=0", 1, "lb"}, {"?timelineDays=99", 30, "lb"}, {"?timelineDays=abc", 7, "lb"},
			{"?timelineDays=2&source=generic", 2, "generic"}, {"?source=all", 7, "all"}, {"?source=LB", 7, "lb"}} {
			var got discovery.DrillDown
			e.admin("GET", base+"/drill-down"+tc.query, readerEmail, "").WantStatus(t, 200).Decode(t, &got)
			if got.TimelineDays != tc.days || got.Source != tc.source || len(got.Timeline) != tc.days*24 {
				t.Errorf("%s: days %d source %s points %d", tc.query, got.TimelineDays, got.Source, len(got.Timeline))
			}
			if tc.source == "generic" && (len(got.GoodExamples) != 1 || got.GoodExamples[0].Request.Payload != "<g/>" || got.ConsumerCount != 1) {
				t.Errorf("generic drill-down %+v", got)
			}
		}

		var fl discovery.Failures
		e.admin("GET", base+"/failures", readerEmail, "").WantStatus(t, 200).Decode(t, &fl)
		if fl.ServiceURI != "/calc" || fl.Count != 10 || len(fl.Failures) != 10 || fl.Partial {
			t.Errorf("failures %+v", fl)
		}
		e.admin("GET", base+"/failures?limit=4", readerEmail, "").WantStatus(t, 200).Decode(t, &fl)
		if fl.Count != 4 || !fl.Partial || fl.Failures[0].Response.Payload != "<fault/>" || !fl.Failures[0].SoapFault {
			t.Errorf("limited failures %+v", fl)
		}
		for _, q := range []string{"?limit=0", "?limit=201", "?limit=x"} {
			e.admin("GET", base+"/failures"+q, readerEmail, "").WantError(t, 400, apierr.ValBadRequest)
		}
	})
}

func TestAlertRules(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		e := newEnv(t, st)
		f5 := e.register("f5", "bigip-1", "")
		kong := e.register("kong", "kong-1", "")
		acme := e.register("f5", "acme-bigip", "acme")
		now := time.Now().UTC()
		var lb []loadgen.LBEvent
		for i := range 30 {
			lb = append(lb, tx("/calc", "10.1.0.1", now.Add(-time.Duration(i)*time.Minute), i, i < 6)...)
		}
		lb = append(lb, tx("/calc", "10.1.0.1", now.Add(-2*time.Hour), 99, true)...) // outside the hour
		e.send(f5.Token, lb)
		e.send(kong.Token, []loadgen.GenericLog{{EventID: uuidN(7000), Timestamp: now.Format(time.RFC3339), ServiceURI: "/generic-only", StatusCode: 200}})
		e.send(acme.Token, tx("/acme", "10.7.0.1", now, 500, false))
		calc := e.rowByURI("/calc")
		generic := e.rowByURI("/generic-only")
		acmeRow := e.rows(acmeEmail, "").Items[0]
		put := func(row int64, email, body string) response {
			return e.admin("PUT", "/master-discovery/rows/"+strconv.FormatInt(row, 10)+"/alert", email, body)
		}

		var saved discovery.AlertSaved
		put(calc.RowID, operatorEmail, `{"enabled":true,"failurePctThreshold":15.5}`).WantStatus(t, 200).Decode(t, &saved)
		if saved.Status != "saved" || saved.ServiceURI != "/calc" {
			t.Errorf("%+v", saved)
		}
		var dd discovery.DrillDown
		e.admin("GET", "/master-discovery/rows/"+strconv.FormatInt(calc.RowID, 10)+"/drill-down", readerEmail, "").WantStatus(t, 200).Decode(t, &dd)
		if r := dd.AlertRule; r == nil || !r.Enabled || r.MinCalls1h != 20 || r.FailurePctThreshold != 15.5 ||
			r.FailureCountThreshold != 5 || r.UpdatedBy != operatorEmail {
			t.Errorf("rule %+v", dd.AlertRule)
		}
		put(generic.RowID, operatorEmail, `{"enabled":true}`).WantError(t, 400, apierr.DiscBadRequest)
		put(acmeRow.RowID, operatorEmail, `{"enabled":true}`).WantError(t, 404, apierr.DiscNotFound)
		put(999999, operatorEmail, `{"enabled":true}`).WantError(t, 404, apierr.DiscNotFound)
		put(calc.RowID, readerEmail, `{"enabled":true}`).WantError(t, 403, apierr.AdmForbidden)
		for _, tc := range []struct{ body, field string }{
			{`{"failurePctThreshold":101}`, "failurePctThreshold"},
			{`{"minCalls1h":-1}`, "minCalls1h"},
			{`{"failureCountThreshold":1.5}`, "failureCountThreshold"},
			{`{"enabled":"yes"}`, "enabled"},
			{`{"threshold":1}`, "threshold"},
		} {
			got := put(calc.RowID, operatorEmail, tc.body).WantError(t, 400, apierr.ValBadRequest)
			if got.Error.Details["field"] != tc.field {
				t.Errorf("%s: %v", tc.body, got.Error.Details)
			}
		}
		// A second PUT replaces the rule; missing fields take defaults.
		put(calc.RowID, operatorEmail, `{"enabled":true,"minCalls1h":10}`).WantStatus(t, 200)

		cands, err := e.svc.AlertCandidates(context.Background(), now)
		if err != nil {
			t.Fatal(err)
		}
		if len(cands) != 1 {
			t.Fatalf("candidates %+v", cands)
		}
		c := cands[0]
		if c.RowID != calc.RowID || c.ServiceURI != "/calc" || c.TenantID != "default" || c.LBInstanceID != f5.InstanceID ||
			!c.Enabled || c.MinCalls1h != 10 || c.FailurePctThreshold != 10 || c.FailureCountThreshold != 5 ||
			c.Calls1h != 30 || c.Failures1h != 6 || !c.Triggered() || c.FailurePct() != 20 {
			t.Errorf("candidate %+v", c)
		}
		// Audit: the saves with before and after states.
		var page model.ObservabilityPageRecord[model.AuditEvent]
		e.admin("GET", "/audit-events?actionType=discovery.alert_rule.put&result=success", adminEmail, "").WantStatus(t, 200).Decode(t, &page)
		if page.TotalItems != 2 || page.Items[0].BeforeState == nil || page.Items[0].AfterState == nil {
			t.Errorf("audit %+v", page.Items)
		}
	})
}
