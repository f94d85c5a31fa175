package browser

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/tests/loopback"
)

// secretLine is a line from the middle of a PEM key: text that appears in
// nothing but the key, to look for in answers and pages.
func secretLine(k loopback.RSAIdentity) string { return strings.Split(k.KeyPEM, "\n")[5] }

// tempFile writes content to a file of the test's temporary directory, for
// a file input to choose.
func tempFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// wssFaultBackend is a SOAP 1.1 endpoint on 127.0.0.1 that refuses every
// request with a WS-Security fault, as WSS4J and WCF answer one: the fault
// code is set by the test, the last request body is kept.
type wssFaultBackend struct {
	*httptest.Server
	mu     sync.Mutex
	code   string // FailedAuthentication, MessageExpired, …
	reason string
	last   string // the last POSTed envelope
}

func newWSSFaultBackend(t *testing.T) *wssFaultBackend {
	b := &wssFaultBackend{code: "FailedAuthentication", reason: "The security token could not be authenticated or authorized"}
	b.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		b.mu.Lock()
		code, reason := b.code, b.reason
		if r.Method == http.MethodPost {
			b.last = string(body)
		}
		b.mu.Unlock()
		w.Header().Set("Content-Type", "text/xml; charset=utf-8")
		w.WriteHeader(http.StatusInternalServerError)
		fmt.Fprintf(w, `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault>`+
			`<faultcode xmlns:wsse="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd">wsse:%s</faultcode>`+
			`<faultstring>%s</faultstring></soap:Fault></soap:Body></soap:Envelope>`, code, reason)
	}))
	t.Cleanup(b.Close)
	return b
}

func (b *wssFaultBackend) refuse(code, reason string) {
	b.mu.Lock()
	b.code, b.reason = code, reason
	b.mu.Unlock()
}

func (b *wssFaultBackend) lastRequest() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.last
}

// controlJS is the JavaScript expression of the control a label names.
func controlJS(label string) string {
	return fmt.Sprintf(`document.getElementById(document.evaluate('//label[normalize-space()=%q]', document, null, 9, null).singleNodeValue.htmlFor)`, label)
}

// labelValue reads the value of the control a label names.
func labelValue(t *testing.T, ctx context.Context, label string) string {
	t.Helper()
	return value(t, ctx, "read "+label, chromedp.Evaluate[string](controlJS(label)+".value"))
}

// labelNote reads the hint and the error shown with the control a label
// names.
func labelNote(t *testing.T, ctx context.Context, label string) (hint, fieldErr string) {
	t.Helper()
	v := value(t, ctx, "read the notes of "+label, chromedp.Evaluate[[]string](fmt.Sprintf(`(() => { const f = %s.closest('.field');
		const text = (sel) => (f.querySelector(sel) || {}).textContent || ''; return [text('.hint'), text('.field-error')]; })()`, controlJS(label))))
	return strings.TrimSpace(v[0]), strings.TrimSpace(v[1])
}

// isChecked reports whether the checkbox at an XPath is checked.
func isChecked(t *testing.T, ctx context.Context, xpath string) bool {
	t.Helper()
	return value(t, ctx, "read "+xpath, chromedp.Evaluate[bool](fmt.Sprintf(`document.evaluate(%q, document, null, 9, null).singleNodeValue.checked`, xpath)))
}

// signedPart is the checkbox of one part in the form's "Signed parts".
func signedPart(part string) string {
	return `//fieldset[legend="Signed parts"]//label[normalize-space()="` + part + `"]/input`
}

// waitValue waits until the control a label names holds want (a file
// input fills it asynchronously).
func waitValue(label, want string) chromedp.Action[chromedp.Void] {
	return chromedp.Poll[chromedp.Void](fmt.Sprintf(`%s.value === %q`, controlJS(label), want), chromedp.WithPollingTimeout(10*time.Second))
}

const (
	keyLabel  = "WS-Security signing key (PEM) (write-only)"
	certLabel = "Signing certificate (PEM)"
	// keyFile and certFile are the file inputs of the key and certificate.
	keyFile  = `//label[starts-with(normalize-space(), "Or choose a file")]/input[@type="file"]`
	certFile = `//div[label[normalize-space()="Certificate file"]]/input[@type="file"]`
)

// wssProfile is what the tests read back of a profile with WS-Security.
type wssProfile struct {
	WSSecurity *struct {
		MustUnderstand bool
		UsernameToken  *struct{ Username, PasswordType string }
		Timestamp      *struct{ TTLSeconds int }
		Signature      *struct {
			CertificatePem, KeyIdentifier, SignatureAlgorithm, DigestAlgorithm string
			SignParts                                                          []string
		}
	}
	Credentials map[string]map[string]any
}

