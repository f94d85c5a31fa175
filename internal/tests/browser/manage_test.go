package browser

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// fill sets the value of the control matching a CSS selector as typing
// does, firing the event the console listens to (input; change for a
// select).
func fill(sel, val string) chromedp.Action[chromedp.Void] {
	js := fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e) throw new Error('no element ' + %q);
		const proto = e.tagName === 'TEXTAREA' ? HTMLTextAreaElement.prototype : e.tagName === 'SELECT' ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
		Object.getOwnPropertyDescriptor(proto, 'value').set.call(e, %q);
		e.dispatchEvent(new Event(e.tagName === 'SELECT' ? 'change' : 'input', { bubbles: true })); return true; })()`, sel, sel, val)
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Evaluate[bool](js)(ctx, t)
		return err
	})
}

// fillLabel sets the control a label names.
func fillLabel(label, val string) chromedp.Action[chromedp.Void] {
	js := fmt.Sprintf(`(() => { const l = document.evaluate('//label[normalize-space()=%q]', document, null, 9, null).singleNodeValue;
		if (!l) throw new Error('no label ' + %q); return '#' + CSS.escape(l.htmlFor); })()`, label, label)
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		sel, err := chromedp.Evaluate[string](js)(ctx, t)
		if err != nil {
			return err
		}
		_, err = fill(sel, val)(ctx, t)
		return err
	})
}

// TestServiceManagement edits a service through its page: a new draft, an
// operation's timeout, a mapping the server refuses (its problems shown),
// a transform rule, activation through a confirmation dialog, a backend
// profile with a password that is never shown back, and a setting.
func TestServiceManagement(t *testing.T) {
	f := setup(t)
	id := onboardByAPI(t, f, "manage-echo")
	ctx := f.tab(t, "")
	page := f.base + "/console/services/" + id

	run(t, ctx, "new draft",
		chromedp.Navigate(page+"?tab=versions"),
		chromedp.Click(chromedp.Search(byText("button", "New draft"))),
		chromedp.WaitVisible(chromedp.Search(byText("button", "Activate"))))

	run(t, ctx, "edit the draft's operation",
		chromedp.Navigate(page+"?tab=operations"),
		chromedp.Click(chromedp.Search(byText("button", "echo"))),
		chromedp.WaitVisible(chromedp.Search(byText("button", "Save operation"))),
		fillLabel("Timeout (ms)", "1500"),
		fillLabel("Response validation", "detect"),
		chromedp.Click(chromedp.Search(byText("button", "Save operation"))),
		chromedp.WaitVisible(chromedp.Search(`//*[@role="status" and contains(., "Operation echo saved")]`)),
		chromedp.WaitVisible(chromedp.Search(`//section[@aria-labelledby="op-violations"]//*[contains(., "No recorded violation.")]`)))

	run(t, ctx, "a mapping naming an unknown field",
		fillLabel("Request mapping", `{"mode":"identity","rename":{"nope":"x"}}`),
		chromedp.Click(chromedp.Search(byText("button", "Validate and save mapping"))),
		chromedp.WaitVisible(chromedp.CSS(`ul[aria-label="Mapping problems"]`)))
	if got := textOf(t, ctx, `section[aria-labelledby="op-mapping"] .error-box`); !strings.Contains(got, "S2R-VAL-0400") || !strings.Contains(got, "nope") {
		t.Errorf("mapping error = %q", got)
	}

	run(t, ctx, "a transform rule",
		chromedp.Click(chromedp.Search(`//section[@aria-labelledby="op-transform"]//button[normalize-space()="Add rule"]`)),
		fill(`input[aria-label="Field, rule 1"]`, "/values/text"),
		fill(`select[aria-label="Kind, rule 1"]`, "uppercase"),
		chromedp.Click(chromedp.Search(byText("button", "Validate and save transform rules"))),
		chromedp.WaitVisible(chromedp.Search(`//*[@role="status" and contains(., "Transform rules saved")]`)))

	run(t, ctx, "activate through the dialog",
		chromedp.Navigate(page+"?tab=versions"),
		chromedp.Click(chromedp.Search(byText("button", "Activate"))),
		chromedp.WaitVisible(chromedp.CSS(`dialog[open]`)),
		chromedp.Click(chromedp.Search(`//dialog//button[normalize-space()="Activate"]`)),
		chromedp.WaitNotPresent(chromedp.CSS(`dialog[open]`)),
		chromedp.WaitNotPresent(chromedp.Search(byText("button", "Activate"))))
	var svc struct{ ActiveVersionID string }
	f.admin(t, devAdmin, "GET", "/services/"+id, nil, 200, &svc)
	var ops struct {
		Items []struct {
			OperationKey       string
			TimeoutMs          *int
			ResponseValidation string
			TransformRules     []struct{ Field, Kind string }
		}
	}
	f.admin(t, devAdmin, "GET", "/services/"+id+"/versions/"+svc.ActiveVersionID+"/operations", nil, 200, &ops)
	if o := ops.Items[0]; o.TimeoutMs == nil || *o.TimeoutMs != 1500 || len(o.TransformRules) != 1 || o.TransformRules[0].Kind != "uppercase" ||
		o.ResponseValidation != "detect" {
		t.Errorf("active operation = %+v, want timeout 1500, one uppercase rule and detect", o)
	}

	run(t, ctx, "a backend profile with basic auth",
		chromedp.Navigate(page+"?tab=backends"),
		chromedp.Click(chromedp.Search(byText("button", "Add backend profile"))),
		chromedp.WaitVisible(chromedp.CSS(`#profile-form`)),
		fillLabel("Name", "secondary"),
		fillLabel("Endpoint URL", "http://10.9.9.9/echo"),
		fillLabel("Auth type", "basic"),
		fillLabel("Username", "svc"),
		fillLabel("Password (write-only)", "s3cret-value"),
		chromedp.Click(chromedp.Search(byText("button", "Create profile"))),
		chromedp.WaitVisible(chromedp.Search(`//td[contains(., "secondary")]`)),
		chromedp.Click(chromedp.Search(`//tr[contains(., "secondary")]//button[normalize-space()="Edit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`input[type=password]`)))
	if got := value(t, ctx, "password field", chromedp.Value(chromedp.CSS(`input[type=password]`))); got != "" {
		t.Errorf("the password field shows %q", got)
	}
	if html := value(t, ctx, "page", chromedp.OuterHTML(chromedp.CSS("html"))); strings.Contains(html, "s3cret-value") || !strings.Contains(html, "Currently set") {
		t.Errorf("the page shows the password or not its state")
	}

	run(t, ctx, "a callback secret, write-only",
		chromedp.Navigate(page),
		chromedp.WaitVisible(chromedp.Search(byText("button", "Save settings"))),
		fillLabel("Callback authentication", "shared_secret"),
		fillLabel("Callback secret (write-only)", "cb-secret-value"),
		chromedp.Click(chromedp.Search(byText("button", "Save settings"))),
		chromedp.WaitVisible(chromedp.Search(`//*[@role="status" and contains(., "Service saved")]`)))
	var cb struct {
		CallbackAuthMode string
		CallbackSecret   struct{ Set bool }
	}
	f.admin(t, devAdmin, "GET", "/services/"+id, nil, 200, &cb)
	if cb.CallbackAuthMode != "shared_secret" || !cb.CallbackSecret.Set {
		t.Errorf("service after saving the callback secret: %+v", cb)
	}
	if html := value(t, ctx, "page", chromedp.OuterHTML(chromedp.CSS("html"))); strings.Contains(html, "cb-secret-value") {
		t.Error("the page shows the callback secret")
	}

	run(t, ctx, "change a setting",
		chromedp.Navigate(f.base+"/console/settings"),
		chromedp.WaitVisible(chromedp.Search(byText("label", "default_timeout_ms"))),
		fillLabel("default_timeout_ms", "25000"),
		chromedp.Click(chromedp.Search(byText("button", "Save changed settings"))),
		chromedp.WaitVisible(chromedp.Search(`//*[@role="status" and contains(., "Saved default_timeout_ms")]`)))
	var settings struct {
		DefaultTimeoutMs int `json:"default_timeout_ms"`
	}
	f.admin(t, devAdmin, "GET", "/settings", nil, 200, &settings)
	if settings.DefaultTimeoutMs != 25000 {
		t.Errorf("default_timeout_ms = %d after saving 25000", settings.DefaultTimeoutMs)
	}

	run(t, ctx, "a test mail without SMTP settings",
		chromedp.Navigate(f.base+"/console/settings?tab=mail"),
		chromedp.Click(chromedp.Search(byText("button", "Send a test mail"))),
		chromedp.WaitVisible(chromedp.CSS(`.error-box`)))
	if got := textOf(t, ctx, ".error-box"); !strings.Contains(got, "S2R-VAL-0400") || !strings.Contains(got, "smtp_") {
		t.Errorf("test mail error = %q, want S2R-VAL-0400 naming the missing SMTP setting", got)
	}
}

// TestBatchImport imports two WSDL files at once and shows each result.
func TestBatchImport(t *testing.T) {
	f := setup(t)
	ctx := f.tab(t, "")
	run(t, ctx, "batch import",
		chromedp.Navigate(f.base+"/console/onboard?source=batch"),
		chromedp.SetUploadFiles(chromedp.CSS(`input[type=file]`), []string{repoFile("test/interop/wsdl/echo12.wsdl"), repoFile("internal/dataplane/testdata/calc.wsdl")}),
		fill(`input[name=environment]`, "batch"),
		chromedp.Click(chromedp.Search(byText("button", "Import 2 files"))),
		chromedp.WaitVisible(chromedp.Search(`//p[@role="status" and contains(., "2 of 2 files imported")]`)))
	got := textOf(t, ctx, "main table")
	for _, want := range []string{"echo12.wsdl", "calc.wsdl", "succeeded"} {
		if !strings.Contains(got, want) {
			t.Errorf("batch results lack %q: %s", want, got)
		}
	}
}
