package bundle_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/s2r-project/s2r/internal/admin"
	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/admin/bundle"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// devOf is the dev service of a generic bundle.
func devOf(b map[string]any) map[string]any { return b["services"].([]any)[0].(map[string]any) }

// addOf is the Add operation of the dev service of a generic bundle.
func addOf(b map[string]any) map[string]any {
	return devOf(b)["version"].(map[string]any)["operations"].([]any)[0].(map[string]any)
}

// versionsOf lists "number:status" of the versions of service key in env.
func (f fixture) versionsOf(env string) []string {
	f.t.Helper()
	var page struct {
		Items []struct{ ServiceID, Environment string }
	}
	f.Do("GET", admin.Prefix+"/services?environment="+env, admintest.ReaderEmail, "").WantStatus(f.t, http.StatusOK).Decode(f.t, &page)
	var vs struct {
		Items []struct {
			VersionNumber int
			Status        string
		}
	}
	f.Do("GET", admin.Prefix+"/services/"+page.Items[0].ServiceID+"/versions", admintest.ReaderEmail, "").
		WantStatus(f.t, http.StatusOK).Decode(f.t, &vs)
	out := []string{}
	for _, v := range vs.Items {
		out = append(out, string(rune('0'+v.VersionNumber))+":"+v.Status)
	}
	return out
}

