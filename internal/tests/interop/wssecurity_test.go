package interop

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/tests/poll"
	"github.com/s2r-project/s2r/internal/tests/serveproc"
)

const nsWSSE = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd"

// wssKeys writes a fresh RSA key and self-signed certificate (subject
// CN=partner-cert,O=Example) as PEM files and returns their paths and the
// certificate's PEM.
func wssKeys(t *testing.T) (keyFile, certFile, certPEM string) {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(42),
		Subject:   pkix.Name{CommonName: "partner-cert", Organization: []string{"Example"}},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, SubjectKeyId: []byte{1, 2, 3, 4}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	keyFile, certFile = filepath.Join(dir, "key.pem"), filepath.Join(dir, "cert.pem")
	certPEM = string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
	keyPEM := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)})
	if err := os.WriteFile(keyFile, keyPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(certFile, []byte(certPEM), 0o600); err != nil {
		t.Fatal(err)
	}
	return keyFile, certFile, certPEM
}

// wcfRequest is a GetOrder as WCF sends it with a UsernameToken over
// transport: a mustUnderstand="1" Security header with a Timestamp.
func wcfRequest() string {
	now := time.Now().UTC()
	return `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" xmlns:u="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd">` +
		`<s:Header><o:Security s:mustUnderstand="1" xmlns:o="` + nsWSSE + `"><u:Timestamp u:Id="_0"><u:Created>` +
		now.Format("2006-01-02T15:04:05.000Z") + `</u:Created><u:Expires>` + now.Add(5*time.Minute).Format("2006-01-02T15:04:05.000Z") +
		`</u:Expires></u:Timestamp><o:UsernameToken u:Id="uuid-1"><o:Username>someone</o:Username><o:Password>whatever</o:Password>` +
		`</o:UsernameToken></o:Security></s:Header><s:Body><GetOrder xmlns="urn:example:orders"><id>7</id></GetOrder></s:Body></s:Envelope>`
}

// postSOAP posts a SOAP 1.1 envelope to url and returns the status and
// answer.
func postSOAP(t *testing.T, url, env string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("POST", url, strings.NewReader(env))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "text/xml; charset=utf-8")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// wssResult is what wss_client.py reports: the result or the fault.
type wssResult struct {
	Result map[string]any `json:"result"`
	Fault  struct {
		Code     string   `json:"code"`
		Subcodes []string `json:"subcodes"`
		Message  string   `json:"message"`
	} `json:"fault"`
}

// putInboundPolicy stores policy on service id and waits until the
// consume URL refuses a request without a header.
func putInboundPolicy(t *testing.T, base, id, url string, policy map[string]any) {
	t.Helper()
	admin(t, base, "PUT", "/services/"+id+"/inbound-ws-security", policy, http.StatusOK, nil)
	plain := `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><GetOrder xmlns="urn:example:orders"><id>7</id></GetOrder></s:Body></s:Envelope>`
	poll.Until(t, 10*time.Second, "inbound policy applied", func() bool {
		_, body := postSOAP(t, url, plain)
		return strings.Contains(body, "wsse:InvalidSecurity")
	})
}

