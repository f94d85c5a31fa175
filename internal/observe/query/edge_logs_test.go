package query

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/discovery"
	"github.com/s2r-project/s2r/internal/loadgen"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/redact"
	"github.com/s2r-project/s2r/internal/routing/load/loadtest"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// edgeCanary is a credential sent in every place one travels through the
// ingest API; it must never be stored, shown or found.
const edgeCanary = "Canary-e4c1b"

// Fixed ids of the edge-log fixture.
const (
	txA = "0a000000-0000-4000-8000-00000000000a" // four stages, credentials everywhere
	txB = "0b000000-0000-4000-8000-00000000000b" // client stages only, reset at the edge
	txC = "0c000000-0000-4000-8000-00000000000c" // in flight: its client_request only
	txD = "0d000000-0000-4000-8000-00000000000d" // another tenant's
)

// edgeLogFixture is what seedEdgeLogs stored.
type edgeLogFixture struct {
	genericID string // the generic log's numeric id
}

// seedEdgeLogs configures a redact name and an API-key header, then
// ingests the lb transactions A to D and one generic log through the
// ingest API, all minutes before now.
func seedEdgeLogs(t *testing.T, api *testAPI, now time.Time) edgeLogFixture {
	t.Helper()
	ctx := context.Background()
	names, _ := json.Marshal(append(model.DefaultDebugRedactNames(), "pin"))
	err := api.store.ChangeConfig(ctx, func(tx *store.Tx) error {
		if err := tx.PutSetting(ctx, store.SettingRow{Name: "debug_redact_names", Value: names, UpdatedAt: now}); err != nil {
			return err
		}
		s := fixtureServices[0]
		s.ServiceName, s.CreatedAt, s.UpdatedAt = s.ServiceKey, now, now
		if err := tx.CreateService(ctx, s); err != nil {
			return err
		}
		return tx.CreateBackendProfile(ctx, model.BackendProfile{ProfileID: "p-e", ServiceID: s.ServiceID, Name: "main",
			EndpointURL: "http://10.0.0.1/CalcService/Calc.asmx", AuthType: model.AuthAPIKeyHeader, APIKeyHeaderName: "X-Tenant-Key",
			RoutingWeight: 1, CreatedAt: now, UpdatedAt: now})
	})
	if err != nil {
		t.Fatal(err)
	}
	loadtest.CaughtUp(t, api.store, api.routes) // ingest masks by the snapshot of this change
	soap := `<s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope"><s:Header><wsse:Security><wsse:UsernameToken>` +
		`<wsse:Username>keep-user</wsse:Username><wsse:Password>` + edgeCanary + `</wsse:Password><wsse:Nonce>` + edgeCanary +
		`</wsse:Nonce></wsse:UsernameToken></wsse:Security></s:Header><s:Body><m:Add><m:PIN>` + edgeCanary +
		`</m:PIN><m:a>2</m:a></m:Add></s:Body></s:Envelope>`
	headers := map[string]string{"Authorization": "Basic " + edgeCanary, "Cookie": "s=" + edgeCanary, "X-Tenant-Key": edgeCanary,
		"Pin": edgeCanary, "SOAPAction": `"urn:add"`}
	ev := func(gtid, stage string, at time.Time, uri string) loadgen.LBEvent {
		return loadgen.LBEvent{EventID: fmt.Sprintf("%s%02d", gtid[:34], slices.Index(model.LBStages, stage)), GlobalTransactionID: gtid,
			Stage: stage, Timestamp: at.Format(time.RFC3339Nano), FrontVirtualServer: "vs-public", BackVirtualServer: "pool-calc",
			ClientIP: "172.16.0.7", Method: "POST", Host: "api.example.com", URI: uri, Backend: "10.0.0.1:8080"}
	}
	a := []loadgen.LBEvent{ev(txA, model.StageClientRequest, now.Add(-5*time.Minute), "/CalcService/Calc.asmx?op=add"),
		ev(txA, model.StageServerRequest, now.Add(-5*time.Minute+time.Millisecond), "/CalcService/Calc.asmx?op=add"),
		ev(txA, model.StageServerResponse, now.Add(-5*time.Minute+40*time.Millisecond), "/CalcService/Calc.asmx?op=add"),
		ev(txA, model.StageClientResponse, now.Add(-5*time.Minute+41*time.Millisecond), "/CalcService/Calc.asmx?op=add")}
	a[0].Headers, a[0].Payload = headers, soap
	a[3].Payload = `<s:Envelope><s:Body><m:AddResponse><m:result>3</m:result><m:token>` + edgeCanary + `</m:token></m:AddResponse></s:Body></s:Envelope>`
	for i := 2; i < 4; i++ {
		a[i].StatusCode, a[i].ResultCode, a[i].DurationMs = 200, "ok", 41
	}
	b := []loadgen.LBEvent{ev(txB, model.StageClientRequest, now.Add(-10*time.Minute), "/orders/77/items"),
		ev(txB, model.StageClientResponse, now.Add(-10*time.Minute+3*time.Millisecond), "/orders/77/items")}
	b[0].FrontVirtualServer, b[1].FrontVirtualServer, b[1].ResultCode, b[1].DurationMs = "vs-partner", "vs-partner", "reset", 3
	b[1].ClientIP = "10.9.8.7"
	b[0].ClientIP = "10.9.8.7"
	c := []loadgen.LBEvent{ev(txC, model.StageClientRequest, now.Add(-3*time.Minute), "/CalcService/Calc.asmx")}
	d := []loadgen.LBEvent{ev(txD, model.StageClientRequest, now.Add(-4*time.Minute), "/CalcService/Calc.asmx"),
		ev(txD, model.StageClientResponse, now.Add(-4*time.Minute), "/CalcService/Calc.asmx")}
	d[1].StatusCode, d[1].ResultCode = 200, "ok"
	api.postIngest(discovery.PathLBEvents, api.registerInstance("f5", ""), slices.Concat(a, b, c))
	api.postIngest(discovery.PathLBEvents, api.registerInstance("f5", "acme"), d)
	g := loadgen.GenericLog{EventID: "0e000000-0000-4000-8000-00000000000e", Timestamp: now.Add(-7 * time.Minute).Format(time.RFC3339Nano),
		ServiceURI: "/orders/42/items", Method: "POST", StatusCode: 500, LatencyMs: 12.5, ConsumerIP: "10.9.8.1", Backend: "orders:8080",
		ResultCode: "error", RequestPayload: `{"$headers":{"apiKey":"` + edgeCanary + `"},"order":42}`,
		ResponsePayload: `<fault><password>` + edgeCanary + `</password><reason>boom</reason></fault>`}
	api.postIngest(discovery.PathGenericLogs, api.registerInstance("kong", ""), []loadgen.GenericLog{g})
	var page model.ObservabilityPageRecord[trafficLogItem]
	api.get("/admin/v1/traffic-logs?source=generic", &page)
	if len(page.Items) != 1 {
		t.Fatalf("generic logs %+v", page)
	}
	return edgeLogFixture{genericID: page.Items[0].ID}
}