// TestApplyChangedMapping: a changed mapping makes a new version that is
// activated, the previous one kept inactive; with "activate": false the
// new version stays a draft and applying again is unchanged.
func TestApplyChangedMapping(t *testing.T) {
	src := newFixture(t)
	exported := src.export("").WantStatus(t, http.StatusOK).Body
	tgt := newTarget(t, storetest.SQLite(t))
	tgt.result(tgt.apply(encode(t, withSecrets(t, exported)), false, admintest.OperatorEmail))

	b := withSecrets(t, exported)
	addOf(b)["mapping"].(map[string]any)["responseMapping"] = map[string]any{"mode": "identity", "rename": map[string]any{"result": "sum"}}
	res := tgt.result(tgt.apply(encode(t, b), false, admintest.OperatorEmail))
	var got []bundle.Change
	for _, c := range res.Changes {
		if c.Action != bundle.ActionUnchanged {
			got = append(got, c)
		}
	}
	want := []bundle.Change{{Kind: "version", Direction: "publish", Environment: "dev", ServiceKey: "calc", Name: "2",
		Action: "update", Fields: []string{"operations.add"}}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("changes (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"2:active", "1:inactive"}, tgt.versionsOf("dev")); d != "" {
		t.Errorf("versions (-want +got):\n%s", d)
	}
	again := tgt.result(tgt.apply(encode(t, b), false, admintest.OperatorEmail))
	if n := actions(again); n["unchanged"] != len(again.Changes) {
		t.Errorf("applied twice: %+v", again.Changes)
	}

	addOf(b)["timeoutMs"] = 1234
	devOf(b)["activate"] = false
	res = tgt.result(tgt.apply(encode(t, b), false, admintest.OperatorEmail))
	if d := cmp.Diff([]string{"3:draft", "2:active", "1:inactive"}, tgt.versionsOf("dev")); d != "" {
		t.Errorf("versions after activate false (-want +got):\n%s", d)
	}
	again = tgt.result(tgt.apply(encode(t, b), false, admintest.OperatorEmail))
	if n := actions(again); n["unchanged"] != len(again.Changes) {
		t.Errorf("activate false applied twice: %+v", again.Changes)
	}
	// Activating a different version while the draft exists is refused.
	addOf(b)["timeoutMs"] = 999
	delete(devOf(b), "activate")
	e := tgt.apply(encode(t, b), false, admintest.OperatorEmail).WantError(t, http.StatusConflict, apierr.AdmImmutable)
	if e.Error.Details["pointer"] != "/services/0/version" {
		t.Errorf("conflict details %v", e.Error.Details)
	}
}

// TestApplyRoles: a reader may dry-run but not apply.
func TestApplyRoles(t *testing.T) {
	src := newFixture(t)
	exported := src.export("").WantStatus(t, http.StatusOK).Body
	tgt := newTarget(t, storetest.SQLite(t))
	tgt.apply(exported, false, admintest.ReaderEmail).WantError(t, http.StatusForbidden, apierr.AdmForbidden)
	tgt.result(tgt.apply(exported, true, admintest.ReaderEmail))
	if n := tgt.auditCount("bundle.apply"); n != 1 {
		t.Errorf("%d bundle.apply events, want the one refusal", n)
	}
	tgt.apply(exported, false, admintest.OperatorEmail).WantStatus(t, http.StatusOK)
}

// TestApplyYAML: the YAML export applies like the JSON one.
func TestApplyYAML(t *testing.T) {
	src := newFixture(t)
	y := src.export("", "Accept", "application/yaml").WantStatus(t, http.StatusOK).Body
	j := src.export("").WantStatus(t, http.StatusOK).Body
	tgt := newTarget(t, storetest.SQLite(t))
	res := tgt.result(tgt.Send("POST", admin.Prefix+"/bundle:apply?dryRun=false", admintest.OperatorEmail, "application/yaml", y))
	if n := actions(res); n["create"] == 0 {
		t.Errorf("YAML apply %+v", res)
	}
	if d := cmp.Diff(generic(t, j), generic(t, tgt.export("").Body)); d != "" {
		// Only the secrets may differ: they are missing on the target.
		if len(res.MissingSecrets) != 5 {
			t.Errorf("YAML round trip (-source +target):\n%s", d)
		}
	}
}

// TestApplyBlockedVersion: a new version that is BLOCKED (here: no
// backend profile) is not activated: 409 with the version's pointer, and
// nothing is written; with "activate": false it is stored as a draft.
func TestApplyBlockedVersion(t *testing.T) {
	src := newFixture(t)
	b := generic(t, src.export("?environment=dev").WantStatus(t, http.StatusOK).Body)
	dev := devOf(b)
	dev["backendProfiles"], dev["defaultBackendProfile"] = []any{}, ""
	tgt := newTarget(t, storetest.SQLite(t))
	e := tgt.apply(encode(t, b), false, admintest.OperatorEmail).WantError(t, http.StatusConflict, apierr.AdmImmutable)
	if e.Error.Details["pointer"] != "/services/0/version" || e.Error.Details["readiness"] != "BLOCKED" {
		t.Errorf("details %v", e.Error.Details)
	}
	if got := generic(t, tgt.export("").Body)["services"].([]any); len(got) != 0 {
		t.Fatalf("a refused apply wrote %d services", len(got))
	}
	dev["activate"] = false
	tgt.result(tgt.apply(encode(t, b), false, admintest.OperatorEmail))
	if d := cmp.Diff([]string{"1:draft"}, tgt.versionsOf("dev")); d != "" {
		t.Errorf("versions (-want +got):\n%s", d)
	}
}

// TestApplySecretRotation: a secret given with a new value is an update
// naming the secret, never showing it (answer and audit events); the
// same value again is unchanged.
func TestApplySecretRotation(t *testing.T) {
	src := newFixture(t)
	exported := src.export("?environment=dev").WantStatus(t, http.StatusOK).Body
	tgt := newTarget(t, storetest.SQLite(t))
	tgt.result(tgt.apply(encode(t, withSecrets(t, exported)), false, admintest.OperatorEmail))

	const rotated = "rotated-pa55word-never-shown"
	b := withSecrets(t, exported)
	devOf(b)["backendProfiles"].([]any)[0].(map[string]any)["credentials"] = map[string]any{"password": rotated}
	for _, dry := range []bool{true, false} {
		r := tgt.apply(encode(t, b), dry, admintest.OperatorEmail)
		if strings.Contains(string(r.Body), rotated) {
			t.Fatal("the answer shows the secret")
		}
		var got []bundle.Change
		for _, c := range tgt.result(r).Changes {
			if c.Action != bundle.ActionUnchanged {
				got = append(got, c)
			}
		}
		want := []bundle.Change{{Kind: "backendProfile", Direction: "publish", Environment: "dev", ServiceKey: "calc",
			Name: "default", Action: "update", Fields: []string{"credentials.password"}}}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("dryRun %v: changes (-want +got):\n%s", dry, d)
		}
	}
	again := tgt.result(tgt.apply(encode(t, b), false, admintest.OperatorEmail))
	if n := actions(again); n["unchanged"] != len(again.Changes) {
		t.Errorf("the same secret again: %+v", again.Changes)
	}
	audit := tgt.Do("GET", admin.Prefix+"/audit-events?window=1h&pageSize=200", admintest.ReaderEmail, "").WantStatus(t, http.StatusOK)
	for _, s := range []string{rotated, backendPassword, callbackSecret, inboundPassword, wssPassword, signer(t).KeyPEM} {
		if strings.Contains(string(audit.Body), s) {
			t.Errorf("an audit event shows a secret")
		}
	}
}
