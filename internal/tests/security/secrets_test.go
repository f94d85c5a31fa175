package security

import (
	"archive/zip"
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/notify/smtptest"
	"github.com/s2r-project/s2r/internal/tests/poll"
	"github.com/s2r-project/s2r/internal/tests/serveproc"
)

// Canary credentials: each set in one secret-bearing field. None may ever
// be read back, logged, exported or stored in the clear.
const (
	canaryUser       = "canary-user"
	canaryPassword   = "CANARYpw-basic-5b1e"
	canaryToken      = "CANARYtok-bearer-83c2"
	canaryAPIKey     = "CANARYkey-apikey-1f7d"
	canaryClient     = "CANARYsecret-oauth-9a40"
	canaryAccess     = "CANARYaccess-issued-2c61" // the token the OAuth2 server issues
	canarySMTP       = "CANARYpw-smtp-77e3"
	canaryInbound    = "CANARYinbound-auth-4d05" // a caller's own Authorization header
	canaryCallback   = "CANARYcallback-secret-6e12"
	canaryWSS        = "CANARYwss-inbound-3a9f" // an inbound WS-Security UsernameToken password
	canaryClientAuth = "Bearer " + canaryInbound
)

// canaries are the strings to hunt: each secret, its base64 form, and
// the basic credential as an Authorization header carries it.
func canaries(keyPEMPart string, extra ...string) map[string]string {
	m := map[string]string{}
	for name, s := range map[string]string{
		"basic password": canaryPassword, "bearer token": canaryToken, "api key": canaryAPIKey,
		"oauth2 client secret": canaryClient, "oauth2 access token": canaryAccess, "smtp password": canarySMTP,
		"inbound authorization": canaryInbound, "mtls client key": keyPEMPart, "callback secret": canaryCallback,
		"inbound ws-security password": canaryWSS,
	} {
		m[s] = name
		m[base64.StdEncoding.EncodeToString([]byte(s))] = name + " (base64)"
	}
	m[base64.StdEncoding.EncodeToString([]byte(canaryUser+":"+canaryPassword))] = "basic credential (base64)"
	for i := 0; i+1 < len(extra); i += 2 {
		m[extra[i]] = extra[i+1]
	}
	return m
}

// hunt reports every canary found in text, naming where.
func hunt(t *testing.T, where string, text []byte, cans map[string]string) {
	t.Helper()
	for c, name := range cans {
		if c != "" && bytes.Contains(text, []byte(c)) {
			t.Errorf("%s holds the %s", where, name)
		}
	}
}

// clientCert returns a self-signed certificate and its private key, PEM,
// and a distinctive part of the key to hunt.
func clientCert(t *testing.T) (certPEM, keyPEM, keyPart string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "sec-client"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certPEM = string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
	keyPEM = string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kder}))
	body := strings.Split(keyPEM, "\n")[2] // the key bits, not the shared ASN.1 prefix
	return certPEM, keyPEM, body[:40]
}

// TestSecretsNeverLeak sets a canary in every secret-bearing field, uses
// every one of them (runtime calls with each auth type, backend tests,
// a test mail to a relay that echoes credentials, debug traces, the
// OpenAPI export) and hunts the canaries in every admin GET answer, the
// runtime answers, the metrics, the whole log at debug level, the OpenAPI
// package, and the database files (which must hold them only encrypted).
func TestSecretsNeverLeak(t *testing.T) {
	for _, db := range serveproc.Databases(t) {
		t.Run(db.Name, func(t *testing.T) { secretsOn(t, db) })
	}
}

