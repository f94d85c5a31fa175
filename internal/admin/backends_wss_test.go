package admin

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/admin/backends"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
	"github.com/s2r-project/s2r/internal/tests/loopback"
)

const secretWSSPassword = "wss-Secret-4e1d2c"

func TestBackendProfileWSSecurityValidation(t *testing.T) {
	api := newTestAPI(t, storetest.SQLite(t))
	svc := api.createService(map[string]any{"serviceKey": "calc", "environment": "dev"})
	id, other := loopback.NewRSAIdentity(t, "signer"), loopback.NewRSAIdentity(t, "other")
	create := Prefix + "/services/" + svc.ServiceID + "/backend-profiles"
	sig := map[string]any{"certificatePem": id.CertPEM}
	tests := []struct {
		name    string
		members map[string]any
		field   string
	}{
		{"not an object", map[string]any{"wsSecurity": "yes"}, "wsSecurity"},
		{"unknown member", map[string]any{"wsSecurity": map[string]any{"kerberos": true}}, "wsSecurity.kerberos"},
		{"wrong type", map[string]any{"wsSecurity": map[string]any{"mustUnderstand": "1"}}, "wsSecurity.mustUnderstand"},
		{"no username", map[string]any{"wsSecurity": map[string]any{"usernameToken": map[string]any{}}}, "wsSecurity.usernameToken.username"},
		{"bad password type", map[string]any{"wsSecurity": map[string]any{"usernameToken": map[string]any{"username": "u",
			"passwordType": "Plain"}}, "credentials": map[string]any{"wssPassword": "x"}}, "wsSecurity.usernameToken.passwordType"},
		{"token without password", map[string]any{"wsSecurity": map[string]any{"usernameToken": map[string]any{"username": "u"}}},
			"credentials.wssPassword"},
		{"ttl range", map[string]any{"wsSecurity": map[string]any{"timestamp": map[string]any{"ttlSeconds": 0}}}, "wsSecurity.timestamp.ttlSeconds"},
		{"bad certificate", map[string]any{"wsSecurity": map[string]any{"signature": map[string]any{"certificatePem": "nope"}}},
			"wsSecurity.signature.certificatePem"},
		{"signature without key", map[string]any{"wsSecurity": map[string]any{"signature": sig}}, "credentials.wssSigningKeyPem"},
		{"key not matching", map[string]any{"wsSecurity": map[string]any{"signature": sig},
			"credentials": map[string]any{"wssSigningKeyPem": other.KeyPEM}}, "credentials.wssSigningKeyPem"},
		{"bad algorithm", map[string]any{"wsSecurity": map[string]any{"signature": map[string]any{"certificatePem": id.CertPEM,
			"signatureAlgorithm": "dsa"}}, "credentials": map[string]any{"wssSigningKeyPem": id.KeyPEM}}, "wsSecurity.signature.signatureAlgorithm"},
		{"sign missing timestamp", map[string]any{"wsSecurity": map[string]any{"signature": map[string]any{"certificatePem": id.CertPEM,
			"signParts": []string{"Body", "Timestamp"}}}, "credentials": map[string]any{"wssSigningKeyPem": id.KeyPEM}}, "wsSecurity.signature.signParts"},
		{"addressing type", map[string]any{"wsAddressing": "true"}, "wsAddressing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.members["endpointUrl"] = "http://x/"
			api.Do("POST", create, operatorEmail, jsonBody(t, tt.members)).WantFieldError(t, http.StatusBadRequest, apierr.ValBadRequest, tt.field)
		})
	}
}

