package security

import (
	"bytes"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/tests/poll"
	"github.com/s2r-project/s2r/internal/wssec"
)

// wssSigner returns a signer of Body and Timestamp with a fresh key, and
// the PEM of its certificate.
func wssSigner(t *testing.T) (*wssec.Signer, string) {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(5), Subject: pkix.Name{CommonName: "sec-partner"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), SubjectKeyId: []byte{9, 9}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	certPEM := string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
	keyPEM := string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}))
	s, err := wssec.NewSigner(&model.WSSecurity{Timestamp: &model.WSSTimestamp{TTLSeconds: 300},
		Signature: &model.WSSSignature{CertificatePEM: certPEM}}, "", keyPEM)
	if err != nil {
		t.Fatal(err)
	}
	return s, certPEM
}

// wssAttacks are hostile or malformed WS-Security envelopes built from a
// validly signed one (signed) and a plain one: signature wrapping in its
// usual forms, a tampered Body and malformed or unsupported headers.
func wssAttacks(t *testing.T, signed, plain string) map[string]string {
	bodyStart := strings.Index(signed, "<s:Body")
	bodyEnd := strings.Index(signed, "</s:Body>") + len("</s:Body>")
	hdrEnd := strings.Index(signed, "</s:Header>")
	if bodyStart < 0 || bodyEnd < len("</s:Body>") || hdrEnd < 0 || hdrEnd > bodyStart {
		t.Fatalf("unexpected signed envelope:\n%s", signed)
	}
	signedBody := signed[bodyStart:bodyEnd]
	evil := `<Add xmlns="` + calcNS + `"><a>666</a><b>666</b></Add>`
	security := func(inner string) string {
		return strings.Replace(plain, "<s:Body>", `<s:Header><o:Security s:mustUnderstand="1" xmlns:o="`+wssec.NSWSSE+
			`" xmlns:u="`+wssec.NSWSU+`">`+inner+`</o:Security></s:Header><s:Body>`, 1)
	}
	return map[string]string{
		"wrapping: signed Body moved into a header": signed[:hdrEnd] + `<w:Wrapper xmlns:w="urn:attacker">` + signedBody +
			`</w:Wrapper>` + signed[hdrEnd:bodyStart] + `<s:Body>` + evil + `</s:Body>` + signed[bodyEnd:],
		"wrapping: signed Body moved and its Id reused": signed[:hdrEnd] + `<w:Wrapper xmlns:w="urn:attacker">` + signedBody +
			`</w:Wrapper>` + signed[hdrEnd:bodyStart] + signedBody[:strings.Index(signedBody, ">")+1] +
			evil + `</s:Body>` + signed[bodyEnd:],
		"wrapping: a second Body after the signed one": signed[:bodyEnd] + `<s:Body>` + evil + `</s:Body>` + signed[bodyEnd:],
		"wrapping: signed Body inside the attacker's Body": signed[:bodyStart] + `<s:Body>` + evil + `<w:Hidden xmlns:w="urn:attacker">` +
			signedBody + `</w:Hidden></s:Body>` + signed[bodyEnd:],
		"tampered signed Body":         strings.Replace(signed, "<a>2</a>", "<a>666</a>", 1),
		"text instead of tokens":       security(`garbage`),
		"two Security headers":         strings.Replace(security(`<o:UsernameToken><o:Username>u</o:Username></o:UsernameToken>`), "</s:Header>", `<o:Security xmlns:o="`+wssec.NSWSSE+`"/></s:Header>`, 1),
		"UsernameToken without name":   security(`<o:UsernameToken><o:Password>x</o:Password></o:UsernameToken>`),
		"digest without nonce":         security(`<o:UsernameToken><o:Username>u</o:Username><o:Password Type="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordDigest">x</o:Password></o:UsernameToken>`),
		"nonce not base64":             security(`<o:UsernameToken><o:Username>u</o:Username><o:Password Type="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordDigest">x</o:Password><o:Nonce>***</o:Nonce><u:Created>2020-01-01T00:00:00Z</u:Created></o:UsernameToken>`),
		"timestamp not a date":         security(`<u:Timestamp><u:Created>soon</u:Created></u:Timestamp>`),
		"token not base64":             security(`<o:BinarySecurityToken u:Id="x">!!!</o:BinarySecurityToken>`),
		"huge token":                   security(`<o:BinarySecurityToken u:Id="x">` + strings.Repeat("QUFB", 100000) + `</o:BinarySecurityToken>`),
		"signature to a missing id":    security(`<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:SignedInfo><ds:CanonicalizationMethod Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/><ds:SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"/><ds:Reference URI="#nowhere"><ds:DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/><ds:DigestValue>AAAA</ds:DigestValue></ds:Reference></ds:SignedInfo><ds:SignatureValue>AAAA</ds:SignatureValue></ds:Signature>`),
		"signature, unknown algorithm": security(`<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:SignedInfo><ds:CanonicalizationMethod Algorithm="urn:x"/><ds:SignatureMethod Algorithm="urn:md5"/></ds:SignedInfo><ds:SignatureValue>AAAA</ds:SignatureValue></ds:Signature>`),
		"encrypted data":               security(`<xenc:EncryptedKey xmlns:xenc="http://www.w3.org/2001/04/xmlenc#"/>`),
		"SAML assertion":               security(`<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"/>`),
		"deep nesting":                 security(strings.Repeat("<x>", 5000) + strings.Repeat("</x>", 5000)),
		"unclosed header":              strings.Replace(security(`<o:UsernameToken>`), "</o:Security>", "", 1),
		"entity declaration":           `<!DOCTYPE s:Envelope [<!ENTITY x "boom">]>` + security(`<o:UsernameToken><o:Username>&x;</o:Username></o:UsernameToken>`),
	}
}

