package model

import (
	"crypto"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"math/big"
	"strings"
	"testing"
	"time"
)

// testCert returns a self-signed certificate for pub signed by priv, with
// a subject key identifier when ski is set.
func testCert(t *testing.T, pub crypto.PublicKey, priv crypto.Signer, ski bool) string {
	t.Helper()
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(7), Subject: pkix.Name{CommonName: "t"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	if ski {
		tmpl.SubjectKeyId = []byte{1, 2, 3}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, pub, priv)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
}

func TestWSSecurityValidate(t *testing.T) {
	key, _ := rsa.GenerateKey(rand.Reader, 1024)
	other, _ := rsa.GenerateKey(rand.Reader, 1024)
	edPub, edPriv, _ := ed25519.GenerateKey(rand.Reader)
	cert := testCert(t, &key.PublicKey, key, true)
	noSKI := testCert(t, &key.PublicKey, key, false)
	edCert := testCert(t, edPub, edPriv, false)
	pkcs1 := string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}))
	p8, _ := x509.MarshalPKCS8PrivateKey(key)
	pkcs8 := string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: p8}))
	otherKey := string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(other)}))
	full := func() *WSSecurity {
		var w WSSecurity
		doc := `{"usernameToken": {"username": "svc-user", "passwordType": "PasswordDigest"},
			"timestamp": {"ttlSeconds": 300},
			"signature": {"certificatePem": ` + jsonString(cert) + `, "keyIdentifier": "SubjectKeyIdentifier",
				"signatureAlgorithm": "rsa-sha1", "digestAlgorithm": "sha1", "signParts": ["Body", "Timestamp", "UsernameToken"]},
			"mustUnderstand": true}`
		if err := json.Unmarshal([]byte(doc), &w); err != nil {
			t.Fatal(err)
		}
		return &w
	}
	for _, tc := range []struct {
		name     string
		mutate   func(w *WSSecurity)
		password string
		key      string
		want     string
	}{
		{name: "valid pkcs1", password: "pw", key: pkcs1},
		{name: "valid pkcs8", password: "pw", key: pkcs8},
		{name: "password type", mutate: func(w *WSSecurity) { w.UsernameToken.PasswordType = "Plain" }, want: "wsSecurity.usernameToken.passwordType: must be PasswordText or PasswordDigest"},
		{name: "no username", mutate: func(w *WSSecurity) { w.UsernameToken.Username = "" }, want: "wsSecurity.usernameToken.username: is required"},
		{name: "ttl", mutate: func(w *WSSecurity) { w.Timestamp.TTLSeconds = 0 }, want: "wsSecurity.timestamp.ttlSeconds: must be between 1 and 86400"},
		{name: "algorithm", mutate: func(w *WSSecurity) { w.Signature.SignatureAlgorithm = "rsa-md5" }, want: "wsSecurity.signature.signatureAlgorithm: must be rsa-sha256 or rsa-sha1"},
		{name: "digest", mutate: func(w *WSSecurity) { w.Signature.DigestAlgorithm = "md5" }, want: "wsSecurity.signature.digestAlgorithm: must be sha256 or sha1"},
		{name: "key identifier", mutate: func(w *WSSecurity) { w.Signature.KeyIdentifier = "Thumbprint" }, want: "wsSecurity.signature.keyIdentifier: must be BinarySecurityToken, IssuerSerial or SubjectKeyIdentifier"},
		{name: "ski without extension", mutate: func(w *WSSecurity) { w.Signature.CertificatePEM = noSKI }, want: "wsSecurity.signature.keyIdentifier: SubjectKeyIdentifier needs a certificate with a subject key identifier extension"},
		{name: "bad certificate", mutate: func(w *WSSecurity) {
			w.Signature.CertificatePEM = "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"
		}, want: "wsSecurity.signature.certificatePem: is not a parseable X.509 certificate"},
		{name: "not pem", mutate: func(w *WSSecurity) { w.Signature.CertificatePEM = "hello" }, want: "wsSecurity.signature.certificatePem: is not a PEM certificate"},
		{name: "ed25519 certificate", mutate: func(w *WSSecurity) { w.Signature.CertificatePEM = edCert }, want: "wsSecurity.signature.certificatePem: must hold an RSA public key"},
		{name: "unknown part", mutate: func(w *WSSecurity) { w.Signature.SignParts = []string{"Body", "Header"} }, want: "wsSecurity.signature.signParts[1]: must be Body, Timestamp or UsernameToken"},
		{name: "part twice", mutate: func(w *WSSecurity) { w.Signature.SignParts = []string{"Body", "Body"} }, want: "wsSecurity.signature.signParts[1]: is listed twice"},
		{name: "timestamp part without timestamp", mutate: func(w *WSSecurity) { w.Timestamp = nil }, want: "wsSecurity.signature.signParts[1]: Timestamp is signed but wsSecurity.timestamp is not set"},
		{name: "missing password", key: pkcs1, want: "credentials.wssPassword: is required by wsSecurity.usernameToken"},
		{name: "missing key", password: "pw", want: "credentials.wssSigningKeyPem: is not a PEM private key"},
		{name: "key not matching", password: "pw", key: otherKey, want: "credentials.wssSigningKeyPem: does not match wsSecurity.signature.certificatePem"},
		{name: "certificate as key", password: "pw", key: cert, want: "credentials.wssSigningKeyPem: must be a PKCS#1 (RSA PRIVATE KEY) or PKCS#8 (PRIVATE KEY) PEM block"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := full()
			if tc.mutate != nil {
				tc.mutate(w)
			}
			err := w.Validate()
			if err == nil {
				err = w.ValidateCredentials(tc.password, tc.key)
			}
			got := ""
			if err != nil {
				got = err.Error()
				if _, ok := err.(*FieldError); !ok {
					t.Errorf("not a *FieldError: %T", err)
				}
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			if strings.Contains(got, "PRIVATE KEY-----") {
				t.Errorf("the error quotes the key")
			}
		})
	}
}

func TestInboundWSSecurityValidate(t *testing.T) {
	for _, tc := range []struct {
		doc, want string
	}{
		{`{}`, ""},
		{`{"mode": "required", "usernameTokens": [{"username": "a", "password": "b"}], "maxClockSkewSeconds": 60}`, ""},
		{`{"mode": "strict"}`, "mode: must be off, optional or required"},
		{`{"usernameTokens": [{"username": "a"}, {"password": "b"}]}`, "usernameTokens[1]: username is required"},
		{`{"trustedCertificatesPem": ["x"]}`, "trustedCertificatesPem[0]: is not a PEM certificate"},
		{`{"maxClockSkewSeconds": -1}`, "maxClockSkewSeconds: must be between 0 and 86400"},
	} {
		var p InboundWSSecurity
		if err := json.Unmarshal([]byte(tc.doc), &p); err != nil {
			t.Fatal(err)
		}
		got := ""
		if err := p.Validate(); err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.doc, got, tc.want)
		}
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