func secretsOn(t *testing.T, db serveproc.Database) {
	s := startServer(t, append(db.Env(t), "S2R_LOG_LEVEL=debug")...)
	certPEM, keyPEM, keyPart := clientCert(t)
	cans := canaries(keyPart)
	oauth := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"access_token":%q,"token_type":"Bearer","expires_in":3600}`, canaryAccess)
	}))
	defer oauth.Close()
	sv := s.onboardAll(t)
	pub := sv.publish
	s.admin(t, "PATCH", "/services/"+pub.serviceID, map[string]any{"debugEnabled": true}).WantStatus(t, 200)

	// One profile per auth type, each made the default in turn and called.
	profiles := []map[string]any{
		{"authType": "basic", "username": canaryUser, "credentials": map[string]any{"password": canaryPassword}},
		{"authType": "bearer", "credentials": map[string]any{"token": canaryToken}},
		{"authType": "api_key_header", "apiKeyHeaderName": "X-Api-Key", "credentials": map[string]any{"apiKey": canaryAPIKey}},
		{"authType": "oauth2_client_credentials", "tokenUrl": oauth.URL + "/token", "clientId": "sec-client",
			"credentials": map[string]any{"clientSecret": canaryClient}},
		{"authType": "none", "mtlsEnabled": true, "clientCertPem": certPEM, "credentials": map[string]any{"clientKeyPem": keyPEM}},
	}
	var ids []string
	var cids []string
	for i, p := range profiles {
		p["name"] = fmt.Sprintf("secret %d", i)
		p["endpointUrl"] = sv.backend.URL + "/calc"
		id := admintest.Dig(s.admin(t, "POST", "/services/"+pub.serviceID+"/backend-profiles", p).WantStatus(t, 201).JSON(t), "profileId")
		ids = append(ids, id)
		s.admin(t, "PATCH", "/backend-profiles/"+id, map[string]any{"isDefault": true}).WantStatus(t, 200)
		s.admin(t, "POST", "/backend-profiles/"+id+":test-connection", nil).WantStatus(t, 200)
		s.admin(t, "POST", "/backend-profiles/"+id+":test-application", map[string]any{"operationId": pub.operationIDs["add"],
			"payload": map[string]any{"a": 1, "b": 2}}).WantStatus(t, 200)
		cid := fmt.Sprintf("sec-secret-%d", i)
		cids = append(cids, cid)
		poll.UntilOK(t, settle, "publish through profile "+id, func() string {
			r := s.send(t, request{method: "POST", path: "/publish/dev/secpub/add", ctype: "application/json",
				body: strings.NewReader(`{"a":2,"b":3}`), header: map[string]string{"Authorization": canaryClientAuth,
					"X-Correlation-Id": cid, "X-Debug-Enabled": "true"}})
			hunt(t, "the publish answer", r.Body, cans)
			if r.Status != 200 && i < 4 {
				return fmt.Sprintf("%d %s", r.Status, r.Body)
			}
			return ""
		})
	}
	// Every credential is stored (its metadata says set) ...
	list := s.admin(t, "GET", "/services/"+pub.serviceID+"/backend-profiles", nil).WantStatus(t, 200)
	var items []any
	if err := json.Unmarshal(list.Body, &items); err != nil {
		t.Fatal(err)
	}
	set := map[string]bool{}
	for _, p := range items {
		creds, _ := p.(map[string]any)["credentials"].(map[string]any)
		for name, c := range creds {
			if m, _ := c.(map[string]any); m["set"] == true {
				set[name] = true
			}
		}
	}
	for _, name := range []string{"password", "token", "apiKey", "clientSecret", "clientKeyPem"} {
		if !set[name] {
			t.Errorf("credential %s is not stored: %.500s", name, list.Body)
		}
	}
	// ... and the backend did receive them: the canaries are live.
	var seen bytes.Buffer
	for _, r := range sv.backend.requests() {
		fmt.Fprint(&seen, r.Header)
	}
	for _, want := range []string{canaryToken, canaryAPIKey, canaryAccess} {
		if !strings.Contains(seen.String(), want) {
			t.Errorf("the backend never received %s: the canary is not exercised", want)
		}
	}

	// SMTP password: a test mail to a plain relay, which s2r refuses to
	// send it to (it never sends credentials unencrypted).
	relay := smtptest.Start(t, smtptest.Options{NoTLS: true, Username: "someone-else", Password: "other", EchoCredentials: true})
	s.admin(t, "PATCH", "/settings", map[string]any{"smtp_host": relay.Host, "smtp_port": relay.Port, "smtp_username": canaryUser,
		"smtp_password": canarySMTP, "smtp_tls_mode": "none", "smtp_from": "s2r@example.com", "alert_recipients": []string{"ops@example.com"},
		"outbound_allowed_cidrs": []string{"127.0.0.1/32"}}).WantStatus(t, 200)
	hunt(t, "the test mail answer", s.admin(t, "POST", "/settings:test-alert-mail", nil).WantStatus(t, 200).Body, cans)

	// The async callback secret: callbacks with it, without it, with a
	// wrong one, and as a bearer token.
	if hasRoutes(s, t, "/async-executions") {
		s.onboardAsync(t, canaryCallback)
		for i, hdr := range []map[string]string{
			{"X-S2R-Callback-Secret": canaryCallback}, {"Authorization": "Bearer " + canaryCallback},
			{"X-S2R-Callback-Secret": canaryCallback + "-wrong"}, {},
		} {
			id := admintest.Dig(s.startAsync(t).WantStatus(t, 202).JSON(t), "correlationId")
			cb := soap11(`<AddResponse xmlns="` + calcNS + `"><result>3</result></AddResponse>`)
			cb = strings.Replace(cb, "<s:Body>", `<s:Header><wsa:RelatesTo xmlns:wsa="http://www.w3.org/2005/08/addressing">`+id+
				`</wsa:RelatesTo></s:Header><s:Body>`, 1)
			r := s.send(t, request{method: "POST", path: "/_s2r/callback/dev/secasync/add", ctype: "text/xml",
				body: strings.NewReader(cb), header: hdr})
			if want := map[bool]int{true: 200, false: 401}[i < 2]; r.Status != want {
				t.Errorf("callback %d: %d %s, want %d", i, r.Status, r.Body, want)
			}
			hunt(t, "a callback answer", r.Body, cans)
		}
	}

	// The inbound WS-Security password of a consume service: stored,
	// read back, used by a caller (debug on, so the envelope is captured)
	// and refused when wrong.
	wssPath := "/services/" + sv.consume.serviceID + "/inbound-ws-security"
	s.admin(t, "PATCH", "/services/"+sv.consume.serviceID, map[string]any{"debugEnabled": true}).WantStatus(t, 200)
	hunt(t, "the inbound WS-Security PUT answer", s.admin(t, "PUT", wssPath, map[string]any{"mode": "required",
		"usernameTokens": []any{map[string]any{"username": canaryUser, "password": canaryWSS}}}).WantStatus(t, 200).Body, cans)
	hunt(t, "GET "+wssPath, s.admin(t, "GET", wssPath, nil).WantStatus(t, 200).Body, cans)
	for _, pw := range []string{canaryWSS, canaryWSS + "-wrong"} {
		env := strings.Replace(soap11(`<Add xmlns="`+calcNS+`"><a>1</a><b>2</b></Add>`), "<s:Body>",
			`<s:Header><o:Security xmlns:o="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd">`+
				`<o:UsernameToken><o:Username>`+canaryUser+`</o:Username><o:Password>`+pw+`</o:Password></o:UsernameToken>`+
				`</o:Security></s:Header><s:Body>`, 1)
		poll.UntilOK(t, settle, "inbound WS-Security applied", func() string {
			r := s.send(t, request{method: "POST", path: "/consume/dev/" + sv.consume.serviceKey, ctype: "text/xml",
				body: strings.NewReader(env)})
			hunt(t, "a consume answer", r.Body, cans)
			if (pw == canaryWSS) != (r.Status == 200) {
				return fmt.Sprintf("%d %.300s", r.Status, r.Body)
			}
			return ""
		})
	}

	// The ingest token: shown once at registration, then only hashed.
	if ingestServed(t, s) {
		token := s.registerInstance(t, "sec-secrets", "")
		s.ingestWith(t, "/ingest/v1/lb-events", token, lbEvent("/sec/secrets"), "payload", fixed("<x/>"), false).WantStatus(t, 200)
		s.send(t, request{method: "POST", path: "/ingest/v1/heartbeat", header: map[string]string{"Authorization": "Bearer " + token}})
		wrong := s.send(t, request{method: "POST", path: "/ingest/v1/heartbeat", header: map[string]string{"Authorization": "Bearer " + token + "x"}})
		if wrong.Status != 401 {
			t.Errorf("a wrong ingest token: %d", wrong.Status)
		}
		hunt(t, "an ingest answer to a wrong token", wrong.Body, map[string]string{token: "ingest token"})
		cans[token] = "ingest token"
		cans[base64.StdEncoding.EncodeToString([]byte(token))] = "ingest token (base64)"
	}

	// The OpenAPI export.
	s.admin(t, "POST", "/services/"+pub.serviceID+"/versions/"+pub.versionID+":generate-openapi", nil)
	pkg := s.admin(t, "GET", "/services/"+pub.serviceID+"/versions/"+pub.versionID+"/openapi/package", nil)
	if pkg.Status == 200 {
		zr, err := zip.NewReader(bytes.NewReader(pkg.Body), int64(len(pkg.Body)))
		if err != nil {
			t.Fatalf("OpenAPI package: %v", err)
		}
		for _, f := range zr.File {
			rc, _ := f.Open()
			b, _ := io.ReadAll(rc)
			rc.Close()
			hunt(t, "the OpenAPI package's "+f.Name, b, cans)
		}
	}

	// Every admin GET, with the ids of what exists.
	params := map[string][]string{"serviceId": {pub.serviceID}, "versionId": {pub.versionID}, "profileId": ids,
		"operationId": {pub.operationIDs["add"]}, "correlationId": cids}
	for _, rt := range adminRoutes(t, s) {
		if rt.Method != "GET" {
			continue
		}
		for _, path := range expandPath(rt.Path, params) {
			r := s.admin(t, "GET", path, nil)
			if r.Status >= 500 {
				t.Errorf("GET %s: %d %.300s", path, r.Status, r.Body)
			}
			hunt(t, "GET "+path, r.Body, cans)
		}
	}
	m := s.send(t, request{method: "GET", path: "/metrics"})
	hunt(t, "/metrics", m.Body, cans)
	s.hunting(t, cans)
}

// hunting ends the server and hunts the canaries in its log and its
// database.
func (s *server) hunting(t *testing.T, cans map[string]string) {
	t.Helper()
	time.Sleep(300 * time.Millisecond) // the recorder writes asynchronously
	s.stop()
	hunt(t, "the log", []byte(s.logText()), cans)
	for where, b := range s.databaseText(t) {
		hunt(t, where, b, cans)
	}
}

// expandPath fills rt's wildcards with every known value of each.
func expandPath(path string, params map[string][]string) []string {
	out := []string{path}
	for _, m := range wildcard.FindAllStringSubmatch(path, -1) {
		vals := params[m[1]]
		if len(vals) == 0 {
			vals = []string{placeholder(m[1])}
		}
		var next []string
		for _, p := range out {
			for _, v := range vals {
				next = append(next, strings.Replace(p, m[0], v, 1))
			}
		}
		out = next
	}
	return out
}
