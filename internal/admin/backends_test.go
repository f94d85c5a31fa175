package admin

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
	"github.com/s2r-project/s2r/internal/tests/loopback"
)

// Secret values used by the backend tests; none may ever appear in an
// answer, an audit state or a log line.
const (
	secretPassword = "pw-Secret-7f3a9c"
	secretToken    = "tok-Secret-51b2e0"
	secretAPIKey   = "key-Secret-c0ffee"
	secretClient   = "cs-Secret-9d8e7f"
)

var allSecrets = []string{secretPassword, secretToken, secretAPIKey, secretClient}

// profilePath is the path of a profile.
func profilePath(id string) string { return Prefix + "/backend-profiles/" + id }

// createProfile creates a backend profile of serviceID as the operator.
func (a *testAPI) createProfile(serviceID string, members map[string]any) model.BackendProfile {
	a.t.Helper()
	var p model.BackendProfile
	a.Do("POST", Prefix+"/services/"+serviceID+"/backend-profiles", operatorEmail, jsonBody(a.t, members)).
		WantStatus(a.t, http.StatusCreated).Decode(a.t, &p)
	return p
}

// assertNoSecrets fails when any secret appears in the audit log, the
// captured logs or the given answers.
func (a *testAPI) assertNoSecrets(answers ...[]byte) {
	a.t.Helper()
	page, err := a.store.AuditEvents(context.Background(), model.AuditFilter{Page: model.PageRequest{Page: 1, PageSize: 200}})
	if err != nil {
		a.t.Fatal(err)
	}
	var texts []string
	for _, e := range page.Items {
		texts = append(texts, e.Message, string(e.BeforeState), string(e.AfterState))
	}
	texts = append(texts, a.logs.String())
	for _, b := range answers {
		texts = append(texts, string(b))
	}
	for _, text := range texts {
		for _, s := range allSecrets {
			if strings.Contains(text, s) {
				a.t.Errorf("secret %q leaked in %.300s", s, text)
			}
		}
	}
}

