package model

import (
	"encoding/json"
	"errors"
	"testing"
)

// FuzzParseSettingsPatch feeds arbitrary PATCH bodies through the settings
// validator: it must never panic, must answer a FieldError for anything it
// refuses, and whatever it accepts must apply to the defaults and survive a
// second parse of its canonical form unchanged.
func FuzzParseSettingsPatch(f *testing.F) {
	for _, seed := range []string{
		`{}`,
		`{"default_timeout_ms":5000,"alerts_enabled":false}`,
		`{"gateway_trusted_proxies":["10.0.0.0/8","fd00::/8"]}`,
		`{"smtp_password":null}`,
		`{"smtp_password":"pw","smtp_host":"mail.example.com"}`,
		`{"alert_recipients":["ops@example.com","Ops <o@example.com>"]}`,
		`{"max_payload_mb":1e3}`,
		`{"smtp_tls_mode":"tls","smtp_port":465}`,
		`{"unknown":1}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var members map[string]json.RawMessage
		if json.Unmarshal(body, &members) != nil {
			return
		}
		p, err := ParseSettingsPatch(members)
		if err != nil {
			var fe *FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v is not a FieldError", err)
			}
			return
		}
		s := DefaultSettings()
		if err := p.ApplyValues(&s); err != nil {
			var fe *FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("apply error %v is not a FieldError", err)
			}
			return
		}
		again, err := ParseSettingsPatch(p.Values)
		if err != nil {
			t.Fatalf("canonical values do not parse again: %v", err)
		}
		for name, v := range p.Values {
			if string(again.Values[name]) != string(v) {
				t.Fatalf("%s: canonical form changed: %s then %s", name, v, again.Values[name])
			}
		}
	})
}
