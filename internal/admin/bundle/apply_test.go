package bundle_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/s2r-project/s2r/internal/admin"
	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/admin/bundle"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// newTarget is an admin API on st without services.
func newTarget(t *testing.T, st *store.Store) fixture {
	t.Helper()
	h := admin.New(admin.Config{Store: st, Secrets: admintest.Box(t), BootstrapAdmins: []string{admintest.RootEmail}, Version: "test"})
	admintest.Bind(t, st, admintest.Staff()...)
	return fixture{Client: admintest.Serve(t, h), t: t}
}

// apply posts body to /bundle:apply as email.
func (f fixture) apply(body []byte, dryRun bool, email string, header ...string) admintest.Response {
	f.t.Helper()
	q := "?dryRun=false"
	if dryRun {
		q = "?dryRun=true"
	}
	return f.Send("POST", admin.Prefix+"/bundle:apply"+q, email, "application/json", body, header...)
}

// result decodes an apply's answer, which must be 200.
func (f fixture) result(r admintest.Response) bundle.ApplyResult {
	f.t.Helper()
	var res bundle.ApplyResult
	r.WantStatus(f.t, http.StatusOK).Decode(f.t, &res)
	return res
}

// generic decodes JSON into a generic value.
func generic(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// encode encodes v as JSON.
func encode(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// withSecrets is the exported bundle of the fixture with the secret
// values given as strings, as a pipeline injects them.
func withSecrets(t *testing.T, exported []byte) map[string]any {
	t.Helper()
	b := generic(t, exported)
	dev := b["services"].([]any)[0].(map[string]any)
	dev["callbackSecret"] = callbackSecret
	dev["backendProfiles"].([]any)[0].(map[string]any)["credentials"] = map[string]any{"password": backendPassword,
		"wssPassword": wssPassword, "wssSigningKeyPem": signer(t).KeyPEM}
	users := dev["inboundWsSecurity"].(map[string]any)["usernameTokens"].([]any)
	users[0].(map[string]any)["password"] = inboundPassword
	return b
}

// actions counts the changes of res by action.
func actions(res bundle.ApplyResult) map[string]int {
	out := map[string]int{}
	for _, c := range res.Changes {
		out[c.Action]++
	}
	return out
}

// auditCount counts the audit events of action.
func (f fixture) auditCount(action string) int {
	f.t.Helper()
	var page struct{ TotalItems int }
	f.Do("GET", admin.Prefix+"/audit-events?window=1h&actionType="+action, admintest.ReaderEmail, "").
		WantStatus(f.t, http.StatusOK).Decode(f.t, &page)
	return page.TotalItems
}

// TestApplyRoundTrip: a bundle exported from one instance and applied to
// another (SQLite, and PostgreSQL when available) recreates its services;
// the target's export is the source's; applying again changes nothing.
func TestApplyRoundTrip(t *testing.T) {
	src := newFixture(t)
	exported := src.export("").WantStatus(t, http.StatusOK).Body
	var answers [][]bundle.ApplyResult // per dialect: dry run, apply, second apply
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		tgt := newTarget(t, st)
		body := encode(t, withSecrets(t, exported))

		dry := tgt.result(tgt.apply(body, true, admintest.ReaderEmail))
		if !dry.DryRun || actions(dry)["create"] == 0 || actions(dry)["update"]+actions(dry)["unchanged"] != 0 {
			t.Fatalf("dry run %+v", dry)
		}
		if got := generic(t, tgt.export("").Body)["services"]; len(got.([]any)) != 0 {
			t.Fatalf("a dry run wrote %v", got)
		}

		r := tgt.apply(body, false, admintest.OperatorEmail)
		for _, s := range []string{backendPassword, callbackSecret, inboundPassword, wssPassword, signer(t).KeyPEM} {
			if strings.Contains(string(r.Body), s) {
				t.Errorf("the answer echoes a secret")
			}
		}
		res := tgt.result(r)
		if res.DryRun || !cmp.Equal(res.Changes, dry.Changes) || len(res.MissingSecrets) != 0 {
			t.Errorf("apply %+v\ndry run %+v", res, dry)
		}
		if d := cmp.Diff(generic(t, exported), generic(t, tgt.export("").Body)); d != "" {
			t.Errorf("round trip (-source +target):\n%s", d)
		}

		audits := tgt.auditCount("bundle.apply")
		versions := tgt.auditCount("version.create")
		again := tgt.result(tgt.apply(body, false, admintest.OperatorEmail))
		if n := actions(again); n["unchanged"] != len(again.Changes) || len(again.Changes) != len(res.Changes) {
			t.Errorf("second apply %+v", again.Changes)
		}
		if a, v := tgt.auditCount("bundle.apply"), tgt.auditCount("version.create"); a != audits+1 || v != versions {
			t.Errorf("second apply: %d bundle.apply events (before %d), %d version.create (before %d)", a, audits, v, versions)
		}
		// The export itself, secrets only {"set": true}, also applies
		// unchanged: a secret that is set keeps its stored value.
		plain := tgt.result(tgt.apply(exported, false, admintest.OperatorEmail))
		if n := actions(plain); n["unchanged"] != len(plain.Changes) || len(plain.MissingSecrets) != 0 {
			t.Errorf("export applied: %+v", plain)
		}
		answers = append(answers, []bundle.ApplyResult{dry, res, again})
	})
	// SQLite and PostgreSQL (when it ran) answer the same calls alike.
	for i := 1; i < len(answers); i++ {
		if d := cmp.Diff(answers[0], answers[i]); d != "" {
			t.Errorf("the dialects answer differently (-sqlite +postgres):\n%s", d)
		}
	}
}

// TestApplyMissingSecrets: the export applied to an empty instance lists
// every secret it marks set as missing.
func TestApplyMissingSecrets(t *testing.T) {
	src := newFixture(t)
	exported := src.export("").WantStatus(t, http.StatusOK).Body
	tgt := newTarget(t, storetest.SQLite(t))
	res := tgt.result(tgt.apply(exported, false, admintest.OperatorEmail))
	want := []string{
		"publish/dev/calc: callbackSecret",
		"publish/dev/calc: backendProfiles/default/credentials/password",
		"publish/dev/calc: backendProfiles/default/credentials/wssPassword",
		"publish/dev/calc: backendProfiles/default/credentials/wssSigningKeyPem",
		"publish/dev/calc: inboundWsSecurity/usernameTokens/partner-a/password",
	}
	if d := cmp.Diff(want, res.MissingSecrets); d != "" {
		t.Errorf("missing secrets (-want +got):\n%s", d)
	}
}