// TestProfileSignatureThroughTheForm fills a backend profile's X.509
// signature in the form (certificate pasted, key pasted and then chosen as
// a file): a key that does not match the certificate is refused with the
// API's reason under the key field and nothing saved; the matching key is
// saved, answered only as set, and the form reopens with everything as
// saved but the key. A new certificate without its key is refused too.
func TestProfileSignatureThroughTheForm(t *testing.T) {
	f := setup(t)
	good, other := loopback.NewRSAIdentity(t, "s2r-orders"), loopback.NewRSAIdentity(t, "someone-else")
	id := onboardByAPI(t, f, "wss-sign")
	backend := newWSSFaultBackend(t)
	var list []struct{ ProfileID string }
	f.admin(t, devAdmin, "GET", "/services/"+id+"/backend-profiles", nil, 200, &list)
	profileID := list[0].ProfileID
	f.admin(t, devAdmin, "PATCH", "/backend-profiles/"+profileID, map[string]any{"endpointUrl": backend.URL}, 200, nil)
	read := func() (wssProfile, string) {
		raw := admintest.NewClient(t, f.base).DoJSON("GET", "/admin/v1/services/"+id+"/backend-profiles", devAdmin, nil).WantStatus(t, 200)
		var ps []wssProfile
		raw.Decode(t, &ps)
		return ps[0], string(raw.Body)
	}

	ctx := f.tab(t, "")
	run(t, ctx, "fill the WS-Security signature with a key of another certificate",
		chromedp.Navigate(f.base+"/console/services/"+id+"?tab=backends"),
		chromedp.Click(chromedp.Search(`//tr//button[normalize-space()="Edit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#profile-form`)),
		check("Add a WS-Security header to every call"),
		chromedp.WaitVisible(chromedp.Search(`//label[normalize-space()="Username token"]`)),
		check("Username token"),
		chromedp.WaitVisible(chromedp.Search(`//label[normalize-space()="Password type"]`)),
		fillLabel("Username", "svc-signer"),
		fillLabel("Password type", "PasswordDigest"),
		fillLabel("WS-Security password (write-only)", "sign-s3cret"),
		check("Timestamp"),
		chromedp.WaitVisible(chromedp.Search(`//label[normalize-space()="Timestamp lifetime (s)"]`)),
		fillLabel("Timestamp lifetime (s)", "90"),
		check("Signature (X.509)"),
		chromedp.WaitVisible(chromedp.Search(`//label[normalize-space()="`+certLabel+`"]`)),
		fillLabel(certLabel, good.CertPEM),
		fillLabel("Key identifier", "SubjectKeyIdentifier"),
		fillLabel("Signature algorithm", "rsa-sha1"),
		fillLabel("Digest algorithm", "sha1"),
		chromedp.Click(chromedp.Search(signedPart("Timestamp"))),
		chromedp.Click(chromedp.Search(signedPart("UsernameToken"))),
		fillLabel(keyLabel, other.KeyPEM),
		chromedp.Click(chromedp.Search(byText("button", "Save profile"))),
		chromedp.WaitVisible(chromedp.CSS(`section[aria-labelledby="profile-form"] [role=alert]`)))
	if _, e := labelNote(t, ctx, keyLabel); !strings.Contains(e, "does not match wsSecurity.signature.certificatePem") {
		t.Errorf("error under the key field = %q", e)
	}
	if box := textOf(t, ctx, `section[aria-labelledby="profile-form"] [role=alert]`); !strings.Contains(box, "S2R-VAL-0400") || !strings.Contains(box, "credentials.wssSigningKeyPem") {
		t.Errorf("error box = %q", box)
	}
	if p, _ := read(); p.WSSecurity != nil || p.Credentials["wssSigningKeyPem"]["set"] != false || p.Credentials["wssPassword"]["set"] != false {
		t.Errorf("a refused save changed the profile: wsSecurity %+v, credentials %v", p.WSSecurity, p.Credentials)
	}

	run(t, ctx, "choose the matching key as a file and save",
		chromedp.SetUploadFiles(chromedp.Search(keyFile), []string{tempFile(t, "wss-key.pem", good.KeyPEM)}),
		waitValue(keyLabel, good.KeyPEM),
		chromedp.Click(chromedp.Search(byText("button", "Save profile"))),
		chromedp.WaitVisible(chromedp.Search(`//*[@role="status" and contains(., "Backend profile saved")]`)))
	p, raw := read()
	w := p.WSSecurity
	if w == nil || w.Signature == nil || strings.TrimSpace(w.Signature.CertificatePem) != strings.TrimSpace(good.CertPEM) ||
		w.Signature.KeyIdentifier != "SubjectKeyIdentifier" || w.Signature.SignatureAlgorithm != "rsa-sha1" || w.Signature.DigestAlgorithm != "sha1" ||
		strings.Join(w.Signature.SignParts, ",") != "Body,UsernameToken" {
		t.Fatalf("wsSecurity = %+v (signature %+v)", w, w.Signature)
	}
	if w.UsernameToken == nil || w.UsernameToken.Username != "svc-signer" || w.UsernameToken.PasswordType != "PasswordDigest" ||
		w.Timestamp == nil || w.Timestamp.TTLSeconds != 90 || !w.MustUnderstand {
		t.Errorf("wsSecurity = %+v", w)
	}
	key := p.Credentials["wssSigningKeyPem"]
	if key["set"] != true || key["lastUpdatedBy"] != devAdmin {
		t.Errorf("credentials.wssSigningKeyPem = %v", key)
	}
	for k := range key {
		if k != "set" && k != "lastUpdatedAt" && k != "lastUpdatedBy" {
			t.Errorf("credentials.wssSigningKeyPem answers %q", k)
		}
	}
	if strings.Contains(raw, "PRIVATE KEY") || strings.Contains(raw, secretLine(good)) || strings.Contains(raw, "sign-s3cret") {
		t.Errorf("the API answers the signing key or password")
	}

	run(t, ctx, "open the form again",
		chromedp.Click(chromedp.Search(`//tr//button[normalize-space()="Edit"]`)),
		chromedp.WaitVisible(chromedp.Search(`//label[normalize-space()="`+certLabel+`"]`)))
	if got := labelValue(t, ctx, certLabel); strings.TrimSpace(got) != strings.TrimSpace(good.CertPEM) {
		t.Errorf("certificate field = %q", got)
	}
	if hint, _ := labelNote(t, ctx, keyLabel); labelValue(t, ctx, keyLabel) != "" || !strings.Contains(hint, "Currently set") {
		t.Errorf("key field: value %q, hint %q; want empty and set", labelValue(t, ctx, keyLabel), hint)
	}
	for label, want := range map[string]string{"Username": "svc-signer", "Password type": "PasswordDigest", "Timestamp lifetime (s)": "90",
		"Key identifier": "SubjectKeyIdentifier", "Signature algorithm": "rsa-sha1", "Digest algorithm": "sha1"} {
		if got := labelValue(t, ctx, label); got != want {
			t.Errorf("%s = %q, want %q", label, got, want)
		}
	}
	for part, want := range map[string]bool{"Body": true, "Timestamp": false, "UsernameToken": true} {
		if got := isChecked(t, ctx, signedPart(part)); got != want {
			t.Errorf("signed part %s checked = %v, want %v", part, got, want)
		}
	}
	if html := value(t, ctx, "page", chromedp.OuterHTML(chromedp.CSS("html"))); strings.Contains(html, secretLine(good)) || strings.Contains(html, "sign-s3cret") {
		t.Errorf("the page shows the signing key or password")
	}

	run(t, ctx, "choose another certificate without its key",
		chromedp.SetUploadFiles(chromedp.Search(certFile), []string{tempFile(t, "other-cert.pem", other.CertPEM)}),
		waitValue(certLabel, other.CertPEM),
		chromedp.Click(chromedp.Search(byText("button", "Save profile"))),
		chromedp.WaitVisible(chromedp.CSS(`section[aria-labelledby="profile-form"] [role=alert]`)))
	if _, e := labelNote(t, ctx, keyLabel); !strings.Contains(e, "does not match") {
		t.Errorf("error under the key field = %q", e)
	}
	if p, _ := read(); p.WSSecurity == nil || p.WSSecurity.Signature == nil || strings.TrimSpace(p.WSSecurity.Signature.CertificatePem) != strings.TrimSpace(good.CertPEM) {
		t.Errorf("a refused certificate was saved")
	}
}

