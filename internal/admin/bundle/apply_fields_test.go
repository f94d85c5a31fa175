package bundle_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/admin/bundle"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/store/storetest"
	"github.com/s2r-project/s2r/internal/tests/loopback"
)

// changed lists the changes of res that are not unchanged.
func changed(res bundle.ApplyResult) []bundle.Change {
	var out []bundle.Change
	for _, c := range res.Changes {
		if c.Action != bundle.ActionUnchanged {
			out = append(out, c)
		}
	}
	return out
}

// devChange is a change of the dev service.
func devChange(kind, name, action string, fields ...string) bundle.Change {
	if fields == nil {
		fields = []string{}
	}
	return bundle.Change{Kind: kind, Direction: "publish", Environment: "dev", ServiceKey: "calc", Name: name,
		Action: action, Fields: fields}
}

// TestApplyProtectionFields: a change of a backend profile's protection
// cap, WS-Addressing or WS-Security, of the client rate limit or of an
// operation's responseValidation is an update naming the field (the last
// one a new version); each applied twice is unchanged.
func TestApplyProtectionFields(t *testing.T) {
	src := newFixture(t)
	exported := src.export("?environment=dev").WantStatus(t, http.StatusOK).Body
	tgt := newTarget(t, storetest.SQLite(t))
	tgt.result(tgt.apply(encode(t, withSecrets(t, exported)), false, admintest.OperatorEmail))
	profile := func(b map[string]any) map[string]any { return devOf(b)["backendProfiles"].([]any)[0].(map[string]any) }

	cases := []struct {
		name   string
		mutate func(b map[string]any)
		want   []bundle.Change
	}{
		{"concurrency cap", func(b map[string]any) { profile(b)["maxConcurrentRequests"] = 16 },
			[]bundle.Change{devChange("backendProfile", "default", "update", "maxConcurrentRequests")}},
		{"caps removed", func(b map[string]any) {
			profile(b)["maxConcurrentRequests"], profile(b)["maxRequestsPerSecond"] = nil, nil
		}, []bundle.Change{devChange("backendProfile", "default", "update", "maxConcurrentRequests", "maxRequestsPerSecond")}},
		{"addressing and timestamp", func(b map[string]any) {
			profile(b)["wsAddressing"] = false
			profile(b)["wsSecurity"].(map[string]any)["timestamp"] = map[string]any{"ttlSeconds": 60}
		}, []bundle.Change{devChange("backendProfile", "default", "update", "wsAddressing", "wsSecurity")}},
		{"rate limit", func(b map[string]any) { devOf(b)["rateLimits"].(map[string]any)["requestsPerMinute"] = 1200 },
			[]bundle.Change{devChange("rateLimits", "", "update", "requestsPerMinute")}},
		{"rate limit removed", func(b map[string]any) { delete(devOf(b), "rateLimits") },
			[]bundle.Change{devChange("rateLimits", "", "update", "rateLimits")}},
		{"response validation", func(b map[string]any) { addOf(b)["responseValidation"] = "off" },
			[]bundle.Change{devChange("version", "2", "update", "operations.add")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := withSecrets(t, exported)
			tc.mutate(b)
			res := tgt.result(tgt.apply(encode(t, b), false, admintest.OperatorEmail))
			if d := cmp.Diff(tc.want, changed(res)); d != "" {
				t.Errorf("changes (-want +got):\n%s", d)
			}
			again := tgt.result(tgt.apply(encode(t, b), false, admintest.OperatorEmail))
			if got := changed(again); len(got) != 0 {
				t.Errorf("applied twice: %+v", got)
			}
			// Back to the fixture's state for the next case.
			tgt.result(tgt.apply(encode(t, withSecrets(t, exported)), false, admintest.OperatorEmail))
		})
	}
	// An operation given without responseValidation takes strict.
	b := withSecrets(t, exported)
	delete(addOf(b), "responseValidation")
	tgt.result(tgt.apply(encode(t, b), false, admintest.OperatorEmail))
	if got := addOf(generic(t, tgt.export("").Body))["responseValidation"]; got != "strict" {
		t.Errorf("responseValidation %v, want strict", got)
	}
}

// TestApplyWSSecurityStoredKey: a new certificate with the signing key
// left {"set": true} is checked against the key the target holds: a key
// that does not match is 400 with the key's pointer; given with its
// matching key it is an update naming wsSecurity and the key, never
// showing it.
func TestApplyWSSecurityStoredKey(t *testing.T) {
	src := newFixture(t)
	exported := src.export("?environment=dev").WantStatus(t, http.StatusOK).Body
	tgt := newTarget(t, storetest.SQLite(t))
	tgt.result(tgt.apply(encode(t, withSecrets(t, exported)), false, admintest.OperatorEmail))

	other := loopback.NewRSAIdentity(t, "other-signer")
	b := generic(t, exported) // every secret {"set": true}
	p := devOf(b)["backendProfiles"].([]any)[0].(map[string]any)
	p["wsSecurity"].(map[string]any)["signature"].(map[string]any)["certificatePem"] = other.CertPEM
	for _, dry := range []bool{true, false} {
		e := tgt.apply(encode(t, b), dry, admintest.OperatorEmail).WantError(t, http.StatusBadRequest, apierr.ValBadRequest)
		if got := e.Error.Details["pointer"]; got != "/services/0/backendProfiles/0/credentials/wssSigningKeyPem" {
			t.Errorf("dryRun %v: pointer %v: %s", dry, got, e.Error.Message)
		}
	}
	p["credentials"].(map[string]any)["wssSigningKeyPem"] = other.KeyPEM
	r := tgt.apply(encode(t, b), false, admintest.OperatorEmail)
	want := []bundle.Change{devChange("backendProfile", "default", "update", "wsSecurity", "credentials.wssSigningKeyPem")}
	if d := cmp.Diff(want, changed(tgt.result(r))); d != "" {
		t.Errorf("changes (-want +got):\n%s", d)
	}
	if body := string(r.Body) + string(tgt.export("").Body); containsAny(body, other.KeyPEM, signer(t).KeyPEM, "PRIVATE KEY") {
		t.Error("a signing key is shown")
	}
}

// containsAny reports whether s contains one of subs.
func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
