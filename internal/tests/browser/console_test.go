package browser

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// repoFile returns the path of a file of the repository.
func repoFile(rel string) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", rel)
}

const echoWSDL = "test/interop/wsdl/echo11.wsdl"

// byText selects the button (or link) whose text is exactly text.
func byText(tag, text string) string {
	return `//` + tag + `[normalize-space()="` + text + `"]`
}

// TestOnboardThroughTheBrowser uploads a real WSDL on the onboarding
// screen, points it at a real SOAP backend, tries an operation with a
// generated sample (request and response side by side), activates the
// draft, and then calls the published REST API.
func TestOnboardThroughTheBrowser(t *testing.T) {
	f := setup(t)
	backend := echoBackend(t)
	ctx := f.tab(t, "")

	run(t, ctx, "open the onboarding screen",
		chromedp.Navigate(f.base+"/console/onboard"),
		chromedp.WaitVisible(chromedp.CSS(`input[type=file]`)))
	if got := textOf(t, ctx, ".whoami"); !strings.Contains(got, devAdmin) || !strings.Contains(got, "admin") {
		t.Errorf("header shows %q, want the development identity as admin", got)
	}
	run(t, ctx, "upload the WSDL and import",
		chromedp.SetUploadFiles(chromedp.CSS(`input[type=file]`), []string{repoFile(echoWSDL)}),
		chromedp.SendKeys(chromedp.CSS(`input[name=serviceKey]`), "echo"),
		chromedp.SendKeys(chromedp.CSS(`input[name=backendUrl]`), backend.URL+"/echo"),
		chromedp.Click(chromedp.Search(byText("button", "Import and draft the service"))),
		chromedp.WaitVisible(chromedp.CSS(`#drafted`)))
	drafted := textOf(t, ctx, "main")
	for _, want := range []string{"echo", "Fail", "POST /echo", "READY_TO_PUBLISH", "AUTO_READY"} {
		if !strings.Contains(drafted, want) {
			t.Errorf("autopilot result lacks %q", want)
		}
	}
	if got := value(t, ctx, "backend URL", chromedp.Value(chromedp.CSS(`input[name=endpointUrl]`))); got != backend.URL+"/echo" {
		t.Errorf("backend URL field = %q, want %s/echo", got, backend.URL)
	}

	run(t, ctx, "run a generated sample against the backend",
		chromedp.Click(chromedp.Search(byText("button", "Run with a generated sample"))),
		chromedp.WaitVisible(chromedp.CSS(`.preview`)))
	preview := textOf(t, ctx, ".preview")
	for _, want := range []string{"succeeded", "Request · JSON", "Request · SOAP", "Response · SOAP", "Response · JSON",
		"<ns1:Echo>", "<EchoResponse", `"text": "string"`} {
		if !strings.Contains(preview, want) {
			t.Errorf("preview lacks %q:\n%s", want, preview)
		}
	}

	run(t, ctx, "activate",
		chromedp.Click(chromedp.Search(byText("button", "Activate version 1"))),
		chromedp.WaitVisible(chromedp.Search(byText("p", "active The service is live. Call it:"))))
	if got := textOf(t, ctx, `section[aria-labelledby="activate"]`); !strings.Contains(got, "/publish/dev/echo/echo") {
		t.Errorf("activation shows %q, want the publish URL", got)
	}

	// The published API answers through the runtime.
	body := `{"values":{"text":"héllo","amount":12.50,"count":3,"flag":true,"items":["a"],"note":null}}`
	deadline := time.Now().Add(5 * time.Second)
	for {
		resp, err := http.Post(f.base+"/publish/dev/echo/echo", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == 200 {
			var got map[string]any
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatal(err)
			}
			v, _ := got["values"].(map[string]any)
			if v["text"] != "héllo" || v["flag"] != true || len(v["items"].([]any)) != 1 {
				t.Errorf("publish answer = %s", b)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("publish = %d %s", resp.StatusCode, b)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestImportErrorShowsCodeAndLine: a WSDL that is not well-formed shows
// the API's S2R-VAL-0400 with the file and line.
func TestImportErrorShowsCodeAndLine(t *testing.T) {
	f := setup(t)
	ctx := f.tab(t, "")
	run(t, ctx, "paste a broken WSDL",
		chromedp.Navigate(f.base+"/console/onboard?source=xml"),
		chromedp.WaitVisible(chromedp.CSS(`textarea[name=xml]`)),
		chromedp.SendKeys(chromedp.CSS(`textarea[name=xml]`), "<definitions xmlns=\"http://schemas.xmlsoap.org/wsdl/\">\n<types>\n<oops</types></definitions>"),
		chromedp.Click(chromedp.Search(byText("button", "Import and draft the service"))),
		chromedp.WaitVisible(chromedp.CSS(`.error-box`)))
	got := textOf(t, ctx, ".error-box")
	for _, want := range []string{"Import failed", "S2R-VAL-0400", "file", "root.wsdl", "line", "3", "not well-formed XML", "correlation id"} {
		if !strings.Contains(got, want) {
			t.Errorf("error box lacks %q: %s", want, got)
		}
	}
}

// onboardByAPI drafts and activates the echo service under key through the
// admin API and returns its service id.
func onboardByAPI(t *testing.T, f *fixture, key string) string {
	t.Helper()
	wsdl, err := os.ReadFile(repoFile(echoWSDL))
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Service struct{ ServiceID string }
		Version struct{ VersionID string }
	}
	f.admin(t, devAdmin, "POST", "/wsdl/import-xml:autopilot", map[string]any{"xml": string(wsdl), "environment": "dev", "serviceKey": key}, 201, &res)
	f.admin(t, devAdmin, "POST", "/services/"+res.Service.ServiceID+"/versions/"+res.Version.VersionID+":activate", nil, 200, nil)
	return res.Service.ServiceID
}

// writeButtons counts the visible buttons and links of the page that
// would change something.
const writeButtons = `[...document.querySelectorAll('main button, main a.button, nav a')].filter(b => b.offsetParent !== null &&
  /^(Onboard|Import|Save|Disable|Enable|Debug|Deprecate|Delete|Activate|Roll back|New draft|Add|Grant|Remove|Regenerate|Generate|Validate|Test|Edit|Run with|Smoke|Send|Register|Revoke|Reprocess|Reopen|Complete|Fail|Preview this callback)/.test(b.textContent.trim())).map(b => b.textContent.trim())`

// TestReaderSeesNoWriteButtons: a reader browses every screen and is
// offered nothing that changes state.
func TestReaderSeesNoWriteButtons(t *testing.T) {
	f := setup(t)
	id := onboardByAPI(t, f, "reader-echo")
	f.admin(t, devAdmin, "POST", "/permission-bindings", map[string]any{"email": "reader@example.com", "role": "reader"}, 201, nil)
	ctx := f.tab(t, "reader@example.com")
	pages := []struct{ path, ready string }{
		{"/console/services", `table`},
		{"/console/services/" + id, `.danger-zone, .kv`},
		{"/console/services/" + id + "?tab=versions", `table`},
		{"/console/services/" + id + "?tab=operations", `table`},
		{"/console/services/" + id + "?tab=backends", `table`},
		{"/console/services/" + id + "?tab=grants", `textarea`},
		{"/console/services/" + id + "?tab=security", `form[aria-label="Rate limits"]`},
		{"/console/services/" + id + "?tab=try", `.try`},
		{"/console/settings", `fieldset`},
		{"/console/settings?tab=access", `table`},
		{"/console/onboard", `.notice`},
		{"/console/async", `h1`},
		{"/console/discovery?tab=instances", `h1`},
		{"/console/settings?tab=mail", `h1`},
	}
	for _, p := range pages {
		run(t, ctx, "open "+p.path,
			chromedp.Navigate(f.base+p.path),
			chromedp.WaitVisible(chromedp.CSS(p.ready)),
			chromedp.Sleep(150*time.Millisecond)) // let every panel load
		found := value(t, ctx, "list write buttons", chromedp.Evaluate[[]string](writeButtons))
		if len(found) > 0 {
			t.Errorf("%s offers a reader %q", p.path, found)
		}
	}
	if got := textOf(t, ctx, ".whoami"); !strings.Contains(got, "reader") {
		t.Errorf("header shows %q, want the reader role", got)
	}
}

// TestForcedWriteShows403: an operator loses the role while the page is
// open; the write is refused and the console shows the 403 with its code,
// then stops offering the button.
func TestForcedWriteShows403(t *testing.T) {
	f := setup(t)
	id := onboardByAPI(t, f, "forced-echo")
	var b struct{ BindingID string }
	f.admin(t, devAdmin, "POST", "/permission-bindings", map[string]any{"email": "ops@example.com", "role": "operator"}, 201, &b)
	ctx := f.tab(t, "ops@example.com")
	run(t, ctx, "open the service as operator",
		chromedp.Navigate(f.base+"/console/services/"+id),
		chromedp.WaitVisible(chromedp.Search(byText("button", "Disable service"))),
		// Let every panel load first: a panel's request landing between
		// the delete and the new binding below meets no role at all and
		// the page shows "No access" (an e-mail has one binding, so the
		// role cannot be swapped without that gap).
		chromedp.Sleep(500*time.Millisecond))

	f.admin(t, devAdmin, "DELETE", "/permission-bindings/"+b.BindingID, nil, 204, nil)
	f.admin(t, devAdmin, "POST", "/permission-bindings", map[string]any{"email": "ops@example.com", "role": "reader"}, 201, &b)

	run(t, ctx, "disable as a reader",
		chromedp.Click(chromedp.Search(byText("button", "Disable service"))),
		chromedp.WaitVisible(chromedp.CSS(`.error-box`)))
	if got := textOf(t, ctx, ".error-box"); !strings.Contains(got, "S2R-ADM-0403") || !strings.Contains(got, "operator") {
		t.Errorf("error box = %q, want S2R-ADM-0403 naming the required role", got)
	}
	run(t, ctx, "the button goes away", chromedp.WaitNotPresent(chromedp.Search(byText("button", "Disable service"))))
	var svc struct{ Status string }
	f.admin(t, devAdmin, "GET", "/services/"+id, nil, 200, &svc)
	if svc.Status != "active" {
		t.Errorf("service status = %q after a refused disable", svc.Status)
	}

	// Without any role the console says so, with the API's answer.
	f.admin(t, devAdmin, "DELETE", "/permission-bindings/"+b.BindingID, nil, 204, nil)
	run(t, ctx, "no role at all",
		chromedp.Navigate(f.base+"/console/services"),
		chromedp.WaitVisible(chromedp.Search(byText("h1", "No access"))))
	if got := textOf(t, ctx, ".error-box"); !strings.Contains(got, "S2R-ADM-0403") {
		t.Errorf("no-access page error = %q", got)
	}
}

// TestKeyboardAndNarrowWindow: tabs move with the arrow keys; on a narrow
// window the navigation folds behind the Menu button.
func TestKeyboardAndNarrowWindow(t *testing.T) {
	f := setup(t)
	id := onboardByAPI(t, f, "keys-echo")
	ctx := f.tab(t, "")
	run(t, ctx, "arrow to the next tab",
		chromedp.Navigate(f.base+"/console/services/"+id),
		chromedp.WaitVisible(chromedp.CSS(`#tab-overview`)),
		chromedp.Focus(chromedp.CSS(`#tab-overview`)),
		chromedp.KeyEvent(kb.ArrowRight),
		chromedp.WaitVisible(chromedp.CSS(`#tab-versions[aria-selected="true"]`)))
	url := value(t, ctx, "location", chromedp.Location())
	if !strings.Contains(url, "tab=versions") {
		t.Errorf("location after ArrowRight = %s", url)
	}
	run(t, ctx, "narrow window",
		chromedp.EmulateViewport(400, 800),
		chromedp.Navigate(f.base+"/console/services"),
		chromedp.WaitVisible(chromedp.CSS(`.menu-toggle`)),
		chromedp.WaitNotVisible(chromedp.CSS(`#nav`)),
		chromedp.Click(chromedp.CSS(`.menu-toggle`)),
		chromedp.WaitVisible(chromedp.CSS(`#nav`)),
		chromedp.Click(chromedp.CSS(`#nav a[href="/console/audit"]`)),
		chromedp.WaitVisible(chromedp.Search(byText("h1", "Audit events"))),
		chromedp.WaitNotVisible(chromedp.CSS(`#nav`)))
}
