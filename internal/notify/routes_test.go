package notify

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/notify/smtptest"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// TestRoutesGuarded: through the real admin handler, every route of the
// package answers 401 without identity and 403 below its role.
func TestRoutesGuarded(t *testing.T) {
	h := newHarness(t, storetest.SQLite(t), smtptest.Options{}, nil)
	admintest.CheckGuarded(t, h.api, h.notifier.Routes(), admintest.Guard{Body: "{}"})
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
		r := h.api.Do("GET", "/admin/v1/settings/alert-mail-history?page=2&pageSize=1", readerEmail, "")
		var p2 model.ObservabilityPageRecord[model.AlertMail]
		if err := json.Unmarshal(r.Body, &p2); err != nil || r.Status != 200 || len(p2.Items) != 1 ||
			p2.Items[0].Kind != model.AlertMailTrigger || p2.TotalPages != 2 {
			t.Errorf("page 2: %d %s", r.Status, r.Body)
		}
		for _, q := range []string{"pageSize=500", "page=0", "pageSize=x"} {
			t.Run(q, func(t *testing.T) {
				h.api.Do("GET", "/admin/v1/settings/alert-mail-history?"+q, readerEmail, "").
					WantError(t, http.StatusBadRequest, apierr.ValBadRequest)
			})
		}
		// The history never holds the mail body or a credential.
		if strings.Contains(string(r.Body), smtpPassword) {
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
			var item model.AlertMail
			h.api.Do("POST", "/admin/v1/settings:test-alert-mail", rootEmail, body).WantStatus(t, http.StatusOK).Decode(t, &item)
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
		h.api.Do("POST", "/admin/v1/settings:test-alert-mail", rootEmail, `{"to":"x@example.com"}`).
			WantFieldError(t, http.StatusBadRequest, apierr.ValBadRequest, "to")

		// Wrong password: 200, failed, redacted.
		h.patchSettings(map[string]any{"smtp_password": "wrong-" + smtpPassword})
		r := h.api.Do("POST", "/admin/v1/settings:test-alert-mail", rootEmail, "")
		var failed model.AlertMail
		if err := json.Unmarshal(r.Body, &failed); err != nil || r.Status != 200 || failed.Status != model.AlertMailFailed ||
			!strings.Contains(failed.Error, "535") {
			t.Errorf("refused auth: %d %s", r.Status, r.Body)
		}
		checkNoSecret(t, "response", string(r.Body))

		// Missing host: 400 naming it.
		h.patchSettings(map[string]any{"smtp_host": ""})
		h.api.Do("POST", "/admin/v1/settings:test-alert-mail", rootEmail, "").
			WantFieldError(t, http.StatusBadRequest, apierr.ValBadRequest, "smtp_host")

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
	doc := admintest.CheckDocumented(t, h.api, h.notifier.Routes())
	for _, rt := range h.notifier.Routes() {
		if item := doc.Paths.Value(rt.Path); item != nil && item.GetOperation(rt.Method) != nil {
			if op := item.GetOperation(rt.Method); op.Responses.Status(200) == nil {
				t.Errorf("%s %s: responses %v", rt.Method, rt.Path, op.Responses.Map())
			}
		}
	}
	body := h.api.Do("GET", "/admin/v1/openapi.json", readerEmail, "").WantStatus(t, http.StatusOK).Body
	for _, field := range []string{"alert_evaluation_interval_seconds", "alert_cooldown_minutes"} {
		if !strings.Contains(string(body), `"`+field+`"`) {
			t.Errorf("setting %s is not documented", field)
		}
	}
}
