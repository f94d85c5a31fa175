package browser

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// asyncExecution onboards the echo service with its echo operation in
// async_callback mode, calls it and returns the execution id (the
// correlation id). It skips when this build has no async API.
func asyncExecution(t *testing.T, f *fixture, backendURL, key, cid string) {
	t.Helper()
	needEndpoint(t, f, "/async-executions")
	var res struct {
		Service        struct{ ServiceID string }
		Version        struct{ VersionID string }
		Operations     []struct{ OperationID, OperationKey string }
		BackendProfile struct{ ProfileID string }
	}
	f.admin(t, devAdmin, "POST", "/wsdl/import-xml:autopilot", map[string]any{"xml": readRepo(t, echoWSDL), "environment": "dev",
		"serviceKey": key, "backendUrl": backendURL}, 201, &res)
	for _, o := range res.Operations {
		if o.OperationKey == "echo" {
			f.admin(t, devAdmin, "PATCH", "/operations/"+o.OperationID, map[string]any{"executionMode": "async_callback"}, 200, nil)
		}
	}
	f.admin(t, devAdmin, "POST", "/services/"+res.Service.ServiceID+"/versions/"+res.Version.VersionID+":activate", nil, 200, nil)
	body := `{"values":{"text":"later","amount":1,"count":1,"flag":false,"note":null}}`
	waitStatus(t, func() int {
		req, _ := http.NewRequest("POST", f.base+"/publish/dev/"+key+"/echo", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Correlation-Id", cid)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == 400 && strings.Contains(string(b), "X-Correlation-Id") {
			t.Fatalf("publish: %s", b)
		}
		return resp.StatusCode
	}, 202)
}

// callbackXML is the backend's later answer to execution cid.
func callbackXML(cid, text string) string {
	return `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:wsa="http://www.w3.org/2005/08/addressing">` +
		`<soap:Header><wsa:RelatesTo>urn:uuid:` + cid + `</wsa:RelatesTo></soap:Header><soap:Body>` +
		`<EchoResponse xmlns="urn:example:echo"><values><text>` + text + `</text><amount>1</amount><count>1</count>` +
		`<flag>false</flag><note xsi:nil="true" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"/></values></EchoResponse>` +
		`</soap:Body></soap:Envelope>`
}

// TestAsyncConsoleActions: an execution waiting for its callback is
// listed; a pasted callback is previewed, then reprocessed (completed);
// reopened; failed by hand; each action through its confirmation.
func TestAsyncConsoleActions(t *testing.T) {
	f := setup(t)
	backend := echoBackend(t)
	const cid = "console-async-1"
	asyncExecution(t, f, backend.URL+"/echo", "async-echo", cid)
	ctx := f.tab(t, "")
	confirm := func(label string) chromedp.Action[chromedp.Void] {
		return chromedp.Steps(
			chromedp.WaitVisible(chromedp.CSS(`dialog[open]`)),
			chromedp.Click(chromedp.Search(`//dialog//button[normalize-space()="`+label+`"]`)),
			chromedp.WaitNotPresent(chromedp.CSS(`dialog[open]`)))
	}
	status := func() string {
		var d struct{ Execution struct{ Status string } }
		f.admin(t, devAdmin, "GET", "/async-executions/"+cid, nil, 200, &d)
		return d.Execution.Status
	}

	run(t, ctx, "open the execution from the list",
		chromedp.Navigate(f.base+"/console/async?serviceKey=async-echo"),
		chromedp.Click(chromedp.Search(byText("button", cid))),
		chromedp.WaitVisible(chromedp.CSS(`#execution`)))
	if got := textOf(t, ctx, `section[aria-labelledby="execution"]`); !strings.Contains(got, "waiting_callback") {
		t.Errorf("detail = %q", got)
	}

	run(t, ctx, "preview a pasted callback",
		fillLabel("A callback (raw SOAP XML)", callbackXML(cid, "from the console")),
		chromedp.Click(chromedp.Search(byText("button", "Preview this callback"))),
		chromedp.WaitVisible(chromedp.Search(`//p[contains(., "Outcome:")]`)))
	if got := textOf(t, ctx, `section[aria-labelledby="execution"] form .card`); !strings.Contains(got, "completed") || !strings.Contains(got, "from the console") {
		t.Errorf("callback preview = %q", got)
	}
	if s := status(); s != "waiting_callback" {
		t.Fatalf("status after a preview = %s", s)
	}

	run(t, ctx, "reprocess with it", chromedp.Click(chromedp.Search(byText("button", "Reprocess with this callback"))), confirm("Reprocess"),
		chromedp.WaitVisible(chromedp.Search(`//section[@aria-labelledby="execution"]//dd/span[normalize-space()="completed"]`)))
	var d struct {
		Execution struct {
			Status string
			Result json.RawMessage
		}
	}
	f.admin(t, devAdmin, "GET", "/async-executions/"+cid, nil, 200, &d)
	if d.Execution.Status != "completed" || !strings.Contains(string(d.Execution.Result), "from the console") {
		t.Errorf("after reprocess: %s %s", d.Execution.Status, d.Execution.Result)
	}

	run(t, ctx, "reopen", chromedp.Click(chromedp.Search(byText("button", "Reopen"))), confirm("Reopen"),
		chromedp.WaitVisible(chromedp.Search(`//section[@aria-labelledby="execution"]//dd/span[normalize-space()="waiting_callback"]`)))
	run(t, ctx, "fail by hand",
		fillLabel("Failure reason", "the backend lost it"),
		chromedp.Click(chromedp.Search(byText("button", "Fail"))), confirm("Fail"),
		chromedp.WaitVisible(chromedp.Search(`//section[@aria-labelledby="execution"]//dd/span[normalize-space()="failed"]`)))
	run(t, ctx, "complete by hand",
		fillLabel("Final result (JSON)", `{"values":{"text":"by hand"}}`),
		chromedp.Click(chromedp.Search(byText("button", "Complete"))), confirm("Complete"),
		chromedp.WaitVisible(chromedp.Search(`//section[@aria-labelledby="execution"]//dd/span[normalize-space()="completed"]`)))
	if s := status(); s != "completed" {
		t.Errorf("final status = %s", s)
	}
}
