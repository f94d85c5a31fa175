package browser

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/google/uuid"
)

// trafficData is the real traffic TestTrafficScreen looks at: one record
// of each source, each carrying the canary credential that s2r masks
// before storing it.
type trafficData struct {
	canary        string
	correlationID string // runtime: a publish call with debug on
	lbTx, lbBroke string // lb: a transaction with payloads, a reset one
	genericID     string // generic: one gateway log
}

// TestTrafficScreen: the traffic logs of the three sources from real
// traffic (a publish call through s2r to a loopback backend; load-balancer
// events and a gateway log through the ingest API with registered
// instance tokens): filters (an lb transaction still in flight listed by
// its client_request), search, the drawer of each source with its
// masked credentials never shown, Escape giving the focus back, a deep
// link surviving a reload, a narrow window, the dashboard's virtual-server
// failures, a reader's view without payloads, and an invalid time range
// showing the API's code.
func TestTrafficScreen(t *testing.T) {
	f := setup(t)
	needEndpoint(t, f, "/traffic-logs")
	d := sendTraffic(t, f)
	ctx := f.tab(t, "")
	noCanary := func(where string) {
		t.Helper()
		if page := value(t, ctx, "page", chromedp.OuterHTML(chromedp.CSS("html"))); strings.Contains(page, d.canary) {
			t.Errorf("%s shows the masked credential", where)
		}
	}
	lbRow := `//tr[contains(., "/legacy/TrafficScreen/Orders")]`
	drawer := `dialog.drawer[open]`
	gone := chromedp.WaitNotPresent(chromedp.CSS(`dialog.drawer`)) // closed, and the URL forgot it

	run(t, ctx, "filter the lb source and a service URI",
		chromedp.Navigate(f.base+"/console/traffic"),
		chromedp.WaitVisible(chromedp.CSS(`#tab-logs[aria-selected="true"]`)),
		fillLabel("Source", "lb"),
		chromedp.WaitVisible(chromedp.Search(lbRow)),
		chromedp.WaitVisible(chromedp.Search(`//tr[contains(., "/legacy/TrafficScreen/Broken")]`)),
		fillLabel("Listed by", "client_request"),
		chromedp.WaitVisible(chromedp.Search(`//tr[contains(., "/legacy/TrafficScreen/InFlight")]`)),
		fillLabel("Listed by", ""),
		chromedp.WaitNotPresent(chromedp.Search(`//tr[contains(., "/legacy/TrafficScreen/InFlight")]`)),
		fillLabel("Service URI contains", "trafficscreen/orders"),
		chromedp.WaitNotPresent(chromedp.Search(`//tr[contains(., "/legacy/TrafficScreen/Broken")]`)))
	if loc := value(t, ctx, "location", chromedp.Location()); !strings.Contains(loc, "source=lb") || !strings.Contains(loc, "serviceUri=trafficscreen") {
		t.Errorf("the filters are not in the URL: %s", loc)
	}

	run(t, ctx, "the lb drawer: stages, masked headers, payloads",
		chromedp.Click(chromedp.Search(lbRow+`//button[normalize-space()="Details"]`)),
		chromedp.WaitVisible(chromedp.CSS(drawer)),
		chromedp.WaitVisible(chromedp.Search(`//dialog//section[@aria-label="Stage client_request"]//td[contains(., "***redacted***")]`)),
		chromedp.WaitVisible(chromedp.Search(`//dialog//section[@aria-label="Stage client_response"]//code[contains(., "FindOrderResponse")]`)))
	got := textOf(t, ctx, drawer)
	for _, want := range []string{"Load-balancer transaction", d.lbTx, "keep-user", "masked", "X-Trace", "keep-me", "vs_front → vs_back", "f5"} {
		if !strings.Contains(got, want) {
			t.Errorf("lb drawer lacks %q", want)
		}
	}
	noCanary("the lb drawer")
	run(t, ctx, "Escape closes the drawer", chromedp.KeyEvent(kb.Escape), gone)
	if got := value(t, ctx, "focus", chromedp.Evaluate[string](`document.activeElement.dataset.open || document.activeElement.outerHTML`)); got != "lb:"+d.lbTx {
		t.Errorf("focus after Escape is on %s, want the row's Details button", got)
	}
	if loc := value(t, ctx, "location", chromedp.Location()); strings.Contains(loc, "open=") {
		t.Errorf("the closed drawer is still in the URL: %s", loc)
	}

	deep := f.base + "/console/traffic?source=lb&open=" + url.QueryEscape("lb:"+d.lbTx)
	run(t, ctx, "a deep link opens the drawer, a reload too",
		chromedp.Navigate(deep),
		chromedp.WaitVisible(chromedp.Search(`//dialog[@open]//td[contains(., "***redacted***")]`)),
		chromedp.Reload(),
		chromedp.WaitVisible(chromedp.Search(`//dialog[@open]//td[contains(., "***redacted***")]`)),
		chromedp.WaitVisible(chromedp.Search(lbRow)),
		chromedp.Click(chromedp.Search(`//dialog//button[normalize-space()="Close"]`)),
		gone)
	if got := value(t, ctx, "focus", chromedp.Evaluate[string](`document.activeElement.dataset.open || document.activeElement.tagName`)); got != "lb:"+d.lbTx {
		t.Errorf("focus after closing a deep-linked drawer is on %s, want the row's Details button", got)
	}

	run(t, ctx, "the generic drawer",
		chromedp.Navigate(f.base+"/console/traffic?source=generic"),
		chromedp.Click(chromedp.Search(`//tr[contains(., "/orders/9/items")]//button[normalize-space()="Details"]`)),
		chromedp.WaitVisible(chromedp.Search(`//dialog[@open]//figure[contains(., "Request payload")]//code[contains(., '"order": 9')]`)))
	if got := textOf(t, ctx, drawer); !strings.Contains(got, "Gateway log") || !strings.Contains(got, "kong") || !strings.Contains(got, "***redacted***") {
		t.Errorf("generic drawer = %.600s", got)
	}
	noCanary("the generic drawer")

	run(t, ctx, "the runtime drawer",
		chromedp.Navigate(f.base+"/console/traffic?correlationId="+d.correlationID),
		chromedp.Click(chromedp.Search(`//tr[contains(., "/publish/dev/traffic-echo/echo")]//button[normalize-space()="Details"]`)),
		chromedp.WaitVisible(chromedp.Search(`//dialog[@open]//table[caption[contains(., "Client request headers")]]//td[contains(., "***redacted***")]`)),
		chromedp.WaitVisible(chromedp.Search(`//dialog[@open]//figure[contains(., "Client request")]//code[contains(., "drawer-check")]`)))
	noCanary("the runtime drawer")

	run(t, ctx, "search every source, then a payload",
		chromedp.Navigate(f.base+"/console/traffic?tab=search"),
		chromedp.WaitVisible(chromedp.Search(`//tr[contains(., "/publish/dev/traffic-echo/echo")]`)),
		chromedp.WaitVisible(chromedp.Search(lbRow)),
		chromedp.WaitVisible(chromedp.Search(`//tr[contains(., "/orders/9/items")]`)),
		fillLabel("Payload contains", "keep-user"),
		chromedp.WaitNotPresent(chromedp.Search(`//tr[contains(., "/orders/9/items")]`)),
		chromedp.Click(chromedp.Search(lbRow+`//button[normalize-space()="Details"]`)),
		chromedp.WaitVisible(chromedp.Search(`//dialog[@open]//td[contains(., "***redacted***")]`)),
		chromedp.KeyEvent(kb.Escape),
		gone)

	run(t, ctx, "an invalid time range shows the API's error",
		chromedp.Navigate(f.base+"/console/traffic?source=lb&start=2026-03-10T12:00&end=2026-03-10T11:00"),
		chromedp.WaitVisible(chromedp.CSS(`.error-box`)))
	if got := textOf(t, ctx, ".error-box"); !strings.Contains(got, "S2R-VAL-0400") || !strings.Contains(got, "start") {
		t.Errorf("error box = %q, want S2R-VAL-0400 naming start", got)
	}

	run(t, ctx, "the dashboard's virtual-server failures",
		chromedp.Navigate(f.base+"/console/dashboard"),
		chromedp.WaitVisible(chromedp.Search(`//section[@aria-labelledby="vs-failures"]//tr[contains(., "vs_broken")]`)))
	if got := textOf(t, ctx, `section[aria-labelledby="vs-failures"]`); !strings.Contains(got, "reset 1") {
		t.Errorf("virtual-server failures = %q", got)
	}
	if got := textOf(t, ctx, "ul.kpis"); !strings.Contains(got, "f5 ingest") {
		t.Errorf("KPIs lack the f5 ingest state: %q", got)
	}

	run(t, ctx, "a narrow window",
		chromedp.EmulateViewport(400, 800),
		chromedp.Navigate(deep),
		chromedp.WaitVisible(chromedp.Search(`//dialog[@open]//td[contains(., "***redacted***")]`)))
	if w := value(t, ctx, "drawer width", chromedp.Evaluate[float64](`document.querySelector('dialog.drawer').getBoundingClientRect().width`)); w > 400 {
		t.Errorf("drawer is %v px wide on a 400 px window", w)
	}

	readerView(t, f, d, deep)
}