func TestTrafficLogs(t *testing.T) {
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st, now)
		fx := seedEdgeLogs(t, api, now)
		ids := func(query, email string) []string {
			t.Helper()
			var page model.ObservabilityPageRecord[trafficLogItem]
			api.do("GET", "/admin/v1"+query, email, "", "").WantStatus(t, 200).Decode(t, &page)
			var out []string
			for _, it := range page.Items {
				out = append(out, it.Source+":"+it.ID)
			}
			if page.TotalItems < int64(len(out)) || page.PageSize == 0 {
				t.Errorf("%s: page %+v", query, page)
			}
			return out
		}
		lbA, lbB, lbC, gen := "lb:"+txA, "lb:"+txB, "lb:"+txC, "generic:"+fx.genericID
		for _, tt := range []struct {
			query, email string
			want         []string
		}{
			{"/traffic-logs", readerEmail, []string{lbA, gen, lbB}},
			{"/traffic-logs?source=lb", readerEmail, []string{lbA, lbB}},
			{"/traffic-logs?source=generic&vendor=KONG", readerEmail, []string{gen}},
			{"/traffic-logs?vendor=f5", readerEmail, []string{lbA, lbB}},
			{"/traffic-logs?resultCode=reset,error", readerEmail, []string{lbB}},
			{"/traffic-logs?serviceUri=CalcService", readerEmail, []string{lbA}},
			{"/traffic-logs?serviceUri=" + url.QueryEscape("{id}"), readerEmail, []string{gen, lbB}},
			{"/traffic-logs?customer=10.9.8", readerEmail, []string{gen, lbB}},
			{"/traffic-logs?frontVirtualServer=PARTNER", readerEmail, []string{lbB}},
			{"/traffic-logs?backVirtualServer=pool-calc&source=all", readerEmail, []string{lbA, lbB}},
			{"/traffic-logs?window=1h&pageSize=2&page=2", readerEmail, []string{lbB}},
			{"/traffic-logs?start=" + iso(now.Add(-8*time.Minute)) + "&end=" + iso(now), readerEmail, []string{lbA, gen}},
			{"/traffic-logs", acmeEmail, []string{"lb:" + txD}},
			{"/lb-logs", readerEmail, []string{lbA, lbB}},
			{"/lb-logs?stage=client_request", readerEmail, []string{lbC, lbA, lbB}},
			{"/lb-logs?stage=server_request&customer=172.16", readerEmail, []string{lbA}},
		} {
			if got := ids(tt.query, tt.email); !slices.Equal(got, tt.want) {
				t.Errorf("%s as %s: %v, want %v", tt.query, tt.email, got, tt.want)
			}
		}
		var page model.ObservabilityPageRecord[trafficLogItem]
		api.get("/admin/v1/lb-logs?stage=client_request", &page)
		inflight, a := page.Items[0], page.Items[1]
		if !slices.Equal(inflight.Stages, []string{model.StageClientRequest}) || inflight.StatusCode != 0 || inflight.Error {
			t.Errorf("in-flight transaction %+v", inflight)
		}
		if !slices.Equal(a.Stages, model.LBStages) || a.StatusCode != 200 || a.ResultCode != "ok" || a.LatencyMs != 41 ||
			a.ServiceKey != "calculator" || a.Environment != "prod" || a.Direction != "publish" || a.GatewayVendor != "f5" ||
			a.ServiceURI != "/calcservice/calc.asmx" || a.URI != "/CalcService/Calc.asmx?op=add" || !a.StartedAt.Equal(now.Add(-5*time.Minute)) ||
			!a.OccurredAt.Equal(now.Add(-5*time.Minute)) {
			t.Errorf("merged transaction %+v", a)
		}
		if page.TotalItems != 3 || page.TotalPages != 1 {
			t.Errorf("page %+v", page)
		}
	})
}

