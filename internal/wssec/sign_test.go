package wssec

import (
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/xmlstream"
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

func TestSignRefuses(t *testing.T) {
	id := testIdentities(t)[0]
	s := mustSigner(t, signingConfig(id, "BinarySecurityToken"), "pw", id.keyPEM)
	signed, err := s.Sign([]byte(env11))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, env, want string }{
		{"already secured", string(signed), "already has a wsse:Security header"},
		{"not soap", `<a/>`, "not a SOAP 1.1 or 1.2 envelope"},
		{"no body", `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Header/></s:Envelope>`, "no Body"},
		{"malformed", `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>`, "line"},
	} {
		if _, err := s.Sign([]byte(tc.env)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestSignedInfoIsCanonical(t *testing.T) {
	id := testIdentities(t)[0]
	out, err := mustSigner(t, signingConfig(id, "IssuerSerial"), "pw", id.keyPEM).Sign([]byte(env11))
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	si := s[strings.Index(s, "<ds:SignedInfo"):]
	si = si[:strings.Index(si, "</ds:SignedInfo>")+len("</ds:SignedInfo>")]
	r := xmlstream.NewReader(out, xmlstream.Limits{})
	for {
		tok, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if tok.Kind == xmlstream.StartElement && tok.Name.Local == "SignedInfo" {
			c, err := AppendCanonical(nil, r, tok, nil)
			if err != nil {
				t.Fatal(err)
			}
			if string(c) != si {
				t.Fatalf("SignedInfo in the document is not its canonical form:\n%s\n%s", si, c)
			}
			return
		}
	}
}