// readerView: a reader opens the drawers and sees the transactions without
// headers or payloads, and no payload search.
func readerView(t *testing.T, f *fixture, d trafficData, deep string) {
	t.Helper()
	f.admin(t, devAdmin, "POST", "/permission-bindings", map[string]any{"email": "traffic-reader@example.com", "role": "reader"}, 201, nil)
	ctx := f.tab(t, "traffic-reader@example.com")
	for _, link := range []string{deep, f.base + "/console/traffic?source=generic&open=generic:" + d.genericID,
		f.base + "/console/traffic?open=" + url.QueryEscape("runtime:"+d.correlationID)} {
		run(t, ctx, "a reader's drawer "+link,
			chromedp.Navigate(link),
			chromedp.WaitVisible(chromedp.Search(`//dialog[@open]//p[contains(., "shown to operators and admins only")]`)))
		got := value(t, ctx, "drawer", chromedp.OuterHTML(chromedp.CSS("dialog.drawer")))
		for _, absent := range []string{"***redacted***", "keep-user", "drawer-check", `"order"`, "<table"} {
			if strings.Contains(got, absent) {
				t.Errorf("a reader's drawer %s shows %q", link, absent)
			}
		}
	}
	run(t, ctx, "a reader's search",
		chromedp.Navigate(f.base+"/console/traffic?tab=search"),
		chromedp.WaitVisible(chromedp.Search(`//label[normalize-space()="Consumer IP contains"]`)))
	if n := value(t, ctx, "labels", chromedp.Evaluate[int](`document.evaluate('count(//label[normalize-space()="Payload contains"])', document, null, 1, null).numberValue`)); n != 0 {
		t.Error("a reader is offered the payload search the API refuses")
	}
}