// TestWSSecurityAttacks: consume and gateway services with a required
// inbound policy answer every wrapping attempt and malformed WS-Security
// header with a client Fault (S2R-RUN-0407, or S2R-VAL-0400 for XML the
// parser refuses), never an internal error, and never call the backend.
func TestWSSecurityAttacks(t *testing.T) {
	s := startServer(t)
	rest, soapBackend := newBackend(t), newBackend(t)
	rest.setReply(200, "application/json", `{"result": 5}`)
	cons := s.onboard(t, "secwss", "consume", rest.URL+"/calc")
	gw := s.onboard(t, "secwssgw", "gateway", soapBackend.URL+"/gw")
	s.admin(t, "PUT", "/services/"+gw.serviceID+"/consumer-grants", map[string]any{"cidrs": []string{"127.0.0.0/8", "::1/128"}}).WantStatus(t, 200)
	signer, certPEM := wssSigner(t)
	policy := map[string]any{"mode": "required", "trustedCertificatesPem": []string{certPEM},
		"usernameTokens": []any{map[string]any{"username": "u", "password": "pw"}}}
	for _, o := range []onboarded{cons, gw} {
		s.admin(t, "PUT", "/services/"+o.serviceID+"/inbound-ws-security", policy).WantStatus(t, 200)
	}
	plain := soap11(`<Add xmlns="` + calcNS + `"><a>2</a><b>3</b></Add>`)
	paths := []string{"/consume/dev/secwss", "/gateway/dev/secwssgw"}
	for _, p := range paths {
		poll.UntilOK(t, settle, "policy applied on "+p, func() string {
			r := s.send(t, request{method: "POST", path: p, ctype: "text/xml", body: strings.NewReader(plain)})
			if !bytes.Contains(r.Body, []byte("wsse:InvalidSecurity")) {
				return string(r.Body)
			}
			return ""
		})
	}
	signedBytes, err := signer.Sign([]byte(plain))
	if err != nil {
		t.Fatal(err)
	}
	signed := string(signedBytes)
	for _, p := range paths {
		// The valid signed envelope passes: the attacks below differ from
		// it only by what they change.
		s.send(t, request{method: "POST", path: p, ctype: "text/xml", body: strings.NewReader(signed)}).WantStatus(t, 200)
	}
	restBefore, soapBefore := len(rest.requests()), len(soapBackend.requests())
	for name, env := range wssAttacks(t, signed, plain) {
		for _, p := range paths {
			t.Run(p+"/"+name, func(t *testing.T) {
				r := s.send(t, request{method: "POST", path: p, ctype: "text/xml", body: strings.NewReader(env)})
				code := errorCode(r)
				if r.Status != 500 || (code != "S2R-RUN-0407" && code != "S2R-VAL-0400") ||
					!strings.HasPrefix(r.Header.Get("Content-Type"), "text/xml") || bytes.Contains(r.Body, []byte("soap:Server")) {
					t.Errorf("want a SOAP 1.1 client Fault with S2R-RUN-0407, got %d %s %.600s", r.Status, r.Header.Get("Content-Type"), r.Body)
				}
			})
		}
	}
	r := s.send(t, request{method: "POST", path: paths[0], ctype: "application/soap+xml",
		body: strings.NewReader(`<e:Envelope xmlns:e="http://www.w3.org/2003/05/soap-envelope"><e:Header><o:Security xmlns:o="` +
			wssec.NSWSSE + `">garbage</o:Security></e:Header><e:Body/></e:Envelope>`)})
	if r.Status != 400 || errorCode(r) != "S2R-RUN-0407" {
		t.Errorf("SOAP 1.2 malformed header: want 400 S2R-RUN-0407, got %d %s", r.Status, r.Body)
	}
	if n := len(rest.requests()); n != restBefore {
		t.Errorf("the consume backend was called %d times by the attacks", n-restBefore)
	}
	if n := len(soapBackend.requests()); n != soapBefore {
		t.Errorf("the gateway backend was called %d times by the attacks", n-soapBefore)
	}
	s.alive(t)
}
