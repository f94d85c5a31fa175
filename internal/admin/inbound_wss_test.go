package admin

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"math/big"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// selfSignedPEM returns a fresh self-signed RSA certificate in PEM.
func selfSignedPEM(t *testing.T, cn string) string {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(7), Subject: pkix.Name{CommonName: cn},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
}

// TestInboundWSS: GET answers mode off until a policy is stored; PUT
// seals passwords (answered as metadata only, kept when omitted), bumps
// the revision, is audited without secrets, and refuses bad fields with
// S2R-VAL-0400 naming them.
func TestInboundWSS(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		svc := api.createService(map[string]any{"serviceKey": "calc", "environment": "dev", "direction": "consume"})
		path := Prefix + "/services/" + svc.ServiceID + "/inbound-ws-security"
		var c model.InboundWSSConfig
		api.Do("GET", path, readerEmail, "").WantStatus(t, http.StatusOK).Decode(t, &c)
		if c.Mode != model.WSSModeOff || len(c.UsernameTokens) != 0 || c.UpdatedAt != nil {
			t.Errorf("initial policy = %+v", c)
		}
		cert := selfSignedPEM(t, "partner-a")
		certJSON, _ := json.Marshal(cert)
		rev := api.revision()
		body := `{"mode":"required","usernameTokens":[{"username":"partner-a","password":"s3cret-pw"}],` +
			`"trustedCertificatesPem":[` + string(certJSON) + `],"requireTimestamp":true,"maxClockSkewSeconds":120}`
		resp := api.Do("PUT", path, operatorEmail, body).WantStatus(t, http.StatusOK)
		if strings.Contains(string(resp.Body), "s3cret-pw") {
			t.Fatalf("PUT answer holds the password: %s", resp.Body)
		}
		if api.revision() != rev+1 {
			t.Errorf("revision %d, want %d", api.revision(), rev+1)
		}
		raw := api.Do("GET", path, readerEmail, "").WantStatus(t, http.StatusOK)
		raw.Decode(t, &c)
		if strings.Contains(string(raw.Body), "s3cret-pw") || strings.Contains(string(raw.Body), "sealed") {
			t.Errorf("GET answer holds the password: %s", raw.Body)
		}
		u := c.UsernameTokens
		if c.Mode != model.WSSModeRequired || len(u) != 1 || u[0].Username != "partner-a" || !u[0].Password.Set ||
			u[0].Password.LastUpdatedBy == nil || *u[0].Password.LastUpdatedBy != operatorEmail ||
			len(c.TrustedCertificatesPEM) != 1 || !c.RequireTimestamp || c.MaxClockSkewSeconds != 120 {
			t.Errorf("stored policy = %s", raw.Body)
		}
		ev := api.lastAudit("inbound_ws_security.update", svc.ServiceID)
		if strings.Contains(string(ev.AfterState), "s3cret-pw") || !strings.Contains(string(ev.AfterState), `"set":true`) {
			t.Errorf("audit after = %s", ev.AfterState)
		}
		sealed := sealedOf(t, st, svc.ServiceID)
		api.Do("PUT", path, operatorEmail, `{"mode":"optional","usernameTokens":[{"username":"partner-a"}]}`).
			WantStatus(t, http.StatusOK)
		if got := sealedOf(t, st, svc.ServiceID); got != sealed {
			t.Error("a PUT without the password did not keep the stored one")
		}
		for _, tt := range []struct{ name, body, field string }{
			{"mode", `{"mode":"sometimes"}`, "mode"},
			{"certificate", `{"mode":"required","trustedCertificatesPem":["-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"]}`, "trustedCertificatesPem[0]"},
			{"skew", `{"maxClockSkewSeconds":-1}`, "maxClockSkewSeconds"},
			{"duplicate", `{"usernameTokens":[{"username":"a","password":"x"},{"username":"a","password":"y"}]}`, "usernameTokens[1]"},
			{"no username", `{"usernameTokens":[{"password":"x"}]}`, "usernameTokens[0]"},
			{"new user without password", `{"usernameTokens":[{"username":"new"}]}`, "usernameTokens[0].password"},
			{"empty password", `{"usernameTokens":[{"username":"new","password":""}]}`, "usernameTokens[0].password"},
			{"unknown", `{"mode":"off","extra":1}`, "extra"},
		} {
			t.Run(tt.name, func(t *testing.T) {
				api.Do("PUT", path, operatorEmail, tt.body).WantFieldError(t, http.StatusBadRequest, apierr.ValBadRequest, tt.field)
			})
		}
		api.Do("PUT", path, readerEmail, `{"mode":"off"}`).WantError(t, http.StatusForbidden, apierr.AdmForbidden)
		pub := api.createService(map[string]any{"serviceKey": "pub", "environment": "dev", "direction": "publish"})
		pubPath := Prefix + "/services/" + pub.ServiceID + "/inbound-ws-security"
		api.Do("PUT", pubPath, operatorEmail, `{"mode":"required"}`).WantFieldError(t, http.StatusBadRequest, apierr.ValBadRequest, "mode")
		api.Do("PUT", pubPath, operatorEmail, `{"mode":"off"}`).WantStatus(t, http.StatusOK)
		api.Do("GET", Prefix+"/services/nope/inbound-ws-security", readerEmail, "").WantError(t, http.StatusNotFound, apierr.AdmNotFound)
	})
}

func sealedOf(t *testing.T, st *store.Store, serviceID string) string {
	t.Helper()
	c, err := st.InboundWSS(t.Context(), serviceID)
	if err != nil || len(c.UsernameTokens) == 0 {
		t.Fatalf("stored policy: %+v, %v", c, err)
	}
	return c.UsernameTokens[0].Password.Sealed()
}