// TestConnectionExplainsRefusedWSSecurity runs "Test connection" against
// a SOAP backend that refuses the WS-Security header, as WSS4J does, and
// sees the console explain the fault in plain words, for a refused
// password and then for an expired message.
func TestConnectionExplainsRefusedWSSecurity(t *testing.T) {
	f := setup(t)
	kp := loopback.NewRSAIdentity(t, "s2r-probe")
	id := onboardByAPI(t, f, "wss-refused")
	backend := newWSSFaultBackend(t)
	var list []struct{ ProfileID string }
	f.admin(t, devAdmin, "GET", "/services/"+id+"/backend-profiles", nil, 200, &list)
	f.admin(t, devAdmin, "PATCH", "/backend-profiles/"+list[0].ProfileID, map[string]any{"endpointUrl": backend.URL,
		"wsSecurity": map[string]any{"usernameToken": map[string]any{"username": "svc-user", "passwordType": "PasswordDigest"},
			"timestamp": map[string]any{"ttlSeconds": 300}, "signature": map[string]any{"certificatePem": kp.CertPEM}, "mustUnderstand": true},
		"credentials": map[string]any{"wssPassword": "wrong", "wssSigningKeyPem": kp.KeyPEM}}, 200, nil)

	ctx := f.tab(t, "")
	run(t, ctx, "test the connection: the password is refused",
		chromedp.Navigate(f.base+"/console/services/"+id+"?tab=backends"),
		chromedp.Click(chromedp.Search(`//tr//button[normalize-space()="Test connection"]`)),
		chromedp.WaitVisible(chromedp.CSS(`.wss-explanation`)))
	if got := textOf(t, ctx, `.wss-explanation`); !strings.Contains(got, "refused the UsernameToken: unknown user or wrong password") ||
		!strings.Contains(got, "The security token could not be authenticated or authorized") {
		t.Errorf("WS-Security step = %q", got)
	}
	if got := backend.lastRequest(); !strings.Contains(got, "UsernameToken") || !strings.Contains(got, "SignatureValue") || !strings.Contains(got, "BinarySecurityToken") {
		t.Errorf("the probe did not carry the signed header: %.600s", got)
	}

	backend.refuse("MessageExpired", "The message has expired (WSSecurityEngine: Invalid timestamp)")
	run(t, ctx, "test the connection: the message is expired",
		chromedp.Click(chromedp.Search(`//tr//button[normalize-space()="Test connection"]`)),
		chromedp.WaitVisible(chromedp.Search(`//p[@class="wss-explanation" and contains(., "clocks")]`)))
	if got := textOf(t, ctx, `.wss-explanation`); !strings.Contains(got, "the clocks of s2r and the backend differ") || !strings.Contains(got, "Invalid timestamp") {
		t.Errorf("WS-Security step = %q", got)
	}
	step := value(t, ctx, "read the wsSecurity step", chromedp.Evaluate[string](
		`[...document.querySelectorAll('.steps li')].find((li) => li.querySelector('strong').textContent === 'wsSecurity').textContent`))
	if !strings.HasPrefix(strings.TrimSpace(step), "failed") {
		t.Errorf("wsSecurity step = %q, want failed", step)
	}
}