// TestConsumeWSSecurityClients: a consume service with mode required
// accepts zeep's UsernameToken (text and digest), Signature and BinarySignature by a
// trusted certificate and the npm soap package's WSSecurity and
// WSSecurityCert; it refuses a wrong password (FailedAuthentication), an
// expired Timestamp (MessageExpired), a replayed nonce and a signature
// wrapping attempt (InvalidSecurity) without calling the backend. With
// mode off a WCF-style mustUnderstand Security header is accepted.
func TestConsumeWSSecurityClients(t *testing.T) {
	py := zeepPython(t)
	if err := exec.Command(py, "-c", "import xmlsec").Run(); err != nil {
		missing(t, "python3-xmlsec (for zeep's BinarySignature)")
	}
	rest := newRESTOrders(t)
	base := startS2R(t)
	auto := importOrdersDraft(t, base, rest, "orders", "orders.wsdl", "xsd/orders-types.xsd")
	wsdlURL := activateOrders(t, base, auto, "orders")
	url := base + "/consume/dev/orders"

	if status, body := postSOAP(t, url, wcfRequest()); status != 200 || !strings.Contains(body, "GetOrderResponse") {
		t.Fatalf("mode off, WCF-style mustUnderstand header: %d %s", status, body)
	}

	keyFile, certFile, certPEM := wssKeys(t)
	putInboundPolicy(t, base, auto.Service.ServiceID, url, map[string]any{"mode": "required",
		"usernameTokens":         []any{map[string]any{"username": "partner-a", "password": "pw-a"}},
		"trustedCertificatesPem": []string{certPEM}, "maxClockSkewSeconds": 300})

	zeep := func(action, user, pw string) wssResult {
		t.Helper()
		script := filepath.Join(serveproc.RepoRoot(), "test", "interop", "python", "wss_client.py")
		var r wssResult
		decode(t, runTool(t, "", py, script, wsdlURL, action, user, pw, keyFile, certFile), &r)
		return r
	}
	for _, c := range []struct{ name, action, user, pw, wantCode string }{
		{"zeep text", "text", "partner-a", "pw-a", ""},
		{"zeep digest", "digest", "partner-a", "pw-a", ""},
		{"zeep binary signature", "binsig", "", "", ""},
		{"zeep signature, X509Data key info", "sig", "", "", ""},
		{"zeep wrong password", "text", "partner-a", "nope", "wsse:FailedAuthentication"},
		{"zeep unknown user digest", "digest", "mallory", "pw-a", "wsse:FailedAuthentication"},
		{"zeep expired timestamp", "expired", "partner-a", "pw-a", "wsse:MessageExpired"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := zeep(c.action, c.user, c.pw)
			if c.wantCode == "" {
				if r.Result == nil || !strings.Contains(mustJSON(r.Result), "9223372036854775807") {
					t.Errorf("want the order, got %+v", r)
				}
				return
			}
			if r.Fault.Code != c.wantCode || !strings.Contains(r.Fault.Message, "S2R-RUN-0407") {
				t.Errorf("want fault %s with S2R-RUN-0407, got %+v", c.wantCode, r)
			}
		})
	}
	t.Run("zeep SOAP 1.2 wrong password", func(t *testing.T) {
		r := zeep("text12", "partner-a", "nope")
		if r.Fault.Code != "env:Sender" || len(r.Fault.Subcodes) != 1 || r.Fault.Subcodes[0] != "{"+nsWSSE+"}FailedAuthentication" {
			t.Errorf("want Sender / wsse:FailedAuthentication, got %+v", r)
		}
	})
	t.Run("replayed digest", func(t *testing.T) {
		var e struct{ Envelope string }
		decode(t, runTool(t, "", py, filepath.Join(serveproc.RepoRoot(), "test", "interop", "python", "wss_client.py"),
			wsdlURL, "digest-envelope", "partner-a", "pw-a"), &e)
		if status, body := postSOAP(t, url, e.Envelope); status != 200 {
			t.Fatalf("first send: %d %s", status, body)
		}
		if status, body := postSOAP(t, url, e.Envelope); status != 500 || !strings.Contains(body, "wsse:InvalidSecurity") {
			t.Errorf("replay: %d %s", status, body)
		}
	})
	t.Run("signature wrapping", func(t *testing.T) {
		var e struct{ Envelope string }
		decode(t, runTool(t, "", py, filepath.Join(serveproc.RepoRoot(), "test", "interop", "python", "wss_client.py"),
			wsdlURL, "wrapped-envelope", "", "", keyFile, certFile), &e)
		status, body := postSOAP(t, url, e.Envelope)
		if status != 500 || !strings.Contains(body, "wsse:InvalidSecurity") {
			t.Errorf("wrapped: %d %s", status, body)
		}
		rest.mu.Lock()
		defer rest.mu.Unlock()
		for _, u := range rest.uris {
			if strings.Contains(u, "666") {
				t.Errorf("the backend was called with the attacker's Body: %s", u)
			}
		}
	})

	t.Run("identity in the runtime logs", func(t *testing.T) {
		poll.Until(t, 10*time.Second, "consumer identities recorded", func() bool {
			var page struct {
				Items []struct {
					ConsumerIdentity string `json:"consumerIdentity"`
				} `json:"items"`
			}
			admin(t, base, "GET", "/runtime-logs?serviceKey=orders&pageSize=100", nil, http.StatusOK, &page)
			seen := map[string]bool{}
			for _, it := range page.Items {
				seen[it.ConsumerIdentity] = true
			}
			return seen["partner-a"] && seen["CN=partner-cert,O=Example"]
		})
	})

	dir := nodeDir(t)
	for _, c := range []struct{ name, mode, a, b string }{
		{"node-soap WSSecurity text", "text", "partner-a", "pw-a"},
		{"node-soap WSSecurity digest", "digest", "partner-a", "pw-a"},
		{"node-soap WSSecurityCert", "cert", keyFile, certFile},
	} {
		t.Run(c.name, func(t *testing.T) {
			var r struct {
				Result map[string]any `json:"result"`
				Fault  any            `json:"fault"`
			}
			decode(t, runNode(t, dir, "wss_client.js", wsdlURL, c.mode, c.a, c.b), &r)
			// node-soap reads the numbers as JavaScript numbers: compare a text field.
			if r.Result == nil || !strings.Contains(mustJSON(r.Result), "only one") {
				t.Errorf("want the order, got %+v", r)
			}
		})
	}
	t.Run("node-soap wrong password", func(t *testing.T) {
		out := string(runNode(t, dir, "wss_client.js", wsdlURL, "text", "partner-a", "nope"))
		if !strings.Contains(out, "wsse:FailedAuthentication") {
			t.Errorf("want a FailedAuthentication fault, got %s", out)
		}
	})
}

