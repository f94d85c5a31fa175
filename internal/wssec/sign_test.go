package wssec

import (
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/model"
)

const env11 = `<?xml version="1.0" encoding="UTF-8"?>
<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:calc="urn:calc">
  <soapenv:Header><x:Other xmlns:x="urn:x">1</x:Other></soapenv:Header>
  <soapenv:Body>
    <calc:Add><calc:a>1</calc:a><calc:b>2 &amp; 3</calc:b></calc:Add>
  </soapenv:Body>
</soapenv:Envelope>`

const env12NoHeader = `<env:Envelope xmlns:env="http://www.w3.org/2003/05/soap-envelope"><env:Body><m:Ping xmlns:m="urn:m"/></env:Body></env:Envelope>`

const envDefaultNS = `<Envelope xmlns="http://schemas.xmlsoap.org/soap/envelope/"><Header/><Body><Ping xmlns="urn:m">x</Ping></Body></Envelope>`

// signingConfig returns a full configuration for the identity.
func signingConfig(id *testIdentity, keyIdentifier string) *model.WSSecurity {
	return &model.WSSecurity{
		UsernameToken: &model.WSSUsernameToken{Username: "svc-user", PasswordType: model.WSSPasswordDigest},
		Timestamp:     &model.WSSTimestamp{TTLSeconds: 300},
		Signature: &model.WSSSignature{CertificatePEM: id.certPEM, KeyIdentifier: keyIdentifier,
			SignParts: []string{"Body", "Timestamp"}},
		MustUnderstand: true,
	}
}

func mustSigner(t testing.TB, cfg *model.WSSecurity, password, keyPEM string) *Signer {
	t.Helper()
	s, err := NewSigner(cfg, password, keyPEM)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSignShapes(t *testing.T) {
	id := testIdentities(t)[0]
	for _, env := range []string{env11, env12NoHeader, envDefaultNS} {
		for _, kid := range []string{"BinarySecurityToken", "IssuerSerial", "SubjectKeyIdentifier"} {
			s := mustSigner(t, signingConfig(id, kid), "secret", id.keyPEM)
			out, err := s.Sign([]byte(env))
			if err != nil {
				t.Fatalf("%s: %v", kid, err)
			}
			for _, want := range []string{"<wsse:Security", "wsu:Timestamp", "PasswordDigest", "<ds:SignatureValue>", `mustUnderstand="1"`} {
				if !strings.Contains(string(out), want) {
					t.Errorf("%s: output lacks %s:\n%s", kid, want, out)
				}
			}
			if strings.Contains(string(out), "secret") {
				t.Errorf("the digest password leaked into the envelope")
			}
		}
	}
}
