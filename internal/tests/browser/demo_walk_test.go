package browser

import (
	"context"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/s2r-project/s2r/internal/demo"
)

// startDemo runs the two sample backends of `s2r demo` and onboards their
// services (publish/demo/calculator, consume/demo/quotes) on the test's
// server, as `s2r demo` does.
func startDemo(t *testing.T, f *fixture) *demo.Backends {
	t.Helper()
	b, err := demo.Listen()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); b.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	octx, ocancel := context.WithTimeout(ctx, 30*time.Second)
	defer ocancel()
	if err := (demo.Admin{BaseURL: f.base}).Onboard(octx, b); err != nil {
		t.Fatalf("onboard the demo: %v\n%s", err, f.serverLog())
	}
	if err := demo.CheckServed(octx, f.base); err != nil {
		t.Fatalf("the demo services are not served: %v", err)
	}
	return b
}

// serviceID finds a service's id by direction, environment and key.
func serviceID(t *testing.T, f *fixture, direction, env, key string) string {
	t.Helper()
	var list struct {
		Items []struct{ ServiceID, ServiceKey, Direction, Environment string }
	}
	f.admin(t, devAdmin, "GET", "/services?environment="+env+"&direction="+direction+"&q="+key, nil, 200, &list)
	for _, s := range list.Items {
		if s.ServiceKey == key {
			return s.ServiceID
		}
	}
	t.Fatalf("no service %s/%s/%s", direction, env, key)
	return ""
}

// shootIf saves a screenshot for docs/console.md when the test runs with
// -screenshots (scripts/console-screenshots.sh).
func shootIf(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	if *screenshots == "" {
		return
	}
	run(t, ctx, "settle for "+name, chromedp.Sleep(300*time.Millisecond))
	save(t, name, value(t, ctx, "screenshot "+name, chromedp.CaptureScreenshot()))
}

// wantText fails unless the text of the node matching sel holds every want.
func wantText(t *testing.T, ctx context.Context, sel string, wants ...string) {
	t.Helper()
	got := textOf(t, ctx, sel)
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("%s lacks %q:\n%s", sel, w, got)
		}
	}
}