func TestBackendProfileLifecycle(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		svc := api.createService(map[string]any{"serviceKey": "calc", "environment": "dev"})
		var answers [][]byte
		rev := api.revision()

		r := api.Do("POST", Prefix+"/services/"+svc.ServiceID+"/backend-profiles", operatorEmail, jsonBody(t, map[string]any{
			"endpointUrl": "http://10.0.0.5/calc", "authType": "basic", "username": "svc",
			"credentials": map[string]any{"password": secretPassword}, "routingPriority": 10, "timeoutMs": 2500,
		})).WantStatus(t, http.StatusCreated)
		answers = append(answers, r.Body)
		var p1 model.BackendProfile
		r.Decode(t, &p1)
		if !p1.IsDefault || p1.Name != "default" || p1.AuthType != model.AuthBasic || *p1.TimeoutMs != 2500 ||
			p1.ConnectTimeoutMs != model.DefaultConnectTimeoutMs || p1.RoutingWeight != 1 {
			t.Errorf("created profile = %+v", p1)
		}
		meta := p1.Credentials.Password
		if !meta.Set || meta.LastUpdatedBy == nil || *meta.LastUpdatedBy != operatorEmail || meta.LastUpdatedAt == nil {
			t.Errorf("password metadata = %+v", meta)
		}
		if p1.Credentials.Token.Set {
			t.Error("token reported set")
		}
		if api.revision() != rev+1 {
			t.Errorf("revision %d, want %d", api.revision(), rev+1)
		}
		got, err := st.Service(context.Background(), svc.ServiceID)
		if err != nil || got.DefaultBackendProfileID == nil || *got.DefaultBackendProfileID != p1.ProfileID {
			t.Fatalf("service default = %v, %v", got.DefaultBackendProfileID, err)
		}
		stored, err := st.BackendProfile(context.Background(), p1.ProfileID)
		if err != nil {
			t.Fatal(err)
		}
		if sealed := stored.Credentials.Password.Sealed(); sealed == "" || strings.Contains(sealed, secretPassword) {
			t.Errorf("stored password is not sealed: %q", sealed)
		}
		plain, err := api.box.Open(stored.Credentials.Password.Sealed(), model.CredentialAAD(p1.ProfileID, model.CredPassword))
		if err != nil || string(plain) != secretPassword {
			t.Errorf("sealed password opens to %q, %v", plain, err)
		}

		// A second profile, made default, ahead in routing order.
		p2 := api.createProfile(svc.ServiceID, map[string]any{"name": "secondary", "endpointUrl": "https://10.0.0.6/calc",
			"authType": "bearer", "credentials": map[string]any{"token": secretToken}, "routingPriority": 1,
			"isDefault": true})
		var list []model.BackendProfile
		r = api.Do("GET", Prefix+"/services/"+svc.ServiceID+"/backend-profiles", readerEmail, "").WantStatus(t, http.StatusOK)
		answers = append(answers, r.Body)
		r.Decode(t, &list)
		if len(list) != 2 || list[0].ProfileID != p2.ProfileID || !list[0].IsDefault || list[1].IsDefault {
			t.Errorf("list = %+v", list)
		}

		// PATCH: clear the password, switch to api_key_header, keep others.
		r = api.Do("PATCH", profilePath(p1.ProfileID), operatorEmail, jsonBody(t, map[string]any{
			"authType": "api_key_header", "credentials": map[string]any{"password": nil, "apiKey": secretAPIKey},
			"routingWeight": 5, "timeoutMs": nil,
		})).WantStatus(t, http.StatusOK)
		answers = append(answers, r.Body)
		var patched model.BackendProfile
		r.Decode(t, &patched)
		if patched.Credentials.Password.Set || patched.Credentials.Password.LastUpdatedAt == nil ||
			!patched.Credentials.APIKey.Set || patched.APIKeyHeaderName != "X-API-Key" || patched.RoutingWeight != 5 ||
			patched.TimeoutMs != nil || patched.Username != "svc" || !patched.UpdatedAt.After(p1.UpdatedAt) {
			t.Errorf("patched = %+v", patched)
		}
		ev := api.lastAudit("backend_profile.update", p1.ProfileID)
		if !strings.Contains(string(ev.BeforeState), `"password":{"set":true`) ||
			!strings.Contains(string(ev.AfterState), `"password":{"set":false`) {
			t.Errorf("audit states = %s / %s", ev.BeforeState, ev.AfterState)
		}

		// isDefault false hands the default on.
		api.Do("PATCH", profilePath(p2.ProfileID), operatorEmail, `{"isDefault":false}`).WantStatus(t, http.StatusOK)
		if got, _ := st.Service(context.Background(), svc.ServiceID); *got.DefaultBackendProfileID != p1.ProfileID {
			t.Errorf("default after isDefault false = %s", *got.DefaultBackendProfileID)
		}

		// Deleting the default reassigns it.
		api.Do("DELETE", profilePath(p1.ProfileID), operatorEmail, "").WantStatus(t, http.StatusNoContent)
		if got, _ := st.Service(context.Background(), svc.ServiceID); got.DefaultBackendProfileID == nil || *got.DefaultBackendProfileID != p2.ProfileID {
			t.Errorf("default after delete = %v", got.DefaultBackendProfileID)
		}
		api.Do("DELETE", profilePath(p1.ProfileID), operatorEmail, "").WantError(t, http.StatusNotFound, apierr.AdmNotFound)
		api.Do("PATCH", profilePath("nope"), operatorEmail, `{}`).WantError(t, http.StatusNotFound, apierr.AdmNotFound)
		api.assertNoSecrets(answers...)
	})
}

func TestBackendProfileLastOfLiveService(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		svc := api.createService(map[string]any{"serviceKey": "calc", "environment": "dev"})
		p := api.createProfile(svc.ServiceID, map[string]any{"endpointUrl": "http://10.0.0.5/calc"})
		ctx := context.Background()
		err := st.Transact(ctx, func(tx *store.Tx) error {
			now := time.Now()
			if err := tx.CreateVersion(ctx, model.Version{VersionID: "v1", ServiceID: svc.ServiceID, VersionNumber: 1,
				Status: model.VersionActive, CreatedAt: now, ActivatedAt: &now, CreatedBy: "t"}); err != nil {
				return err
			}
			cur, err := tx.Service(ctx, svc.ServiceID)
			if err != nil {
				return err
			}
			v := "v1"
			cur.ActiveVersionID = &v
			return tx.UpdateService(ctx, cur)
		})
		if err != nil {
			t.Fatal(err)
		}
		api.Do("DELETE", profilePath(p.ProfileID), operatorEmail, "").WantError(t, http.StatusConflict, apierr.AdmImmutable)
		api.Do("PATCH", Prefix+"/services/"+svc.ServiceID, operatorEmail, `{"status":"disabled"}`).WantStatus(t, http.StatusOK)
		api.Do("DELETE", profilePath(p.ProfileID), operatorEmail, "").WantStatus(t, http.StatusNoContent)
		if got, _ := st.Service(ctx, svc.ServiceID); got.DefaultBackendProfileID != nil {
			t.Errorf("default after deleting the last profile = %v", *got.DefaultBackendProfileID)
		}
	})
}

