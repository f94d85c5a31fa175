package admin

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

func TestSettingsValidation(t *testing.T) {
	api := newTestAPI(t, storetest.SQLite(t))
	tests := []struct {
		name      string
		body      string
		status    int
		code      string
		field     string // "" means details.field must be absent
		wantIndex float64
	}{
		{name: "malformed", body: `{"default_timeout_ms":`, status: 400, code: apierr.ValBadRequest, field: "default_timeout_ms"},
		{name: "not json", body: `hello`, status: 400, code: apierr.ValBadRequest},
		{name: "array body", body: `[1]`, status: 400, code: apierr.ValBadRequest},
		{name: "trailing data", body: `{} {}`, status: 400, code: apierr.ValBadRequest},
		{name: "duplicate name", body: `{"smtp_port":25,"smtp_port":26}`, status: 400, code: apierr.ValBadRequest, field: "smtp_port"},
		{name: "unknown setting", body: `{"default_timeout":5}`, status: 400, code: apierr.ValBadRequest, field: "default_timeout"},
		{name: "camel case name", body: `{"defaultTimeoutMs":5}`, status: 400, code: apierr.ValBadRequest, field: "defaultTimeoutMs"},
		{name: "string for integer", body: `{"default_timeout_ms":"5"}`, status: 400, code: apierr.ValBadRequest, field: "default_timeout_ms"},
		{name: "fraction", body: `{"default_retry_count":1.5}`, status: 400, code: apierr.ValBadRequest, field: "default_retry_count"},
		{name: "negative retries", body: `{"default_retry_count":-1}`, status: 400, code: apierr.ValBadRequest, field: "default_retry_count"},
		{name: "zero timeout", body: `{"default_timeout_ms":0}`, status: 400, code: apierr.ValBadRequest, field: "default_timeout_ms"},
		{name: "huge payload", body: `{"max_payload_mb":5000}`, status: 400, code: apierr.ValBadRequest, field: "max_payload_mb"},
		{name: "stale minutes zero", body: `{"dashboard_freshness_stale_minutes":0}`, status: 400, code: apierr.ValBadRequest, field: "dashboard_freshness_stale_minutes"},
		{name: "ttl too short", body: `{"async_callback_ttl_seconds":10}`, status: 400, code: apierr.ValBadRequest, field: "async_callback_ttl_seconds"},
		{name: "null integer", body: `{"smtp_port":null}`, status: 400, code: apierr.ValBadRequest, field: "smtp_port"},
		{name: "string boolean", body: `{"alerts_enabled":"true"}`, status: 400, code: apierr.ValBadRequest, field: "alerts_enabled"},
		{name: "bad trusted proxy", body: `{"gateway_trusted_proxies":["10.0.0.0/8","10.0.0.300/32"]}`, status: 400, code: apierr.ValBadRequest, field: "gateway_trusted_proxies", wantIndex: 1},
		{name: "ip without prefix", body: `{"outbound_allowed_cidrs":["127.0.0.1"]}`, status: 400, code: apierr.ValBadRequest, field: "outbound_allowed_cidrs", wantIndex: 0},
		{name: "denied not a list", body: `{"outbound_denied_cidrs":"10.0.0.0/8"}`, status: 400, code: apierr.ValBadRequest, field: "outbound_denied_cidrs"},
		{name: "bad recipient", body: `{"alert_recipients":["ops@example.com","not an address"]}`, status: 400, code: apierr.ValBadRequest, field: "alert_recipients", wantIndex: 1},
		{name: "bad tls mode", body: `{"smtp_tls_mode":"ssl"}`, status: 400, code: apierr.ValBadRequest, field: "smtp_tls_mode"},
		{name: "port out of range", body: `{"smtp_port":70000}`, status: 400, code: apierr.ValBadRequest, field: "smtp_port"},
		{name: "empty password", body: `{"smtp_password":""}`, status: 400, code: apierr.ValBadRequest, field: "smtp_password"},
		{name: "alerts without smtp", body: `{"alerts_enabled":true}`, status: 400, code: apierr.ValBadRequest, field: "alerts_enabled"},
		{name: "too large", body: `{"smtp_host":"` + strings.Repeat("a", adminapi.MaxBodyBytes) + `"}`, status: 413, code: apierr.AdmPayloadTooLarge},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := api.Do("PATCH", "/admin/v1/settings", adminEmail, tc.body)
			r.WantStatus(t, tc.status)
			e := r.ErrorOf(t).Error
			if e.Code != tc.code {
				t.Errorf("code = %s, want %s", e.Code, tc.code)
			}
			field, hasField := e.Details["field"]
			if tc.field == "" && hasField {
				t.Errorf("details.field = %v, want none", field)
			}
			if tc.field != "" && field != tc.field {
				t.Errorf("details.field = %v, want %s (message %q)", field, tc.field, e.Message)
			}
			if idx, ok := e.Details["index"]; (tc.wantIndex != 0 || ok) && idx != tc.wantIndex {
				t.Errorf("details.index = %v, want %v", idx, tc.wantIndex)
			}
		})
	}
	t.Run("too large carries maxPayloadMb", func(t *testing.T) {
		r := api.Do("PATCH", "/admin/v1/settings", adminEmail, `{"smtp_host":"`+strings.Repeat("a", adminapi.MaxBodyBytes)+`"}`)
		if got := r.ErrorOf(t).Error.Details["maxPayloadMb"]; got != float64(1) {
			t.Errorf("maxPayloadMb = %v, want 1", got)
		}
	})
	t.Run("not json content type", func(t *testing.T) {
		req, _ := http.NewRequest("PATCH", api.URL+"/admin/v1/settings", strings.NewReader(`{}`))
		req.Header.Set("Content-Type", "text/plain")
		req.Header.Set("X-Idp-Authenticated-User-Email", adminEmail)
		resp, err := api.HTTP.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnsupportedMediaType {
			t.Errorf("status = %d, want 415", resp.StatusCode)
		}
	})
	got := api.Do("GET", "/admin/v1/settings", readerEmail, "")
	var s model.Settings
	got.Decode(t, &s)
	if diff := cmp.Diff(model.DefaultSettings(), s); diff != "" {
		t.Errorf("rejected patches changed settings (-want +got):\n%s", diff)
	}
}

