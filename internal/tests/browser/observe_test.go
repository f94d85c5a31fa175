package browser

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/google/uuid"
)

// hasEndpoint reports whether this build's admin API answers GET path
// with anything but 404.
func hasEndpoint(t *testing.T, f *fixture, path string) bool {
	t.Helper()
	req, _ := http.NewRequest("GET", f.base+"/admin/v1"+path, nil)
	req.Header.Set("X-Idp-Authenticated-User-Email", devAdmin)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode != 404
}

// needEndpoint skips the test when this build's admin API has no endpoint
// at path (the console says so itself; see the Probe screens).
func needEndpoint(t *testing.T, f *fixture, path string) {
	t.Helper()
	if !hasEndpoint(t, f, path) {
		t.Skipf("this build has no /admin/v1%s", path)
	}
}

// TestObservabilityScreens: the dashboard summary with its 24-hour chart
// and SLO report, a service's traffic timeline, traffic search and the
// SOAP-to-JSON preview, on real runtime traffic.
func TestObservabilityScreens(t *testing.T) {
	f := setup(t)
	needEndpoint(t, f, "/dashboard/summary?window=1h")
	backend := echoBackend(t)
	id := onboardByAPI(t, f, "observed-echo")
	var profiles []struct{ ProfileID string }
	f.admin(t, devAdmin, "GET", "/services/"+id+"/backend-profiles", nil, 200, &profiles)
	f.admin(t, devAdmin, "PATCH", "/backend-profiles/"+profiles[0].ProfileID, map[string]any{"endpointUrl": backend.URL + "/echo"}, 200, nil)
	body := `{"values":{"text":"seen","amount":1,"count":1,"flag":true,"note":null}}`
	waitStatus(t, func() int { s, _ := httpPost(f.base+"/publish/dev/observed-echo/echo", body); return s }, 200)
	for i := 0; i < 3; i++ {
		httpPost(f.base+"/publish/dev/observed-echo/echo", body)
	}
	ctx := f.tab(t, "")

	run(t, ctx, "dashboard summary",
		chromedp.Navigate(f.base+"/console/dashboard"),
		chromedp.WaitVisible(chromedp.CSS(`ul.kpis`)),
		chromedp.WaitVisible(chromedp.CSS(`section[aria-labelledby="freshness"] table`)))
	if got := textOf(t, ctx, "main"); !strings.Contains(got, "availability, 24 h") || !strings.Contains(got, "Urgent issues") {
		t.Errorf("dashboard lacks its summary: %.300s", got)
	}

	run(t, ctx, "SLO report over raw records",
		chromedp.Navigate(f.base+"/console/dashboard?tab=slo&window=1h"),
		chromedp.WaitVisible(chromedp.Search(`//td[contains(., "observed-echo")]`)))

	run(t, ctx, "the service's traffic timeline",
		chromedp.Navigate(f.base+"/console/services/"+id+"?tab=traffic&window=1h"),
		chromedp.WaitVisible(chromedp.CSS(`.chart .uplot`)))
	if got := textOf(t, ctx, "main .kv"); !strings.Contains(got, "Requests") {
		t.Errorf("timeline summary = %q", got)
	}

	run(t, ctx, "traffic search",
		chromedp.Navigate(f.base+"/console/traffic?tab=search&uriContains=observed-echo"),
		chromedp.WaitVisible(chromedp.Search(`//td//code[contains(., "/publish/dev/observed-echo/echo")]`)))

	run(t, ctx, "SOAP to JSON, naive",
		chromedp.Navigate(f.base+"/console/traffic?tab=preview"),
		chromedp.WaitVisible(chromedp.CSS(`textarea`)),
		fillLabel("SOAP XML", `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><Hello><name>Ada</name></Hello></soap:Body></soap:Envelope>`),
		chromedp.Click(chromedp.Search(byText("button", "Convert"))),
		chromedp.WaitVisible(chromedp.Search(`//figure[contains(., "JSON")]//code[contains(., "Ada")]`)))
}

