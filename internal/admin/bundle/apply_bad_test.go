package bundle_test

import (
	"net/http"
	"testing"

	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/store/storetest"
	"github.com/s2r-project/s2r/internal/tests/loopback"
)

// TestApplyBadBundles: each bad bundle is 400 S2R-VAL-0400 with the JSON
// pointer of its first problem, and nothing is written.
func TestApplyBadBundles(t *testing.T) {
	src := newFixture(t)
	exported := src.export("").WantStatus(t, http.StatusOK).Body
	tgt := newTarget(t, storetest.SQLite(t))
	ops := func(b map[string]any) []any { return devOf(b)["version"].(map[string]any)["operations"].([]any) }
	profileOf := func(b map[string]any) map[string]any { return devOf(b)["backendProfiles"].([]any)[0].(map[string]any) }
	wssOf := func(b map[string]any) map[string]any { return profileOf(b)["wsSecurity"].(map[string]any) }
	rateOf := func(b map[string]any) map[string]any { return devOf(b)["rateLimits"].(map[string]any) }
	cases := []struct {
		name    string
		raw     string
		mutate  func(b map[string]any)
		pointer string
	}{
		{name: "not JSON or YAML", raw: "{ not: [json", pointer: ""},
		{name: "not YAML either", raw: "apiVersion: [unclosed", pointer: ""},
		{name: "apiVersion", mutate: func(b map[string]any) { b["apiVersion"] = "s2r/v9" }, pointer: "/apiVersion"},
		{name: "kind", mutate: func(b map[string]any) { b["kind"] = "Service" }, pointer: "/kind"},
		{name: "unknown top-level field", mutate: func(b map[string]any) { b["extra"] = 1 }, pointer: "/extra"},
		{name: "unknown service field", mutate: func(b map[string]any) { devOf(b)["colour"] = "red" }, pointer: "/services/0/colour"},
		{name: "unknown profile field", mutate: func(b map[string]any) {
			devOf(b)["backendProfiles"].([]any)[0].(map[string]any)["proxy"] = "x"
		}, pointer: "/services/0/backendProfiles/0/proxy"},
		{name: "wrong type", mutate: func(b map[string]any) { devOf(b)["debugEnabled"] = "yes" }, pointer: "/services/0/debugEnabled"},
		{name: "duplicate service", mutate: func(b map[string]any) {
			b["services"] = append(b["services"].([]any), devOf(b))
		}, pointer: "/services/2/serviceKey"},
		{name: "REST path clash", mutate: func(b map[string]any) {
			o := ops(b)
			o[1].(map[string]any)["restPath"] = o[0].(map[string]any)["restPath"]
			o[1].(map[string]any)["restMethod"] = o[0].(map[string]any)["restMethod"]
		}, pointer: "/services/0/version/operations/1/restPath"},
		{name: "WSDL does not import", mutate: func(b map[string]any) {
			w := devOf(b)["version"].(map[string]any)["wsdl"].(map[string]any)
			w["files"].(map[string]any)[w["rootPath"].(string)] = "<definitions"
		}, pointer: "/services/0/version/wsdl/files/root.wsdl"},
		{name: "backend URL not http", mutate: func(b map[string]any) {
			devOf(b)["backendProfiles"].([]any)[0].(map[string]any)["endpointUrl"] = "ftp://backend.example/calc"
		}, pointer: "/services/0/backendProfiles/0/endpointUrl"},
		{name: "backend URL the outbound policy refuses", mutate: func(b map[string]any) {
			devOf(b)["backendProfiles"].([]any)[0].(map[string]any)["endpointUrl"] = "http://169.254.169.254/latest"
		}, pointer: "/services/0/backendProfiles/0/endpointUrl"},
		{name: "backend URL with credentials", mutate: func(b map[string]any) {
			devOf(b)["backendProfiles"].([]any)[0].(map[string]any)["endpointUrl"] = "https://u:p@backend.example/calc"
		}, pointer: "/services/0/backendProfiles/0/endpointUrl"},
		{name: "empty secret", mutate: func(b map[string]any) { devOf(b)["callbackSecret"] = "" }, pointer: "/services/0/callbackSecret"},
		{name: "unknown secret member", mutate: func(b map[string]any) {
			devOf(b)["callbackSecret"] = map[string]any{"set": true, "value": "x"}
		}, pointer: "/services/0/callbackSecret/value"},
		{name: "bad grant", mutate: func(b map[string]any) { devOf(b)["consumerGrants"] = []any{"10.0.0.1/8"} },
			pointer: "/services/0/consumerGrants/0"},
		{name: "unknown SOAP operation", mutate: func(b map[string]any) {
			ops(b)[0].(map[string]any)["soapOperationName"] = "Multiply"
		}, pointer: "/services/0/version/operations/0/soapOperationName"},
		{name: "mapping naming no field", mutate: func(b map[string]any) {
			ops(b)[0].(map[string]any)["mapping"].(map[string]any)["responseMapping"] = map[string]any{"mode": "identity",
				"rename": map[string]any{"nothing": "x"}}
		}, pointer: "/services/0/version/operations/0/mapping/responseMapping"},
		{name: "inbound certificate", mutate: func(b map[string]any) {
			devOf(b)["inboundWsSecurity"].(map[string]any)["trustedCertificatesPem"] = []any{"not a certificate"}
		}, pointer: "/services/0/inboundWsSecurity/trustedCertificatesPem/0"},
		{name: "inbound clock skew", mutate: func(b map[string]any) {
			devOf(b)["inboundWsSecurity"].(map[string]any)["maxClockSkewSeconds"] = 90000
		}, pointer: "/services/0/inboundWsSecurity/maxClockSkewSeconds"},
		{name: "envelope override", mutate: func(b map[string]any) {
			devOf(b)["envelopeWrapOverride"] = map[string]any{"dataField": ""}
		}, pointer: "/services/0/envelopeWrapOverride/dataField"},
		{name: "error shape placeholder", mutate: func(b map[string]any) {
			devOf(b)["errorShapeOverride"] = map[string]any{"e": "${nope}"}
		}, pointer: "/services/0/errorShapeOverride/e"},
		{name: "operation timeout", mutate: func(b map[string]any) { ops(b)[2].(map[string]any)["timeoutMs"] = 0 },
			pointer: "/services/0/version/operations/2/timeoutMs"},
		{name: "profile weight", mutate: func(b map[string]any) {
			devOf(b)["backendProfiles"].([]any)[0].(map[string]any)["routingWeight"] = 5000
		}, pointer: "/services/0/backendProfiles/0/routingWeight"},
		{name: "concurrency cap", mutate: func(b map[string]any) { profileOf(b)["maxConcurrentRequests"] = 0 },
			pointer: "/services/0/backendProfiles/0/maxConcurrentRequests"},
		{name: "concurrency cap not an integer", mutate: func(b map[string]any) { profileOf(b)["maxConcurrentRequests"] = 1.5 },
			pointer: "/services/0/backendProfiles/0/maxConcurrentRequests"},
		{name: "rate cap", mutate: func(b map[string]any) { profileOf(b)["maxRequestsPerSecond"] = -1 },
			pointer: "/services/0/backendProfiles/0/maxRequestsPerSecond"},
		{name: "queue timeout", mutate: func(b map[string]any) { profileOf(b)["queueTimeoutMs"] = -5 },
			pointer: "/services/0/backendProfiles/0/queueTimeoutMs"},
		{name: "wsAddressing type", mutate: func(b map[string]any) { profileOf(b)["wsAddressing"] = "yes" },
			pointer: "/services/0/backendProfiles/0/wsAddressing"},
		{name: "wsSecurity unknown member", mutate: func(b map[string]any) { wssOf(b)["kerberos"] = true },
			pointer: "/services/0/backendProfiles/0/wsSecurity/kerberos"},
		{name: "wsSecurity password type", mutate: func(b map[string]any) {
			wssOf(b)["usernameToken"].(map[string]any)["passwordType"] = "Plain"
		}, pointer: "/services/0/backendProfiles/0/wsSecurity/usernameToken/passwordType"},
		{name: "wsSecurity part signed twice", mutate: func(b map[string]any) {
			wssOf(b)["signature"].(map[string]any)["signParts"] = []any{"Body", "Body"}
		}, pointer: "/services/0/backendProfiles/0/wsSecurity/signature/signParts/1"},
		{name: "wsSecurity certificate", mutate: func(b map[string]any) {
			wssOf(b)["signature"].(map[string]any)["certificatePem"] = "not a certificate"
		}, pointer: "/services/0/backendProfiles/0/wsSecurity/signature/certificatePem"},
		{name: "wsSecurity key not matching the certificate", mutate: func(b map[string]any) {
			profileOf(b)["credentials"].(map[string]any)["wssSigningKeyPem"] = loopback.NewRSAIdentity(t, "other").KeyPEM
		}, pointer: "/services/0/backendProfiles/0/credentials/wssSigningKeyPem"},
		{name: "wsSecurity token without a password", mutate: func(b map[string]any) {
			delete(profileOf(b)["credentials"].(map[string]any), "wssPassword")
		}, pointer: "/services/0/backendProfiles/0/credentials/wssPassword"},
		{name: "rate limit client key", mutate: func(b map[string]any) { rateOf(b)["clientKey"] = "cookie" },
			pointer: "/services/0/rateLimits/clientKey"},
		{name: "rate limit per minute", mutate: func(b map[string]any) { rateOf(b)["requestsPerMinute"] = 0 },
			pointer: "/services/0/rateLimits/requestsPerMinute"},
		{name: "rate limit unknown member", mutate: func(b map[string]any) { rateOf(b)["perSecond"] = 1 },
			pointer: "/services/0/rateLimits/perSecond"},
		{name: "response validation", mutate: func(b map[string]any) { ops(b)[0].(map[string]any)["responseValidation"] = "maybe" },
			pointer: "/services/0/version/operations/0/responseValidation"},
		{name: "default profile unknown", mutate: func(b map[string]any) { devOf(b)["defaultBackendProfile"] = "other" },
			pointer: "/services/0/defaultBackendProfile"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body := []byte(tc.raw)
			if tc.mutate != nil {
				b := generic(t, exported)
				tc.mutate(b)
				body = encode(t, b)
			}
			for _, dry := range []bool{true, false} {
				e := tgt.apply(body, dry, admintest.OperatorEmail).WantError(t, http.StatusBadRequest, apierr.ValBadRequest)
				if got, ok := e.Error.Details["pointer"]; !ok || got != tc.pointer {
					t.Errorf("dryRun %v: pointer %v, want %q: %s", dry, got, tc.pointer, e.Error.Message)
				}
			}
			if got := generic(t, tgt.export("").Body)["services"].([]any); len(got) != 0 {
				t.Fatalf("a bad bundle wrote %d services", len(got))
			}
		})
	}
}