func TestSettingsPatchAppliesAndAudits(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		ctx := context.Background()
		rev0, _ := st.Revision(ctx)
		body := `{"default_timeout_ms":15000,"gateway_trusted_proxies":["10.0.0.0/8","fd00::/8"],"smtp_host":"mail.example.com",` +
			`"smtp_from":"s2r@example.com","alert_recipients":["ops@example.com"],"alerts_enabled":true}`
		r := api.Do("PATCH", "/admin/v1/settings", adminEmail, body).WantStatus(t, 200)
		want := model.DefaultSettings()
		want.DefaultTimeoutMs = 15000
		want.GatewayTrustedProxies = []string{"10.0.0.0/8", "fd00::/8"}
		want.SMTPHost = "mail.example.com"
		want.SMTPFrom = "s2r@example.com"
		want.AlertRecipients = []string{"ops@example.com"}
		want.AlertsEnabled = true
		var got model.Settings
		r.Decode(t, &got)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("PATCH answer (-want +got):\n%s", diff)
		}
		api.Do("GET", "/admin/v1/settings", readerEmail, "").WantStatus(t, 200).Decode(t, &got)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("GET after PATCH (-want +got):\n%s", diff)
		}
		if rev, _ := st.Revision(ctx); rev != rev0+1 {
			t.Errorf("revision = %d, want %d", rev, rev0+1)
		}
		// A later patch validates against the merged state: turning off
		// alerts and clearing the host together is fine.
		api.Do("PATCH", "/admin/v1/settings", adminEmail, `{"alerts_enabled":false,"smtp_host":""}`).WantStatus(t, 200)

		var page model.ObservabilityPageRecord[model.AuditEvent]
		api.Do("GET", "/admin/v1/audit-events?actionType=settings.update", readerEmail, "").WantStatus(t, 200).Decode(t, &page)
		if page.TotalItems != 2 {
			t.Fatalf("settings.update events = %d, want 2", page.TotalItems)
		}
		e := page.Items[1]
		if e.ActorEmail != adminEmail || e.ActorRole != model.RoleAdmin || e.Result != model.AuditSuccess || e.EntityType != "settings" || e.CorrelationID == "" {
			t.Errorf("event = %+v", e)
		}
		wantBefore := `{"alert_recipients":[],"alerts_enabled":false,"default_timeout_ms":30000,"gateway_trusted_proxies":[],"smtp_from":"","smtp_host":""}`
		if string(e.BeforeState) != wantBefore {
			t.Errorf("beforeState = %s, want %s", e.BeforeState, wantBefore)
		}
	})
}