// sendTraffic makes the traffic of the three sources: a debug publish call
// through s2r to a loopback backend with a credential header, and, through
// the ingest API with instance tokens an admin registered, two lb
// transactions (one with a credential header and WS-Security password,
// one reset at its virtual server) and one gateway log with a credential
// in its $headers.
func sendTraffic(t *testing.T, f *fixture) trafficData {
	t.Helper()
	d := trafficData{canary: "Canary" + strings.ReplaceAll(uuid.NewString(), "-", ""), correlationID: "traffic-" + uuid.NewString(),
		lbTx: uuid.NewString(), lbBroke: uuid.NewString()}
	backend := echoBackend(t)
	id := onboardByAPI(t, f, "traffic-echo")
	var profiles []struct{ ProfileID string }
	f.admin(t, devAdmin, "GET", "/services/"+id+"/backend-profiles", nil, 200, &profiles)
	f.admin(t, devAdmin, "PATCH", "/backend-profiles/"+profiles[0].ProfileID, map[string]any{"endpointUrl": backend.URL + "/echo"}, 200, nil)
	body := `{"values":{"text":"drawer-check","amount":1,"count":1,"flag":true,"note":null}}`
	waitStatus(t, func() int {
		req, _ := http.NewRequest("POST", f.base+"/publish/dev/traffic-echo/echo", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Correlation-Id", d.correlationID)
		req.Header.Set("X-Debug-Enabled", "true")
		req.Header.Set("Authorization", "Basic "+d.canary)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}, 200)

	var f5, kong struct{ Token string }
	f.admin(t, devAdmin, "POST", "/ingest-instances", map[string]any{"vendor": "f5", "name": "traffic-f5"}, 201, &f5)
	f.admin(t, devAdmin, "POST", "/ingest-instances", map[string]any{"vendor": "kong", "name": "traffic-kong"}, 201, &kong)
	now := time.Now().UTC()
	event := func(tx, stage, uri string, i int) map[string]any {
		return map[string]any{"eventId": uuid.NewString(), "globalTransactionId": tx, "stage": stage,
			"timestamp": now.Add(time.Duration(i) * time.Millisecond).Format(time.RFC3339Nano), "clientIp": "10.7.7.7",
			"method": "POST", "host": "soap.example", "uri": uri, "backend": "10.9.9.9:8080",
			"frontVirtualServer": "vs_front", "backVirtualServer": "vs_back"}
	}
	var events []map[string]any
	for i, stage := range []string{"client_request", "server_request", "server_response", "client_response"} {
		e := event(d.lbTx, stage, "/legacy/TrafficScreen/Orders", i)
		switch stage {
		case "client_request":
			e["headers"] = map[string]string{"Authorization": "Basic " + d.canary, "SOAPAction": `"urn:findOrder"`, "X-Trace": "keep-me"}
			e["payload"] = `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:wsse="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd">` +
				`<soap:Header><wsse:Security><wsse:UsernameToken><wsse:Username>keep-user</wsse:Username><wsse:Password>` + d.canary +
				`</wsse:Password></wsse:UsernameToken></wsse:Security></soap:Header><soap:Body><FindOrder><id>9</id></FindOrder></soap:Body></soap:Envelope>`
		case "client_response":
			e["payload"] = `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><FindOrderResponse/></soap:Body></soap:Envelope>`
		}
		if stage == "server_response" || stage == "client_response" {
			e["statusCode"], e["resultCode"], e["durationMs"] = 200, "ok", 14.5
		}
		events = append(events, e)
	}
	broken := event(d.lbBroke, "client_response", "/legacy/TrafficScreen/Broken", 9)
	broken["resultCode"], broken["frontVirtualServer"], broken["backVirtualServer"] = "reset", "vs_broken", "pool_broken"
	events = append(events, event(d.lbBroke, "client_request", "/legacy/TrafficScreen/Broken", 8), broken,
		event(uuid.NewString(), "client_request", "/legacy/TrafficScreen/InFlight", 10))
	ingest(t, f, "/ingest/v1/lb-events", f5.Token, events)
	ingest(t, f, "/ingest/v1/generic-logs", kong.Token, []map[string]any{{"eventId": uuid.NewString(),
		"timestamp": now.Format(time.RFC3339Nano), "serviceUri": "/orders/9/items", "method": "POST", "statusCode": 200,
		"latencyMs": 8.5, "consumerIp": "10.8.8.8", "backend": "orders:8080", "resultCode": "ok",
		"requestPayload": `{"$headers":{"apiKey":"` + d.canary + `"},"order":9}`, "responsePayload": `{"items":[]}`}})

	var generic struct{ Items []struct{ ID string } }
	f.admin(t, devAdmin, "GET", "/traffic-logs?source=generic&serviceUri=/orders/9/items", nil, 200, &generic)
	if len(generic.Items) != 1 {
		t.Fatalf("generic logs = %+v", generic)
	}
	d.genericID = generic.Items[0].ID
	// The runtime's recorder writes in batches.
	deadline := time.Now().Add(10 * time.Second)
	for {
		var logs struct{ TotalItems int }
		f.admin(t, devAdmin, "GET", "/runtime-logs?correlationId="+d.correlationID, nil, 200, &logs)
		if logs.TotalItems > 0 {
			return d
		}
		if time.Now().After(deadline) {
			t.Fatal("the publish call was not recorded within 10 s")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// ingest posts events to an ingest endpoint as the connector with token.
func ingest(t *testing.T, f *fixture, path, token string, events any) {
	t.Helper()
	b, _ := json.Marshal(events)
	req, _ := http.NewRequest("POST", f.base+path, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		var e bytes.Buffer
		e.ReadFrom(resp.Body)
		t.Fatalf("POST %s = %d %s", path, resp.StatusCode, e.String())
	}
}