// TestProfileSignatureAlone turns on a signature with nothing else (no
// UsernameToken, no Timestamp) and the default signed parts: the profile
// saves and signs the Body, the one part there is to sign.
func TestProfileSignatureAlone(t *testing.T) {
	f := setup(t)
	kp := loopback.NewRSAIdentity(t, "s2r-alone")
	id := onboardByAPI(t, f, "wss-sign-alone")
	ctx := f.tab(t, "")
	run(t, ctx, "a signature alone with the default parts",
		chromedp.Navigate(f.base+"/console/services/"+id+"?tab=backends"),
		chromedp.Click(chromedp.Search(`//tr//button[normalize-space()="Edit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#profile-form`)),
		check("Add a WS-Security header to every call"),
		chromedp.WaitVisible(chromedp.Search(`//label[normalize-space()="Signature (X.509)"]`)),
		check("Signature (X.509)"),
		chromedp.WaitVisible(chromedp.Search(`//label[normalize-space()="`+certLabel+`"]`)),
		fillLabel(certLabel, kp.CertPEM),
		fillLabel(keyLabel, kp.KeyPEM))
	for _, part := range []string{"Timestamp", "UsernameToken"} {
		if value(t, ctx, "read "+part, chromedp.Evaluate[bool](fmt.Sprintf(`document.evaluate(%q, document, null, 9, null).singleNodeValue.disabled`, signedPart(part)))) == false ||
			isChecked(t, ctx, signedPart(part)) {
			t.Errorf("signed part %s is offered, but it is not sent", part)
		}
	}
	run(t, ctx, "save the signature",
		chromedp.Click(chromedp.Search(byText("button", "Save profile"))),
		chromedp.WaitVisible(chromedp.Search(`//*[@role="status" and contains(., "Backend profile saved")] | //section[@aria-labelledby="profile-form"]//*[@role="alert"]`)))
	if box := textOf(t, ctx, `section[aria-labelledby="profile-form"] [role=alert]`); box != "" {
		t.Fatalf("a signature alone is refused: %s", box)
	}
	var profiles []wssProfile
	f.admin(t, devAdmin, "GET", "/services/"+id+"/backend-profiles", nil, 200, &profiles)
	w := profiles[0].WSSecurity
	if w == nil || w.Signature == nil || strings.Join(w.Signature.SignParts, ",") != "Body" || w.Timestamp != nil || w.UsernameToken != nil {
		t.Errorf("wsSecurity = %+v", w)
	}
}
