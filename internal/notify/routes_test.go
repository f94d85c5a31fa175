package notify

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/notify/smtptest"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// errorCode returns the S2R code of an error body.
func errorCode(t *testing.T, body []byte) (string, map[string]any) {
	t.Helper()
	var e struct {
		Error struct {
			Code    string         `json:"code"`
			Details map[string]any `json:"details"`
		} `json:"error"`
	}
	if err := json.Unmarshal(body, &e); err != nil {
		t.Fatalf("error body %s: %v", body, err)
	}
	return e.Error.Code, e.Error.Details
}

// TestRoutesGuarded: through the real admin handler, every route of the
// package answers 401 without identity and 403 below its role.
func TestRoutesGuarded(t *testing.T) {
	h := newHarness(t, storetest.SQLite(t), smtptest.Options{}, nil)
	below := map[model.Role][]string{
		model.RoleReader: {nobodyEmail},
		model.RoleAdmin:  {nobodyEmail, readerEmail, operatorEmail},
	}
	for _, rt := range h.notifier.Routes() {
		t.Run(rt.Method+" "+rt.Path, func(t *testing.T) {
			path := "/admin/v1" + rt.Path
			status, body := h.do(rt.Method, path, "", "{}")
			if code, _ := errorCode(t, body); status != http.StatusUnauthorized || code != apierr.AdmUnauthenticated {
				t.Errorf("anonymous: %d %s", status, code)
			}
			for _, email := range below[rt.Role] {
				status, body := h.do(rt.Method, path, email, "{}")
				if code, _ := errorCode(t, body); status != http.StatusForbidden || code != apierr.AdmForbidden {
					t.Errorf("%s: %d %s", email, status, code)
				}
			}
		})
	}
	if n := len(h.smtp.Messages()); n != 0 {
		t.Errorf("a refused call sent %d mails", n)
	}
}

// TestHistoryRoute: paged, newest first, 400 on a bad page, and a caller
// sees only its tenant's attempts.
func TestHistoryRoute(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		h := newHarness(t, st, smtptest.Options{Username: smtpUser, Password: smtpPassword}, nil)
		acme := failing(2)
		acme.TenantID, acme.ServiceURI = "acme", "/acme/quotes"
		h.figures.set(failing(1), acme)
		if rep := h.evaluate(); rep.Sent != 2 {
			t.Fatalf("report %+v", rep)
		}
		h.clock.advance(2 * time.Hour)
		h.figures.set(healthy(1), acme)
		h.evaluate()

		page := h.history(readerEmail)
		if page.TotalItems != 2 || page.Items[0].Kind != model.AlertMailRecovery || page.Items[1].Kind != model.AlertMailTrigger {
			t.Errorf("default tenant history: %+v", page.Items)
		}
		acmePage := h.history(acmeEmail)
		if acmePage.TotalItems != 1 || acmePage.Items[0].ServiceURI != "/acme/quotes" {
			t.Errorf("acme history: %+v", acmePage.Items)
		}
		status, body := h.do("GET", "/admin/v1/settings/alert-mail-history?page=2&pageSize=1", readerEmail, "")
		var p2 model.ObservabilityPageRecord[model.AlertMail]
		if err := json.Unmarshal(body, &p2); err != nil || status != 200 || len(p2.Items) != 1 ||
			p2.Items[0].Kind != model.AlertMailTrigger || p2.TotalPages != 2 {
			t.Errorf("page 2: %d %s", status, body)
		}
		for _, q := range []string{"pageSize=500", "page=0", "pageSize=x"} {
			status, body := h.do("GET", "/admin/v1/settings/alert-mail-history?"+q, readerEmail, "")
			if code, _ := errorCode(t, body); status != 400 || code != apierr.ValBadRequest {
				t.Errorf("%s: %d %s", q, status, code)
			}
		}
		// The history never holds the mail body or a credential.
		if strings.Contains(string(body), smtpPassword) {
			t.Error("password in the history")
		}
	})
}

