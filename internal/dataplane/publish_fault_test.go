package dataplane

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/s2r-project/s2r/internal/routing"
)

// TestPublishSafeFaultCodes: with faultDetailExposureMode safe, a
// backend's specific fault code reaches the caller the same way whatever
// prefix (or none, or a default namespace) the backend wrote it with, and
// a SOAP 1.2 Subcode chain gives the same shape as the dotted SOAP 1.1
// form; the fault string and detail never do (issue 16).
func TestPublishSafeFaultCodes(t *testing.T) {
	const secret = "card 4111-1111 declined by rule 7"
	detail := `<detail><bank:decline xmlns:bank="urn:example:bank"><bank:rule>7</bank:rule></bank:decline></detail>`
	fault11 := func(code string) string {
		return envelope11(`<soap:Fault><faultcode>` + code + `</faultcode><faultstring>` + secret + `</faultstring>` + detail + `</soap:Fault>`)
	}
	declined := map[string]any{"faultCode": "Sender", "faultSubcodes": []any{"CardDeclined"}}
	tests := []struct {
		name    string
		version string // of the operation and the backend's envelope
		answer  string
		want    map[string]any
	}{
		{"1.1 prefixed", "1.1", fault11("soap:Client.CardDeclined"), declined},
		{"1.1 unprefixed", "1.1", fault11("Client.CardDeclined"), declined},
		{"1.1 prefix of the service namespace (PHP ext/soap)", "1.1",
			envelope11(`<soap:Fault><faultcode xmlns:ns1="urn:example:bank">ns1:Client.CardDeclined</faultcode>` +
				`<faultstring>` + secret + `</faultstring></soap:Fault>`), declined},
		{"1.1 other prefix for the envelope namespace", "1.1",
			envelope11(`<soap:Fault><faultcode xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/">SOAP-ENV:Client.CardDeclined</faultcode>` +
				`<faultstring>` + secret + `</faultstring></soap:Fault>`), declined},
		{"1.1 application default namespace", "1.1",
			`<SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/"><SOAP-ENV:Body xmlns="urn:example:bank"><SOAP-ENV:Fault>` +
				`<faultcode>Client.CardDeclined</faultcode><faultstring>` + secret + `</faultstring>` + detail +
				`</SOAP-ENV:Fault></SOAP-ENV:Body></SOAP-ENV:Envelope>`, declined},
		{"1.1 envelope default namespace", "1.1",
			`<Envelope xmlns="http://schemas.xmlsoap.org/soap/envelope/"><Body><Fault><faultcode>Client.CardDeclined</faultcode>` +
				`<faultstring>` + secret + `</faultstring></Fault></Body></Envelope>`, declined},
		{"1.1 nested dotted code", "1.1", fault11("soap:Server.Database.Timeout"),
			map[string]any{"faultCode": "Receiver", "faultSubcodes": []any{"Database", "Timeout"}}},
		{"1.1 plain code", "1.1", fault11("soap:Server"), map[string]any{"faultCode": "Receiver"}},
		{"1.1 custom code keeps its dots", "1.1",
			envelope11(`<soap:Fault><faultcode xmlns:b="urn:example:bank">b:Card.Declined</faultcode><faultstring>` + secret + `</faultstring></soap:Fault>`),
			map[string]any{"faultCode": "Card.Declined"}},
		{"1.2 subcode chain", "1.2",
			envelope12(`<e:Fault><e:Code><e:Value>e:Sender</e:Value><e:Subcode><e:Value xmlns:b="urn:example:bank">b:CardDeclined</e:Value>` +
				`</e:Subcode></e:Code><e:Reason><e:Text xml:lang="en">` + secret + `</e:Text></e:Reason><e:Detail><b:x xmlns:b="urn:b">7</b:x></e:Detail></e:Fault>`),
			declined},
		{"1.2 unprefixed subcodes in a default namespace", "1.2",
			envelope12(`<e:Fault xmlns="urn:example:bank"><e:Code><e:Value>Sender</e:Value><e:Subcode><e:Value>CardDeclined</e:Value>` +
				`<e:Subcode><e:Value>Expired</e:Value></e:Subcode></e:Subcode></e:Code><e:Reason><e:Text xml:lang="en">` + secret + `</e:Text></e:Reason></e:Fault>`),
			map[string]any{"faultCode": "Sender", "faultSubcodes": []any{"CardDeclined", "Expired"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env := newPublishEnv(t, func(s *routing.Source) { s.Operations[0].SOAPVersion = tc.version })
			ct := "text/xml"
			if tc.version == "1.2" {
				ct = "application/soap+xml"
			}
			env.backend.set(answer(500, ct, tc.answer))
			res := env.call(t, "POST", "/publish/dev/calc/add", "application/json", `{"a":1,"b":2}`, "cid-safe")
			if res.status != 502 || res.err.Error.Code != "S2R-RUN-0502" {
				t.Fatalf("answer = %d %s", res.status, res.body)
			}
			var got struct {
				Error struct{ Details map[string]any }
			}
			if err := json.Unmarshal(res.body, &got); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got.Error.Details); d != "" {
				t.Errorf("safe details (-want +got):\n%s\n%s", d, res.body)
			}
			if strings.Contains(string(res.body), "4111") || strings.Contains(string(res.body), "rule") {
				t.Errorf("safe mode leaked the fault string or detail: %s", res.body)
			}
		})
	}
}