func TestBackendProfileValidation(t *testing.T) {
	api := newTestAPI(t, storetest.SQLite(t))
	svc := api.createService(map[string]any{"serviceKey": "calc", "environment": "dev"})
	pki := loopback.NewPKI(t)
	create := Prefix + "/services/" + svc.ServiceID + "/backend-profiles"
	tests := []struct {
		name, body, field string
	}{
		{"no endpoint", `{}`, "endpointUrl"},
		{"ftp endpoint", `{"endpointUrl":"ftp://x/y"}`, "endpointUrl"},
		{"userinfo", `{"endpointUrl":"http://u:p@x/y"}`, "endpointUrl"},
		{"relative", `{"endpointUrl":"/calc"}`, "endpointUrl"},
		{"fragment", `{"endpointUrl":"http://x/y#f"}`, "endpointUrl"},
		{"bad auth type", `{"endpointUrl":"http://x/","authType":"kerberos"}`, "authType"},
		{"basic without username", `{"endpointUrl":"http://x/","authType":"basic"}`, "username"},
		{"oauth2 without token url", `{"endpointUrl":"http://x/","authType":"oauth2_client_credentials","clientId":"c"}`, "tokenUrl"},
		{"oauth2 without client id", `{"endpointUrl":"http://x/","authType":"oauth2_client_credentials","tokenUrl":"https://idp/t"}`, "clientId"},
		{"oauth2 bad token url", `{"endpointUrl":"http://x/","authType":"oauth2_client_credentials","tokenUrl":"idp"}`, "tokenUrl"},
		{"bad header name", `{"endpointUrl":"http://x/","authType":"api_key_header","apiKeyHeaderName":"a b"}`, "apiKeyHeaderName"},
		{"unknown field", `{"endpointUrl":"http://x/","password":"x"}`, "password"},
		{"unknown credential", `{"endpointUrl":"http://x/","credentials":{"pin":"1"}}`, "credentials.pin"},
		{"empty credential", `{"endpointUrl":"http://x/","credentials":{"token":""}}`, "credentials.token"},
		{"credential number", `{"endpointUrl":"http://x/","credentials":{"token":5}}`, "credentials.token"},
		{"mtls without cert", `{"endpointUrl":"https://x/","mtlsEnabled":true}`, "clientCertPem"},
		{"bad cert", `{"endpointUrl":"https://x/","clientCertPem":"nope"}`, "clientCertPem"},
		{"bad CA", `{"endpointUrl":"https://x/","caCertPem":"nope"}`, "caCertPem"},
		{"key does not match", jsonBody(t, map[string]any{"endpointUrl": "https://x/", "mtlsEnabled": true,
			"clientCertPem": pki.ClientCertPEM, "credentials": map[string]any{"clientKeyPem": pki.OtherKeyPEM}}), "credentials.clientKeyPem"},
		{"timeout range", `{"endpointUrl":"http://x/","timeoutMs":0}`, "timeoutMs"},
		{"retry range", `{"endpointUrl":"http://x/","retryCount":11}`, "retryCount"},
		{"weight range", `{"endpointUrl":"http://x/","routingWeight":0}`, "routingWeight"},
		{"weight type", `{"endpointUrl":"http://x/","routingWeight":"1"}`, "routingWeight"},
		{"default type", `{"endpointUrl":"http://x/","isDefault":1}`, "isDefault"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api.Do("POST", create, operatorEmail, tt.body).WantFieldError(t, http.StatusBadRequest, apierr.ValBadRequest, tt.field)
		})
	}
	api.Do("POST", Prefix+"/services/nope/backend-profiles", operatorEmail, `{"endpointUrl":"http://x/"}`).WantError(
		t, http.StatusNotFound, apierr.AdmNotFound)

	api.createProfile(svc.ServiceID, map[string]any{"name": "a", "endpointUrl": "http://x/"})
	api.Do("POST", create, operatorEmail, `{"name":"a","endpointUrl":"http://y/"}`).WantFieldError(
		t, http.StatusConflict, apierr.AdmAlreadyExists, "name")

	p := api.createProfile(svc.ServiceID, map[string]any{"endpointUrl": "https://x/", "mtlsEnabled": true,
		"clientCertPem": pki.ClientCertPEM, "caCertPem": pki.CAPEM, "credentials": map[string]any{"clientKeyPem": pki.ClientKeyPEM}})
	if !p.MTLSEnabled || !p.Credentials.ClientKeyPEM.Set || p.ClientCertPEM != pki.ClientCertPEM || p.Name != "default" {
		t.Errorf("mTLS profile = %+v", p)
	}
	api.Do("PATCH", profilePath(p.ProfileID), operatorEmail, jsonBody(t, map[string]any{"clientCertPem": pki.ServerCertPEM})).WantFieldError(
		t, http.StatusBadRequest, apierr.ValBadRequest, "credentials.clientKeyPem")

}