// TestTestMailRoute: an admin sends a test mail (alerts_enabled need not
// be on); it is delivered, recorded in the history and audited. A relay
// that refuses is 200 with status failed; a missing setting is 400 naming
// it and is audited as refused.
func TestTestMailRoute(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		h := newHarness(t, st, smtptest.Options{Username: smtpUser, Password: smtpPassword},
			map[string]any{"alerts_enabled": false})
		for _, body := range []string{"", "{}"} {
			status, resp := h.do("POST", "/admin/v1/settings:test-alert-mail", rootEmail, body)
			if status != http.StatusOK {
				t.Fatalf("body %q: %d %s", body, status, resp)
			}
			var item model.AlertMail
			if err := json.Unmarshal(resp, &item); err != nil {
				t.Fatal(err)
			}
			if item.Status != model.AlertMailSent || item.Kind != model.AlertMailTest || item.ActorEmail != rootEmail ||
				item.MailID == "" || item.RowID != nil || len(item.Recipients) != 2 {
				t.Errorf("item = %+v", item)
			}
		}
		msg := h.smtp.WaitMessages(t, 2)[0]
		if msg.Subject != "[s2r] Test alert mail" || !strings.Contains(msg.Text, "sent by "+rootEmail) ||
			!strings.Contains(msg.Text, "https://s2r.example.com/console/settings") || !msg.TLS {
			t.Errorf("test mail: %q\n%s", msg.Subject, msg.Text)
		}
		if page := h.history(readerEmail); page.TotalItems != 2 || page.Items[0].Kind != model.AlertMailTest {
			t.Errorf("history = %+v", page.Items)
		}
		status, body := h.do("POST", "/admin/v1/settings:test-alert-mail", rootEmail, `{"to":"x@example.com"}`)
		if code, d := errorCode(t, body); status != 400 || code != apierr.ValBadRequest || d["field"] != "to" {
			t.Errorf("unknown member: %d %s %v", status, code, d)
		}

		// Wrong password: 200, failed, redacted.
		h.patchSettings(map[string]any{"smtp_password": "wrong-" + smtpPassword})
		status, body = h.do("POST", "/admin/v1/settings:test-alert-mail", rootEmail, "")
		var failed model.AlertMail
		if err := json.Unmarshal(body, &failed); err != nil || status != 200 || failed.Status != model.AlertMailFailed ||
			!strings.Contains(failed.Error, "535") {
			t.Errorf("refused auth: %d %s", status, body)
		}
		checkNoSecret(t, "response", string(body))

		// Missing host: 400 naming it.
		h.patchSettings(map[string]any{"smtp_host": ""})
		status, body = h.do("POST", "/admin/v1/settings:test-alert-mail", rootEmail, "")
		if code, d := errorCode(t, body); status != 400 || code != apierr.ValBadRequest || d["field"] != "smtp_host" {
			t.Errorf("missing host: %d %s %v", status, code, d)
		}

		events, err := st.AuditEvents(context.Background(), model.AuditFilter{ActionType: actionTestMail,
			Page: model.PageRequest{Page: 1, PageSize: 50}})
		if err != nil {
			t.Fatal(err)
		}
		var results []string
		for _, e := range events.Items {
			results = append(results, e.Result)
			checkNoSecret(t, "audit event", string(e.AfterState)+e.Message)
			if e.ActorEmail != rootEmail {
				t.Errorf("audit actor = %s", e.ActorEmail)
			}
		}
		// Newest first: missing host (refused), wrong password, unknown
		// member (refused), two sent.
		want := []string{model.AuditFailure, model.AuditSuccess, model.AuditFailure, model.AuditSuccess, model.AuditSuccess}
		if strings.Join(results, ",") != strings.Join(want, ",") {
			t.Errorf("audit results = %v, want %v", results, want)
		}
	})
}

// TestRoutesDocumented: the admin OpenAPI document describes the routes
// of this package (admin's golden test covers only admin's own routes).
func TestRoutesDocumented(t *testing.T) {
	h := newHarness(t, storetest.SQLite(t), smtptest.Options{}, nil)
	status, body := h.do("GET", "/admin/v1/openapi.json", readerEmail, "")
	if status != 200 {
		t.Fatalf("openapi.json: %d", status)
	}
	doc, err := openapi3.NewLoader().LoadFromData(body)
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("validate: %v", err)
	}
	for _, rt := range h.notifier.Routes() {
		item := doc.Paths.Value(rt.Path)
		if item == nil || item.GetOperation(rt.Method) == nil {
			t.Errorf("%s %s is not documented", rt.Method, rt.Path)
			continue
		}
		op := item.GetOperation(rt.Method)
		if op.Summary == "" || op.Responses.Status(200) == nil || op.Responses.Status(403) == nil {
			t.Errorf("%s %s: summary %q, responses %v", rt.Method, rt.Path, op.Summary, op.Responses.Map())
		}
	}
	for _, field := range []string{"alert_evaluation_interval_seconds", "alert_cooldown_minutes"} {
		if !strings.Contains(string(body), `"`+field+`"`) {
			t.Errorf("setting %s is not documented", field)
		}
	}
}