func TestBackendProfileWSSecurityLifecycle(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		svc := api.createService(map[string]any{"serviceKey": "calc", "environment": "dev"})
		id, other := loopback.NewRSAIdentity(t, "signer"), loopback.NewRSAIdentity(t, "other")
		r := api.Do("POST", Prefix+"/services/"+svc.ServiceID+"/backend-profiles", operatorEmail, jsonBody(t, map[string]any{
			"endpointUrl": "http://10.0.0.5/calc", "wsAddressing": true,
			"wsSecurity": map[string]any{"usernameToken": map[string]any{"username": "svc-user", "passwordType": "PasswordDigest"},
				"timestamp": map[string]any{"ttlSeconds": 300}, "mustUnderstand": true,
				"signature": map[string]any{"certificatePem": id.CertPEM, "keyIdentifier": "IssuerSerial"}},
			"credentials": map[string]any{"wssPassword": secretWSSPassword, "wssSigningKeyPem": id.KeyPEM},
		})).WantStatus(t, http.StatusCreated)
		answers := [][]byte{r.Body}
		var p model.BackendProfile
		r.Decode(t, &p)
		w := p.WSSecurity
		if w == nil || w.UsernameToken.Username != "svc-user" || w.Signature.KeyIdentifier != "IssuerSerial" || !p.WSAddressing ||
			!p.Credentials.WSSPassword.Set || !p.Credentials.WSSSigningKeyPEM.Set || p.Credentials.WSSPassword.LastUpdatedBy == nil {
			t.Fatalf("created = %+v", p)
		}
		stored, err := st.BackendProfile(context.Background(), p.ProfileID)
		if err != nil {
			t.Fatal(err)
		}
		plain, err := api.box.Open(stored.Credentials.WSSPassword.Sealed(), model.CredentialAAD(p.ProfileID, model.CredWSSPassword))
		if err != nil || string(plain) != secretWSSPassword {
			t.Errorf("sealed wssPassword opens to %q, %v", plain, err)
		}
		r = api.Do("GET", Prefix+"/services/"+svc.ServiceID+"/backend-profiles", readerEmail, "").WantStatus(t, http.StatusOK)
		answers = append(answers, r.Body)

		// A new certificate is checked against the stored key.
		api.Do("PATCH", profilePath(p.ProfileID), operatorEmail, jsonBody(t, map[string]any{
			"wsSecurity": map[string]any{"signature": map[string]any{"certificatePem": other.CertPEM}}})).WantFieldError(
			t, http.StatusBadRequest, apierr.ValBadRequest, "credentials.wssSigningKeyPem")
		// Clearing the password a UsernameToken needs is refused.
		api.Do("PATCH", profilePath(p.ProfileID), operatorEmail, `{"credentials":{"wssPassword":null}}`).WantFieldError(
			t, http.StatusBadRequest, apierr.ValBadRequest, "credentials.wssPassword")
		// A certificate and key changed together are accepted.
		r = api.Do("PATCH", profilePath(p.ProfileID), operatorEmail, jsonBody(t, map[string]any{
			"wsSecurity":  map[string]any{"signature": map[string]any{"certificatePem": other.CertPEM}},
			"credentials": map[string]any{"wssSigningKeyPem": other.KeyPEM}})).WantStatus(t, http.StatusOK)
		answers = append(answers, r.Body)
		// null removes the configuration; the secrets stay until cleared.
		r = api.Do("PATCH", profilePath(p.ProfileID), operatorEmail, `{"wsSecurity":null,"wsAddressing":false}`).WantStatus(t, http.StatusOK)
		answers = append(answers, r.Body)
		r.Decode(t, &p)
		if p.WSSecurity != nil || p.WSAddressing || !p.Credentials.WSSPassword.Set {
			t.Errorf("after removal = %+v", p)
		}
		for _, b := range answers {
			if strings.Contains(string(b), "PRIVATE KEY") {
				t.Errorf("a signing key is in an answer: %.200s", b)
			}
		}
		allSecrets = append(allSecrets, secretWSSPassword)
		defer func() { allSecrets = allSecrets[:len(allSecrets)-1] }()
		api.assertNoSecrets(answers...)
		if strings.Contains(api.logs.String(), "PRIVATE KEY") {
			t.Error("a signing key reached the logs")
		}
	})
}

// TestConnectionExplainsWSSecurityFault: :test-connection sends the
// configured header and explains the backend's WS-Security fault.
func TestConnectionExplainsWSSecurityFault(t *testing.T) {
	api := newTestAPI(t, storetest.SQLite(t))
	svc := api.createService(map[string]any{"serviceKey": "calc", "environment": "dev"})
	api.Do("PATCH", Prefix+"/settings", adminEmail, `{"outbound_allowed_cidrs":["127.0.0.0/8"]}`).WantStatus(t, http.StatusOK)
	var code, reason string
	var sawHeader bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			io.WriteString(w, `<definitions/>`)
			return
		}
		b, _ := io.ReadAll(r.Body)
		sawHeader = strings.Contains(string(b), "<wsse:Username>svc-user</wsse:Username>")
		w.Header().Set("Content-Type", "text/xml")
		w.WriteHeader(http.StatusInternalServerError)
		io.WriteString(w, `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><s:Fault>`+
			`<faultcode xmlns:wsse="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd">`+code+
			`</faultcode><faultstring>`+reason+`</faultstring></s:Fault></s:Body></s:Envelope>`)
	}))
	t.Cleanup(srv.Close)
	p := api.createProfile(svc.ServiceID, map[string]any{"endpointUrl": srv.URL + "/calc",
		"wsSecurity":  map[string]any{"usernameToken": map[string]any{"username": "svc-user"}},
		"credentials": map[string]any{"wssPassword": secretWSSPassword}})
	for _, tt := range []struct{ code, reason, want string }{
		{"wsse:MessageExpired", "The message has expired", "clocks"},
		{"wsse:FailedAuthentication", "The security token could not be authenticated or authorized", "unknown user or wrong password"},
		{"wsse:FailedCheck", "The signature or decryption was invalid (digest mismatch)", "digest"},
		{"wsse:FailedAuthentication", "The signature or decryption was invalid", "refused the signature"},
		{"wsse:InvalidSecurity", "An error was discovered processing the &lt;wsse:Security&gt; header", "could not process"},
		{"s:Client", "no operation for an empty body", ""},
	} {
		code, reason = tt.code, tt.reason
		var rep backends.ConnectionReport
		api.Do("POST", profilePath(p.ProfileID)+":test-connection", operatorEmail, "").WantStatus(t, http.StatusOK).Decode(t, &rep)
		st := rep.Steps[len(rep.Steps)-1]
		if st.Name != "wsSecurity" || !sawHeader {
			t.Fatalf("%s: last step %+v, header sent %v", tt.code, st, sawHeader)
		}
		if tt.want == "" {
			if st.Status != backends.StepOK {
				t.Errorf("non-security fault: %+v", st)
			}
			continue
		}
		if st.Status != backends.StepFailed || !strings.Contains(st.Message, tt.want) {
			t.Errorf("%s %q: step %+v, want %q", tt.code, tt.reason, st, tt.want)
		}
	}
}