func TestSMTPPasswordNeverExposed(t *testing.T) {
	const password = "S3cret-Pa55word-XYZ"
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		ctx := context.Background()
		var bodies []string
		record := func(r response) response { bodies = append(bodies, string(r.Body)); return r }

		r := record(api.Do("PATCH", "/admin/v1/settings", adminEmail, `{"smtp_password":"`+password+`","smtp_username":"mailer"}`)).WantStatus(t, 200)
		var s model.Settings
		r.Decode(t, &s)
		if !s.SMTPPassword.Set || s.SMTPPassword.LastUpdatedBy != adminEmail || s.SMTPPassword.LastUpdatedAt == nil {
			t.Errorf("metadata after set = %+v", s.SMTPPassword)
		}
		var meta map[string]json.RawMessage
		var raw map[string]json.RawMessage
		r.Decode(t, &raw)
		if err := json.Unmarshal(raw["smtp_password"], &meta); err != nil || len(meta) != 3 {
			t.Errorf("smtp_password = %s, want exactly the metadata envelope", raw["smtp_password"])
		}
		// A refused patch that carries the password must not echo it.
		record(api.Do("PATCH", "/admin/v1/settings", adminEmail, `{"smtp_password":"`+password+`","smtp_port":"x"}`)).WantStatus(t, 400)
		record(api.Do("PATCH", "/admin/v1/settings", adminEmail, `{"smtp_password":["`+password+`"]}`)).WantStatus(t, 400)
		record(api.Do("GET", "/admin/v1/settings", readerEmail, "")).WantStatus(t, 200)
		record(api.Do("GET", "/admin/v1/audit-events", readerEmail, "")).WantStatus(t, 200)

		sealed, ok, err := st.SealedSetting(ctx, "smtp_password")
		if err != nil || !ok {
			t.Fatalf("sealed password not stored: %v", err)
		}
		if strings.Contains(sealed, password) {
			t.Error("password stored in plaintext")
		}
		plain, err := api.box.Open(sealed, settingAAD("smtp_password"))
		if err != nil || string(plain) != password {
			t.Errorf("stored password opens to %q, %v", plain, err)
		}
		if _, err := api.box.Open(sealed, settingAAD("other_password")); err == nil {
			t.Error("sealed password opens under another setting's aad")
		}

		record(api.Do("PATCH", "/admin/v1/settings", adminEmail, `{"smtp_password":null}`)).WantStatus(t, 200).Decode(t, &s)
		if s.SMTPPassword.Set {
			t.Error("password still set after null")
		}
		var page model.ObservabilityPageRecord[model.AuditEvent]
		record(api.Do("GET", "/admin/v1/audit-events?actionType=settings.update&result=success", readerEmail, "")).Decode(t, &page)
		if len(page.Items) != 2 || !strings.Contains(string(page.Items[1].AfterState), `"set":true`) ||
			!strings.Contains(string(page.Items[0].AfterState), `"set":false`) {
			t.Errorf("audit states do not carry the metadata envelope: %+v", page.Items)
		}
		for i, b := range bodies {
			if strings.Contains(b, password) {
				t.Errorf("response %d contains the password: %s", i, b)
			}
		}
		if strings.Contains(api.logs.String(), password) {
			t.Errorf("logs contain the password:\n%s", api.logs.String())
		}
	})
}

// TestSettingsPatchAtomic interrupts a PATCH after each of its writes, as
// a killed process would: the settings, the audit log and the revision
// must stay entirely as they were.
func TestSettingsPatchAtomic(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		ctx := context.Background()
		api.Do("PATCH", "/admin/v1/settings", adminEmail, `{"max_payload_mb":20,"smtp_port":2525}`).WantStatus(t, 200)
		before, _ := st.Settings(ctx)
		rev, _ := st.Revision(ctx)
		events, _ := st.AuditEvents(ctx, model.AuditFilter{Result: model.AuditSuccess, Page: model.PageRequest{Page: 1, PageSize: 50}})
		body := `{"max_payload_mb":30,"smtp_port":25,"smtp_password":"pw","default_retention_days":90}`
		for crashAfter := 1; crashAfter <= 4; crashAfter++ {
			writes := 0
			api.srv.afterSettingWrite = func(string) error {
				writes++
				if writes == crashAfter {
					return errors.New("simulated crash")
				}
				return nil
			}
			api.Do("PATCH", "/admin/v1/settings", adminEmail, body).WantStatus(t, http.StatusInternalServerError)
			after, _ := st.Settings(ctx)
			if diff := cmp.Diff(before, after); diff != "" {
				t.Errorf("crash after write %d left a mix (-old +now):\n%s", crashAfter, diff)
			}
			if got, _ := st.Revision(ctx); got != rev {
				t.Errorf("crash after write %d: revision %d, want %d", crashAfter, got, rev)
			}
			got, _ := st.AuditEvents(ctx, model.AuditFilter{Result: model.AuditSuccess, Page: model.PageRequest{Page: 1, PageSize: 50}})
			if got.TotalItems != events.TotalItems {
				t.Errorf("crash after write %d: %d success events, want %d", crashAfter, got.TotalItems, events.TotalItems)
			}
		}
		api.srv.afterSettingWrite = nil
		api.Do("PATCH", "/admin/v1/settings", adminEmail, body).WantStatus(t, 200)
		failures, _ := st.AuditEvents(ctx, model.AuditFilter{Result: model.AuditFailure, ActionType: "settings.update", Page: model.PageRequest{Page: 1, PageSize: 50}})
		if failures.TotalItems != 4 {
			t.Errorf("failure events = %d, want 4", failures.TotalItems)
		}
	})
}