// TestEdgeCanaryMasked follows a credential sent in lb headers, SOAP
// WS-Security, a configured redact name, an API-key header, and a generic
// log's "$headers" member through ingest to every endpoint that shows or
// searches payloads: none may show or find it, while the rest is kept.
func TestEdgeCanaryMasked(t *testing.T) {
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st, now)
		fx := seedEdgeLogs(t, api, now)
		for _, path := range []string{"/traffic-logs/" + txA, "/traffic-logs/" + txA + "?source=lb&includeCloud=true",
			"/lb-logs/" + txA, "/traffic-logs/" + fx.genericID + "?source=generic"} {
			body := string(api.do("GET", "/admin/v1"+path, operatorEmail, "", "").WantStatus(t, 200).Body)
			if strings.Contains(body, edgeCanary) {
				t.Errorf("%s shows the canary: %s", path, body)
			}
			for _, keep := range []string{"keep-user", redact.Mask} {
				if !strings.Contains(body, keep) && !strings.Contains(path, "generic") {
					t.Errorf("%s lost %q: %s", path, keep, body)
				}
			}
		}
		var d trafficLogDetail
		api.do("GET", "/admin/v1/traffic-logs/"+txA, operatorEmail, "", "").WantStatus(t, 200).Decode(t, &d)
		h := d.Events[0].Headers
		if len(d.Events) != 4 || h["Authorization"] != redact.Mask || h["X-Tenant-Key"] != redact.Mask || h["Pin"] != redact.Mask ||
			h["Cookie"] != redact.Mask || h["SOAPAction"] != `"urn:add"` || !strings.Contains(d.Events[0].Payload, "<m:a>2</m:a>") {
			t.Errorf("lb detail %+v", d)
		}
		var g trafficLogDetail
		api.do("GET", "/admin/v1/traffic-logs/"+fx.genericID+"?source=generic", adminEmail, "", "").WantStatus(t, 200).Decode(t, &g)
		if !strings.Contains(g.Request.Payload, `"order":42`) || !strings.Contains(g.Response.Payload, "<reason>boom</reason>") {
			t.Errorf("generic detail %+v", g)
		}
		for _, q := range []string{edgeCanary, strings.ToLower(edgeCanary)} {
			var res searchResult
			api.do("GET", "/admin/v1/traffic-search?source=all&payloadContains="+q+"&since="+iso(now.Add(-time.Hour)), operatorEmail, "", "").
				WantStatus(t, 200).Decode(t, &res)
			if len(res.Items) != 0 {
				t.Errorf("payloadContains=%s found %+v", q, res.Items)
			}
		}
		var res searchResult
		api.do("GET", "/admin/v1/traffic-search?source=all&payloadContains=USERNAMETOKEN&since="+iso(now.Add(-time.Hour)), operatorEmail, "", "").
			WantStatus(t, 200).Decode(t, &res)
		if len(res.Items) != 1 || res.Items[0].ID != txA {
			t.Errorf("payloadContains=USERNAMETOKEN: %+v", res.Items)
		}
		events, err := st.LBTransaction(context.Background(), "", txA, true)
		if err != nil || len(events) != 4 {
			t.Fatal(events, err)
		}
		for _, e := range events {
			if strings.Contains(e.Headers+e.Payload, edgeCanary) {
				t.Errorf("stored event %s holds the canary", e.Stage)
			}
		}
	})
}

