package model

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDefaultSettingsJSON(t *testing.T) {
	s := DefaultSettings()
	got, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"default_timeout_ms":30000,"default_retry_count":0,"default_retention_days":30,` +
		`"debug_payload_logging_enabled":false,"debug_max_payload_kb":64,` +
		`"debug_redact_names":["password","passwd","secret","token","apikey","api_key","authorization"],` +
		`"dashboard_freshness_stale_minutes":60,"aggregation_interval_seconds":60,` +
		`"max_payload_mb":10,"async_callback_ttl_seconds":86400,"gateway_trusted_proxies":[],` +
		`"outbound_allowed_cidrs":[],"outbound_denied_cidrs":[],"smtp_host":"","smtp_port":587,` +
		`"smtp_username":"","smtp_password":{"set":false},"smtp_from":"","smtp_tls_mode":"starttls",` +
		`"alert_recipients":[],"alerts_enabled":false,` +
		`"alert_evaluation_interval_seconds":60,"alert_cooldown_minutes":60}`
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("defaults JSON (-want +got):\n%s", diff)
	}
}

func TestSettingSpecsCoverEveryJSONField(t *testing.T) {
	raw, _ := json.Marshal(DefaultSettings())
	var fields map[string]any
	if err := json.Unmarshal(raw, &fields); err != nil {
		t.Fatal(err)
	}
	specs := SettingSpecs()
	if len(specs) != len(fields) {
		t.Errorf("%d specs for %d JSON fields", len(specs), len(fields))
	}
	s := DefaultSettings()
	for _, spec := range specs {
		if _, ok := fields[spec.Name]; !ok {
			t.Errorf("spec %s has no JSON field", spec.Name)
		}
		v, _ := json.Marshal(spec.Value(&s))
		f, _ := json.Marshal(fields[spec.Name])
		if string(v) != string(f) {
			t.Errorf("spec %s reads %s, JSON field holds %s", spec.Name, v, f)
		}
	}
}

func TestParseSettingsPatch(t *testing.T) {
	tests := []struct {
		name      string
		body      string
		wantField string
		wantIndex int
	}{
		{name: "unknown", body: `{"no_such":1}`, wantField: "no_such", wantIndex: -1},
		{name: "string for int", body: `{"default_timeout_ms":"30000"}`, wantField: "default_timeout_ms", wantIndex: -1},
		{name: "float for int", body: `{"default_retry_count":1.5}`, wantField: "default_retry_count", wantIndex: -1},
		{name: "below min", body: `{"default_timeout_ms":0}`, wantField: "default_timeout_ms", wantIndex: -1},
		{name: "above max", body: `{"max_payload_mb":100000}`, wantField: "max_payload_mb", wantIndex: -1},
		{name: "null int", body: `{"smtp_port":null}`, wantField: "smtp_port", wantIndex: -1},
		{name: "int for bool", body: `{"alerts_enabled":1}`, wantField: "alerts_enabled", wantIndex: -1},
		{name: "bad cidr", body: `{"gateway_trusted_proxies":["10.0.0.0/8","nope"]}`, wantField: "gateway_trusted_proxies", wantIndex: 1},
		{name: "string for list", body: `{"outbound_denied_cidrs":"10.0.0.0/8"}`, wantField: "outbound_denied_cidrs", wantIndex: -1},
		{name: "bad email", body: `{"alert_recipients":["ops"]}`, wantField: "alert_recipients", wantIndex: 0},
		{name: "bad enum", body: `{"smtp_tls_mode":"ssl"}`, wantField: "smtp_tls_mode", wantIndex: -1},
		{name: "host with scheme", body: `{"smtp_host":"smtp://mail"}`, wantField: "smtp_host", wantIndex: -1},
		{name: "host with port", body: `{"smtp_host":"mail:25"}`, wantField: "smtp_host", wantIndex: -1},
		{name: "empty password", body: `{"smtp_password":""}`, wantField: "smtp_password", wantIndex: -1},
		{name: "number password", body: `{"smtp_password":42}`, wantField: "smtp_password", wantIndex: -1},
		{name: "alert interval below min", body: `{"alert_evaluation_interval_seconds":4}`, wantField: "alert_evaluation_interval_seconds", wantIndex: -1},
		{name: "alert cooldown zero", body: `{"alert_cooldown_minutes":0}`, wantField: "alert_cooldown_minutes", wantIndex: -1},
		{name: "first bad name wins", body: `{"zz":1,"aa":1}`, wantField: "aa", wantIndex: -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var members map[string]json.RawMessage
			if err := json.Unmarshal([]byte(tc.body), &members); err != nil {
				t.Fatal(err)
			}
			_, err := ParseSettingsPatch(members)
			var fe *FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("error = %v, want a FieldError", err)
			}
			if fe.Field != tc.wantField || fe.Index != tc.wantIndex {
				t.Errorf("field = %s[%d], want %s[%d] (%v)", fe.Field, fe.Index, tc.wantField, tc.wantIndex, err)
			}
		})
	}
}

func TestSettingsPatchApply(t *testing.T) {
	var members map[string]json.RawMessage
	body := `{"default_timeout_ms":5000,"gateway_trusted_proxies":["10.0.0.0/8"],"smtp_host":"mail.example.com",` +
		`"smtp_from":"s2r@example.com","alert_recipients":["ops@example.com"],"alerts_enabled":true,"smtp_password":"pw"}`
	if err := json.Unmarshal([]byte(body), &members); err != nil {
		t.Fatal(err)
	}
	p, err := ParseSettingsPatch(members)
	if err != nil {
		t.Fatal(err)
	}
	s := DefaultSettings()
	if err := p.ApplyValues(&s); err != nil {
		t.Fatal(err)
	}
	want := DefaultSettings()
	want.DefaultTimeoutMs = 5000
	want.GatewayTrustedProxies = []string{"10.0.0.0/8"}
	want.SMTPHost = "mail.example.com"
	want.SMTPFrom = "s2r@example.com"
	want.AlertRecipients = []string{"ops@example.com"}
	want.AlertsEnabled = true
	if diff := cmp.Diff(want, s); diff != "" {
		t.Errorf("applied settings (-want +got):\n%s", diff)
	}
	if got := p.Credentials["smtp_password"]; got == nil || *got != "pw" {
		t.Errorf("credential not parsed")
	}
	wantNames := []string{"default_timeout_ms", "gateway_trusted_proxies", "smtp_host", "smtp_password", "smtp_from", "alert_recipients", "alerts_enabled"}
	if diff := cmp.Diff(wantNames, p.Names()); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}
}

func TestSettingsValidateAlerts(t *testing.T) {
	s := DefaultSettings()
	s.AlertsEnabled = true
	var fe *FieldError
	if err := s.Validate(); !errors.As(err, &fe) || fe.Field != "alerts_enabled" {
		t.Fatalf("Validate = %v, want alerts_enabled error", err)
	}
}

func TestNewPage(t *testing.T) {
	p := NewPage[int](nil, PageRequest{Page: 2, PageSize: 50}, 101)
	want := ObservabilityPageRecord[int]{Items: []int{}, Page: 2, PageSize: 50, TotalItems: 101, TotalPages: 3}
	if diff := cmp.Diff(want, p); diff != "" {
		t.Error(diff)
	}
	if got := NewPage([]int{}, PageRequest{Page: 1, PageSize: 50}, 0).TotalPages; got != 0 {
		t.Errorf("empty TotalPages = %d", got)
	}
}

func TestRoleOrder(t *testing.T) {
	if !RoleAdmin.AtLeast(RoleOperator) || !RoleOperator.AtLeast(RoleReader) || RoleReader.AtLeast(RoleOperator) {
		t.Error("role order wrong")
	}
	if Role("root").AtLeast(RoleReader) || Role("").Valid() {
		t.Error("unknown role accepted")
	}
}