// TestDiscoveryScreens: an admin registers a connector instance and sees
// its token once; the connector's load-balancer events make a discovered
// row with a drill-down (chart, consumers, examples); its alert rule is
// saved; the instance is revoked.
func TestDiscoveryScreens(t *testing.T) {
	f := setup(t)
	needEndpoint(t, f, "/master-discovery/rows")
	ctx := f.tab(t, "")
	run(t, ctx, "register an instance",
		chromedp.Navigate(f.base+"/console/discovery?tab=instances"),
		chromedp.WaitVisible(chromedp.CSS(`#register`)),
		fillLabel("Name", "edge-1"),
		chromedp.Click(chromedp.Search(byText("button", "Register"))),
		chromedp.WaitVisible(chromedp.CSS(`.token`)))
	token := textOf(t, ctx, ".token")
	if len(token) < 20 {
		t.Fatalf("token = %q", token)
	}

	sendLBTransaction(t, f, token)

	run(t, ctx, "the discovered row and its drill-down",
		chromedp.Navigate(f.base+"/console/discovery?q=CustomerService"),
		chromedp.Click(chromedp.Search(`//button[contains(., "/legacy/customerservice")]`)),
		chromedp.WaitVisible(chromedp.CSS(`#drill`)),
		chromedp.WaitVisible(chromedp.CSS(`section[aria-labelledby="drill"] .uplot`)),
		chromedp.WaitVisible(chromedp.Search(`//td/code[normalize-space()="10.1.2.3"]`)))

	run(t, ctx, "save the alert rule",
		chromedp.Click(chromedp.CSS(`section[aria-labelledby="drill"] input[type=checkbox]`)),
		chromedp.Click(chromedp.Search(byText("button", "Save alert rule"))),
		chromedp.WaitVisible(chromedp.Search(`//p[@role="status" and contains(., "Saved for")]`)))

	run(t, ctx, "revoke the instance",
		chromedp.Navigate(f.base+"/console/discovery?tab=instances"),
		chromedp.Click(chromedp.Search(`//tr[contains(., "edge-1")]//button[normalize-space()="Revoke"]`)),
		chromedp.WaitVisible(chromedp.CSS(`dialog[open]`)),
		chromedp.Click(chromedp.Search(`//dialog//button[normalize-space()="Revoke"]`)),
		chromedp.WaitVisible(chromedp.Search(`//tr[contains(., "edge-1")]//span[normalize-space()="revoked"]`)))
	if html := value(t, ctx, "page", chromedp.OuterHTML(chromedp.CSS("html"))); strings.Contains(html, token) {
		t.Error("the token is still shown after leaving the registration")
	}
}

// sendLBTransaction sends one transaction's four load-balancer events, as
// a connector with token does.
func sendLBTransaction(t *testing.T, f *fixture, token string) {
	t.Helper()
	tx, now := uuid.NewString(), time.Now().UTC()
	var events []map[string]any
	for i, stage := range []string{"client_request", "server_request", "server_response", "client_response"} {
		e := map[string]any{"eventId": uuid.NewString(), "globalTransactionId": tx, "stage": stage,
			"timestamp": now.Add(time.Duration(i) * time.Millisecond).Format(time.RFC3339Nano), "clientIp": "10.1.2.3",
			"method": "POST", "host": "soap.example", "uri": "/legacy/CustomerService", "backend": "10.9.9.9:8080",
			"statusCode": 200, "durationMs": 12.5, "resultCode": "ok", "frontVirtualServer": "vs_front", "backVirtualServer": "vs_back"}
		if stage == "client_request" {
			e["payload"] = `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><GetCustomer/></soap:Body></soap:Envelope>`
		}
		if stage == "client_response" {
			e["payload"] = `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><GetCustomerResponse/></soap:Body></soap:Envelope>`
		}
		events = append(events, e)
	}
	ingest(t, f, "/ingest/v1/lb-events", token, events)
}