// TestDemoWalk walks the demo's two services through the console as a
// newcomer after `make demo` would: the calculator (publish) shows a curl
// command per operation and answers a generated sample; the quote service
// (consume) shows its WSDL URL and a sample SOAP request, and its Try tab
// opens on the backend call of GetQuote. Then the quote WSDL is onboarded
// again by hand as a consume service: its REST call is proposed from the
// backend's OpenAPI document, applied, tried and activated, and a SOAP
// client calls it.
func TestDemoWalk(t *testing.T) {
	f := setup(t)
	b := startDemo(t, f)
	ctx := f.tab(t, "")
	run(t, ctx, "viewport", chromedp.EmulateViewport(1280, 900))

	calc := serviceID(t, f, "publish", demo.Environment, demo.CalculatorKey)
	run(t, ctx, "the calculator's Call it",
		chromedp.Navigate(f.base+"/console/services/"+calc),
		chromedp.WaitVisible(chromedp.CSS(`#call-it`)),
		chromedp.WaitVisible(chromedp.Search(`//figcaption[contains(., "curl")]`)))
	wantText(t, ctx, `section[aria-labelledby="call-it"]`, "curl -s -X POST", "/publish/demo/calculator/add", `"a"`)
	run(t, ctx, "scroll to Call it", chromedp.ScrollIntoView(chromedp.CSS(`#call-it`)))
	shootIf(t, ctx, "demo-publish-call")
	run(t, ctx, "try the calculator with a generated sample",
		chromedp.Navigate(f.base+"/console/services/"+calc+"?tab=try"),
		chromedp.WaitVisible(chromedp.Search(byText("button", "Run with a generated sample"))),
		chromedp.Click(chromedp.Search(byText("button", "Run with a generated sample"))),
		chromedp.WaitVisible(chromedp.CSS(`.preview`)))
	wantText(t, ctx, ".preview", "succeeded", "HTTP 200", "AddResponse")

	quotes := serviceID(t, f, "consume", demo.Environment, demo.QuotesKey)
	run(t, ctx, "the quote service's Call it",
		chromedp.Navigate(f.base+"/console/services/"+quotes),
		chromedp.WaitVisible(chromedp.Search(`//figcaption[contains(., "Sample SOAP request")]`)))
	wantText(t, ctx, `section[aria-labelledby="call-it"]`, "/consume/demo/quotes?wsdl", "GetQuote", "SOAPAction: \"http://s2r.dev/demo/quotes/GetQuote\"")
	run(t, ctx, "scroll to Call it", chromedp.ScrollIntoView(chromedp.CSS(`#call-it`)))
	shootIf(t, ctx, "demo-consume-call")
	run(t, ctx, "try the quote backend, pre-filled",
		chromedp.Navigate(f.base+"/console/services/"+quotes+"?tab=try"),
		chromedp.WaitVisible(chromedp.Search(byText("button", "Send to the backend"))))
	path := value(t, ctx, "read the path", chromedp.Evaluate[string](
		`document.evaluate('//label[normalize-space()="Path"]', document, null, 9, null).singleNodeValue.control.value`))
	if path != "/quotes/{symbol}" {
		t.Errorf("Try opens with path %q, want /quotes/{symbol}", path)
	}
	run(t, ctx, "send GetQuote's call",
		fillLabel("Path", "/quotes/ACME"),
		chromedp.Click(chromedp.Search(byText("button", "Send to the backend"))),
		chromedp.WaitVisible(chromedp.CSS(`.preview`)))
	wantText(t, ctx, ".preview", "HTTP 200", "GET "+b.QuotesURL+"/quotes/ACME", "Acme Corporation")

	// The quote WSDL, onboarded by hand as a consume service.
	run(t, ctx, "onboard the quote WSDL as consume",
		chromedp.Navigate(f.base+"/console/onboard?source=xml"),
		chromedp.WaitVisible(chromedp.CSS(`textarea[name=xml]`)),
		fill(`textarea[name=xml]`, demo.QuotesWSDL),
		fill(`select[name=direction]`, "consume"),
		chromedp.WaitVisible(chromedp.Search(`//label[normalize-space()="REST backend URL"]`)),
		fill(`input[name=serviceKey]`, "quotes-walk"),
		fill(`input[name=backendUrl]`, b.QuotesURL),
		chromedp.Click(chromedp.Search(byText("button", "Import and draft the service"))),
		chromedp.WaitVisible(chromedp.CSS(`#routes`)),
		chromedp.Click(chromedp.Search(byText("button", "Propose REST routes"))),
		chromedp.WaitVisible(chromedp.Search(`//table[caption[normalize-space()="Proposed REST routes"]]`)))
	wantText(t, ctx, `section[aria-labelledby="routes"]`, "GetQuote", "GET /quotes/{symbol}", "operationId getQuote")
	run(t, ctx, "scroll to the proposals", chromedp.ScrollIntoView(chromedp.CSS(`#routes`)))
	shootIf(t, ctx, "onboard-consume-routes")
	run(t, ctx, "apply the proposal, then activate",
		chromedp.Click(chromedp.Search(byText("button", "Apply 1 proposal(s)"))),
		chromedp.WaitVisible(chromedp.Search(byText("button", "Nothing to change"))),
		chromedp.Click(chromedp.Search(`//button[starts-with(normalize-space(), "Activate version")]`)),
		chromedp.WaitVisible(chromedp.Search(`//*[@role="status" and contains(., "SOAP clients read its WSDL")]`)))
	wantText(t, ctx, `section[aria-labelledby="operations"]`, "GET /quotes/{symbol}")

	// A SOAP client calls it as the service page shows.
	env := demo.QuoteEnvelope("GLOBEX")
	var answer string
	defer func() {
		if t.Failed() {
			t.Logf("last SOAP answer: %s", answer)
		}
	}()
	waitStatus(t, func() int {
		req, _ := http.NewRequest("POST", f.base+"/consume/dev/quotes-walk", strings.NewReader(env))
		req.Header.Set("Content-Type", "text/xml; charset=utf-8")
		req.Header.Set("SOAPAction", `"http://s2r.dev/demo/quotes/GetQuote"`)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		answer = string(body)
		return resp.StatusCode
	}, 200)
	if !strings.Contains(answer, "Globex Corporation") {
		t.Errorf("SOAP answer lacks the quote: %s", answer)
	}
	// The demo's quote service is not compared with quotes-walk's import
	// of the same WSDL: that import is another service's.
	var drift struct {
		Status             string
		ComparedArtifactID *string
	}
	var vs struct{ Items []struct{ VersionID string } }
	f.admin(t, devAdmin, "GET", "/services/"+quotes+"/versions", nil, 200, &vs)
	f.admin(t, devAdmin, "GET", "/services/"+quotes+"/versions/"+vs.Items[0].VersionID+"/wsdl-drift", nil, 200, &drift)
	if drift.Status != "UNTRACKED" || drift.ComparedArtifactID != nil {
		t.Errorf("demo quotes drift = %+v: another service's import of the same WSDL must not count", drift)
	}
}

// TestFirstActivation: a service with only a draft does not claim to be
// active, and activating its first version says that nothing was active
// before instead of speaking of "the current active version".
func TestFirstActivation(t *testing.T) {
	f := setup(t)
	wsdl, err := os.ReadFile(repoFile(echoWSDL))
	if err != nil {
		t.Fatal(err)
	}
	var res struct{ Service struct{ ServiceID string } }
	f.admin(t, devAdmin, "POST", "/wsdl/import-xml:autopilot", map[string]any{"xml": string(wsdl), "environment": "dev",
		"serviceKey": "first-activation"}, 201, &res)
	ctx := f.tab(t, "")
	page := f.base + "/console/services/" + res.Service.ServiceID
	run(t, ctx, "open the draft-only service",
		chromedp.Navigate(page),
		chromedp.WaitVisible(chromedp.Search(`//*[contains(@class, "badge") and normalize-space()="not served yet: no active version"]`)))
	run(t, ctx, "open the activation dialog",
		chromedp.Navigate(page+"?tab=versions"),
		chromedp.Click(chromedp.Search(byText("button", "Activate"))),
		chromedp.WaitVisible(chromedp.CSS(`dialog[open]`)))
	wantText(t, ctx, "dialog[open]", "no version was active before")
	if got := textOf(t, ctx, "dialog[open]"); strings.Contains(got, "current active version") {
		t.Errorf("the dialog speaks of a current active version: %s", got)
	}
	run(t, ctx, "activate",
		chromedp.Click(chromedp.Search(`//dialog//button[normalize-space()="Activate"]`)),
		chromedp.WaitNotPresent(chromedp.CSS(`dialog[open]`)),
		chromedp.WaitVisible(chromedp.Search(`//*[contains(@class, "badge") and normalize-space()="active"]`)))
}
