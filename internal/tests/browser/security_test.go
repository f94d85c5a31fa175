package browser

import (
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/s2r-project/s2r/internal/tests/loopback"
)

// check clicks the checkbox a label wraps.
func check(label string) chromedp.Action[chromedp.Void] {
	return chromedp.Click(chromedp.Search(`//label[normalize-space()="` + label + `"]/input`))
}

// TestProfileWSSecurityAndProtection edits a backend profile's outbound
// WS-Security, WS-Addressing and protection through its form and reads
// them back through the API; the password is saved and never shown.
func TestProfileWSSecurityAndProtection(t *testing.T) {
	f := setup(t)
	id := onboardByAPI(t, f, "wss-echo")
	echo := echoBackend(t)
	var list []struct{ ProfileID string }
	f.admin(t, devAdmin, "GET", "/services/"+id+"/backend-profiles", nil, 200, &list)
	f.admin(t, devAdmin, "PATCH", "/backend-profiles/"+list[0].ProfileID, map[string]any{"endpointUrl": echo.URL}, 200, nil)
	ctx := f.tab(t, "")
	run(t, ctx, "edit the profile's WS-Security and protection",
		chromedp.Navigate(f.base+"/console/services/"+id+"?tab=backends"),
		chromedp.Click(chromedp.Search(`//tr//button[normalize-space()="Edit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#profile-form`)),
		check("Add a WS-Security header to every call"),
		check("WS-Addressing headers (Action, MessageID, To)"),
		chromedp.WaitVisible(chromedp.Search(`//label[normalize-space()="Username token"]`)),
		check("Username token"),
		chromedp.WaitVisible(chromedp.Search(`//label[normalize-space()="Password type"]`)),
		fillLabel("Username", "svc-user"),
		fillLabel("Password type", "PasswordDigest"),
		fillLabel("WS-Security password (write-only)", "wss-s3cret"),
		check("Timestamp"),
		chromedp.WaitVisible(chromedp.Search(`//label[normalize-space()="Timestamp lifetime (s)"]`)),
		fillLabel("Timestamp lifetime (s)", "120"),
		fillLabel("Max concurrent requests", "4"),
		fillLabel("Max requests per second", "2.5"),
		fillLabel("Queue timeout (ms)", "250"),
		chromedp.Click(chromedp.Search(byText("button", "Save profile"))),
		chromedp.WaitVisible(chromedp.Search(`//*[@role="status" and contains(., "Backend profile saved")]`)))
	var profiles []struct {
		WSSecurity *struct {
			MustUnderstand bool
			UsernameToken  *struct{ Username, PasswordType string }
			Timestamp      *struct{ TTLSeconds int }
		}
		WSAddressing          bool
		MaxConcurrentRequests *int
		MaxRequestsPerSecond  *float64
		QueueTimeoutMs        int
		Credentials           map[string]struct{ Set bool }
	}
	f.admin(t, devAdmin, "GET", "/services/"+id+"/backend-profiles", nil, 200, &profiles)
	p := profiles[0]
	if w := p.WSSecurity; w == nil || w.UsernameToken == nil || w.UsernameToken.Username != "svc-user" || w.UsernameToken.PasswordType != "PasswordDigest" ||
		w.Timestamp == nil || w.Timestamp.TTLSeconds != 120 || !w.MustUnderstand {
		t.Errorf("wsSecurity = %+v", w)
	}
	if !p.WSAddressing || p.MaxConcurrentRequests == nil || *p.MaxConcurrentRequests != 4 || p.MaxRequestsPerSecond == nil ||
		*p.MaxRequestsPerSecond != 2.5 || p.QueueTimeoutMs != 250 || !p.Credentials["wssPassword"].Set {
		t.Errorf("profile = %+v", p)
	}
	run(t, ctx, "test the connection: the WS-Security step is explained",
		chromedp.Click(chromedp.Search(`//tr//button[normalize-space()="Test connection"]`)),
		chromedp.WaitVisible(chromedp.CSS(`.wss-explanation`)))
	if got := textOf(t, ctx, `.wss-explanation`); !strings.Contains(got, "accepted the WS-Security header") {
		t.Errorf("WS-Security step = %q", got)
	}
	run(t, ctx, "open the form again",
		chromedp.Navigate(f.base+"/console/services/"+id+"?tab=backends"),
		chromedp.Click(chromedp.Search(`//tr//button[normalize-space()="Edit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`section[aria-labelledby="profile-form"] input[type=password]`)))
	if html := value(t, ctx, "page", chromedp.OuterHTML(chromedp.CSS("html"))); strings.Contains(html, "wss-s3cret") || !strings.Contains(html, "Currently set") {
		t.Errorf("the page shows the WS-Security password or not its state")
	}
	run(t, ctx, "a refused timestamp lifetime is shown at its field",
		fillLabel("Timestamp lifetime (s)", "-5"),
		chromedp.Click(chromedp.Search(byText("button", "Save profile"))),
		chromedp.WaitVisible(chromedp.CSS(`section[aria-labelledby="profile-form"] .field-error`)))
	if got := textOf(t, ctx, `section[aria-labelledby="profile-form"] .field-error`); got == "" {
		t.Errorf("no field error shown")
	}
}

// TestInboundWSSecurityAndRateLimit sets a consume service's inbound
// policy (required, a username, a trusted certificate) and rate limit
// through its security tab, sees the policy as saved after a reload (the
// password only as set), and a refused value shown next to its field.
func TestInboundWSSecurityAndRateLimit(t *testing.T) {
	f := setup(t)
	wsdl, err := os.ReadFile(repoFile(echoWSDL))
	if err != nil {
		t.Fatal(err)
	}
	var res struct{ Service struct{ ServiceID string } }
	f.admin(t, devAdmin, "POST", "/wsdl/import-xml:autopilot", map[string]any{"xml": string(wsdl), "environment": "dev",
		"serviceKey": "inbound-echo", "direction": "consume", "backendUrl": "http://127.0.0.1:9/api"}, 201, &res)
	id := res.Service.ServiceID
	partner := loopback.NewRSAIdentity(t, "partner-b")
	ctx := f.tab(t, "")
	run(t, ctx, "an inbound policy with a username",
		chromedp.Navigate(f.base+"/console/services/"+id+"?tab=security"),
		chromedp.WaitVisible(chromedp.CSS(`form[aria-label="Inbound WS-Security"]`)),
		fillLabel("Mode", "required"),
		check("Require a timestamp"),
		fillLabel("Trusted certificates (PEM)", partner.CertPEM),
		chromedp.Click(chromedp.Search(byText("button", "Add a username"))),
		chromedp.WaitVisible(chromedp.Search(`//label[normalize-space()="Password (write-only)"]`)),
		fillLabel("Username", "partner-a"),
		fillLabel("Password (write-only)", "in-s3cret"),
		chromedp.Click(chromedp.Search(byText("button", "Save inbound WS-Security"))),
		chromedp.WaitVisible(chromedp.Search(`//*[@role="status" and contains(., "Inbound WS-Security saved")]`)))
	var policy struct {
		Mode             string
		RequireTimestamp bool
		UsernameTokens   []struct {
			Username string
			Password struct{ Set bool }
		}
		TrustedCertificatesPem []string
	}
	f.admin(t, devAdmin, "GET", "/services/"+id+"/inbound-ws-security", nil, 200, &policy)
	if policy.Mode != "required" || !policy.RequireTimestamp || len(policy.UsernameTokens) != 1 || policy.UsernameTokens[0].Username != "partner-a" || !policy.UsernameTokens[0].Password.Set ||
		len(policy.TrustedCertificatesPem) != 1 || strings.TrimSpace(policy.TrustedCertificatesPem[0]) != strings.TrimSpace(partner.CertPEM) {
		t.Errorf("policy = %+v", policy)
	}

	run(t, ctx, "the saved policy after a reload",
		chromedp.Reload(),
		chromedp.WaitVisible(chromedp.Search(`//label[normalize-space()="Password (write-only)"]`)))
	if got := labelValue(t, ctx, "Mode"); got != "required" {
		t.Errorf("Mode = %q after a reload", got)
	}
	if !isChecked(t, ctx, `//label[normalize-space()="Require a timestamp"]/input`) || isChecked(t, ctx, `//label[normalize-space()="Require a signature"]/input`) {
		t.Errorf("the required parts are not shown as saved")
	}
	if got := labelValue(t, ctx, "Trusted certificates (PEM)"); strings.TrimSpace(got) != strings.TrimSpace(partner.CertPEM) {
		t.Errorf("trusted certificates = %q", got)
	}
	hint, _ := labelNote(t, ctx, "Password (write-only)")
	if labelValue(t, ctx, "Username") != "partner-a" || labelValue(t, ctx, "Password (write-only)") != "" || !strings.Contains(hint, "Currently set") {
		t.Errorf("username token after a reload: %q, password %q, hint %q", labelValue(t, ctx, "Username"), labelValue(t, ctx, "Password (write-only)"), hint)
	}
	if html := value(t, ctx, "page", chromedp.OuterHTML(chromedp.CSS("html"))); strings.Contains(html, "in-s3cret") {
		t.Errorf("the page shows the inbound password")
	}

	run(t, ctx, "a rate limit per header",
		check("Limit each client"),
		chromedp.WaitVisible(chromedp.Search(`//label[normalize-space()="Client identified by"]`)),
		fillLabel("Client identified by", "header"),
		chromedp.WaitVisible(chromedp.Search(`//label[normalize-space()="Header name"]`)),
		fillLabel("Header name", "X-API-Key"),
		fillLabel("Requests per minute", "120"),
		fillLabel("Burst", "10"),
		chromedp.Click(chromedp.Search(byText("button", "Save rate limit"))),
		chromedp.WaitVisible(chromedp.Search(`//*[@role="status" and contains(., "Rate limit saved")]`)))
	var limit struct {
		ClientKey                string
		RequestsPerMinute, Burst int
	}
	f.admin(t, devAdmin, "GET", "/services/"+id+"/rate-limits", nil, 200, &limit)
	if limit.ClientKey != "header:X-API-Key" || limit.RequestsPerMinute != 120 || limit.Burst != 10 {
		t.Errorf("rate limit = %+v", limit)
	}

	run(t, ctx, "a refused rate is shown at its field",
		chromedp.Navigate(f.base+"/console/services/"+id+"?tab=security"),
		chromedp.WaitVisible(chromedp.Search(byText("button", "Save rate limit"))),
		fillLabel("Requests per minute", "0"),
		chromedp.Click(chromedp.Search(byText("button", "Save rate limit"))),
		chromedp.WaitVisible(chromedp.CSS(`form[aria-label="Rate limits"] .field-error`)))
	if got := textOf(t, ctx, `form[aria-label="Rate limits"] .field-error`); !strings.Contains(got, "between 1 and") {
		t.Errorf("field error = %q", got)
	}
}