// TestWSSecurityReplayAcrossInstances: two s2r instances on one
// PostgreSQL share the nonce table, so a zeep PasswordDigest envelope
// accepted by one is refused by the other as a replay (InvalidSecurity).
// It runs only with a PostgreSQL server (scripts/with-postgres.sh).
func TestWSSecurityReplayAcrossInstances(t *testing.T) {
	py := zeepPython(t)
	dbs := serveproc.Databases(t)
	if len(dbs) < 2 {
		t.Skip("needs PostgreSQL: run under scripts/with-postgres.sh")
	}
	dbEnv := dbs[1].Env(t)
	start := func() string {
		p := serveproc.Start(t, s2rBinary(t), serveproc.Env(t.TempDir(), adminEmail, append(dbEnv, "S2R_PUBLIC_BASE_URL=")...))
		t.Cleanup(func() {
			if t.Failed() {
				t.Logf("s2r logs:\n%s", serveproc.Tail(p.Log(), 4000))
			}
		})
		return p.Base
	}
	a := start()
	b := start()
	rest := newRESTOrders(t)
	auto := importOrdersDraft(t, a, rest, "orders", "orders.wsdl", "xsd/orders-types.xsd")
	wsdlURL := activateOrders(t, a, auto, "orders")
	policy := map[string]any{"mode": "required",
		"usernameTokens": []any{map[string]any{"username": "partner-a", "password": "pw-a"}}}
	putInboundPolicy(t, a, auto.Service.ServiceID, a+"/consume/dev/orders", policy)
	// b sees the same revision through LISTEN/NOTIFY or its poll.
	plain := `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><GetOrder xmlns="urn:example:orders"><id>7</id></GetOrder></s:Body></s:Envelope>`
	poll.Until(t, 10*time.Second, "policy applied on the second instance", func() bool {
		_, body := postSOAP(t, b+"/consume/dev/orders", plain)
		return strings.Contains(body, "wsse:InvalidSecurity")
	})
	var e struct{ Envelope string }
	decode(t, runTool(t, "", py, filepath.Join(serveproc.RepoRoot(), "test", "interop", "python", "wss_client.py"),
		wsdlURL, "digest-envelope", "partner-a", "pw-a"), &e)
	if status, body := postSOAP(t, a+"/consume/dev/orders", e.Envelope); status != 200 {
		t.Fatalf("first send to instance A: %d %s", status, body)
	}
	if status, body := postSOAP(t, b+"/consume/dev/orders", e.Envelope); status != 500 || !strings.Contains(body, "wsse:InvalidSecurity") {
		t.Errorf("replay to instance B: %d %s", status, body)
	}
}