func TestTrafficLogDetail(t *testing.T) {
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st, now)
		fx := seedEdgeLogs(t, api, now)
		var d trafficLogDetail
		api.do("GET", "/admin/v1/traffic-logs/"+txA+"?includeCloud=false", operatorEmail, "", "").WantStatus(t, 200).Decode(t, &d)
		if d.PayloadsIncluded || d.PayloadsWithheld || d.Events[0].Payload != "" || d.Events[0].Headers != nil || d.Events[0].PayloadBytes == 0 {
			t.Errorf("includeCloud=false: %+v", d)
		}
		d = trafficLogDetail{}
		api.get("/admin/v1/lb-logs/"+strings.ToUpper(txB), &d)
		if !d.PayloadsWithheld || d.ID != txB || d.ResultCode != "reset" || !d.Error || len(d.Events) != 2 || d.Events[0].Headers != nil {
			t.Errorf("reader's lb detail %+v", d)
		}
		var g trafficLogDetail
		api.get("/admin/v1/traffic-logs/"+fx.genericID+"?source=generic", &g)
		if g.Source != "generic" || g.GatewayVendor != "kong" || g.StatusCode != 500 || !g.PayloadsWithheld || g.Request.Payload != "" ||
			g.Environment != "discovered" || g.ServiceKey != "/orders/{id}/items" || g.EventID == "" {
			t.Errorf("reader's generic detail %+v", g)
		}
		for _, tt := range []struct {
			path, email string
			status      int
		}{
			{"/traffic-logs/" + txD, readerEmail, 404}, // another tenant's
			{"/lb-logs/" + txD, readerEmail, 404},      //
			{"/traffic-logs/" + txD, acmeEmail, 200},   // its own
			{"/traffic-logs/99999999?source=generic", readerEmail, 404},
			{"/traffic-logs/" + fx.genericID + "?source=generic", acmeEmail, 404},
		} {
			api.do("GET", "/admin/v1"+tt.path, tt.email, "", "").WantStatus(t, tt.status)
		}
	})
}
