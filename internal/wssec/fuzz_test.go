package wssec

import (
	"bytes"
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/xmlstream"
)

// fuzzNow is the clock of the fuzz targets: the seeds were signed then.
var fuzzNow = time.Date(2027, 6, 1, 12, 0, 0, 0, time.UTC)

func readTestdata(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// fuzzSigner signs with the committed test key at fuzzNow.
func fuzzSigner(t testing.TB, kid string) *Signer {
	cert, key := readTestdata(t, "fuzz-cert.pem"), readTestdata(t, "fuzz-key.pem")
	cfg := &model.WSSecurity{
		UsernameToken: &model.WSSUsernameToken{Username: "svc-user", PasswordType: model.WSSPasswordDigest},
		Timestamp:     &model.WSSTimestamp{TTLSeconds: 300},
		Signature:     &model.WSSSignature{CertificatePEM: cert, KeyIdentifier: kid},
	}
	s := mustSigner(t, cfg, "secret", key)
	s.now = func() time.Time { return fuzzNow }
	return s
}

// canonicalRoot canonicalizes the root element of doc.
func canonicalRoot(doc []byte, inclusive []string) ([]byte, error) {
	r := xmlstream.NewReader(doc, xmlstream.Limits{})
	for {
		tok, err := r.Next()
		if err != nil {
			return nil, err
		}
		if tok.Kind == xmlstream.StartElement {
			return AppendCanonical(nil, r, tok, inclusive)
		}
	}
}

func FuzzCanonicalize(f *testing.F) {
	for _, tc := range c14nCases {
		f.Add([]byte(tc.Doc), "")
	}
	f.Add([]byte(env11), "#default soapenv")
	f.Fuzz(func(t *testing.T, doc []byte, prefixList string) {
		incl := bytes.Fields([]byte(prefixList))
		var list []string
		for _, p := range incl {
			list = append(list, string(p))
		}
		once, err := canonicalRoot(doc, list)
		if err != nil {
			return
		}
		twice, err := canonicalRoot(once, list)
		if err != nil {
			t.Fatalf("the canonical form does not parse: %v\n%s", err, once)
		}
		if !bytes.Equal(once, twice) {
			t.Fatalf("not idempotent:\n%s\n%s", once, twice)
		}
	})
}

func FuzzVerify(f *testing.F) {
	for _, kid := range []string{model.WSSKeyIdentifierBST, model.WSSKeyIdentifierIssuer, model.WSSKeyIdentifierSKI} {
		out, err := fuzzSigner(f, kid).Sign([]byte(env11))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(out)
	}
	f.Add([]byte(env12NoHeader))
	p := &model.InboundWSSecurity{Mode: model.WSSModeRequired,
		UsernameTokens:         []model.WSSUserPassword{{Username: "svc-user", Password: "secret"}},
		TrustedCertificatesPEM: []string{readTestdata(f, "fuzz-cert.pem")}}
	f.Fuzz(func(t *testing.T, env []byte) {
		v := mustVerifier(t, p)
		v.now = func() time.Time { return fuzzNow }
		_, err := v.Verify(context.Background(), env)
		var fe *Fault
		if err != nil && !errors.As(err, &fe) {
			t.Fatalf("not a fault: %v", err)
		}
	})
}

// TestFuzzSeedsVerify keeps the committed seeds meaningful: the signed
// ones pass verification at fuzzNow.
func TestFuzzSeedsVerify(t *testing.T) {
	p := &model.InboundWSSecurity{Mode: model.WSSModeRequired,
		UsernameTokens:         []model.WSSUserPassword{{Username: "svc-user", Password: "secret"}},
		TrustedCertificatesPEM: []string{readTestdata(t, "fuzz-cert.pem")}}
	out, err := fuzzSigner(t, model.WSSKeyIdentifierIssuer).Sign([]byte(env11))
	if err != nil {
		t.Fatal(err)
	}
	v := mustVerifier(t, p)
	v.now = func() time.Time { return fuzzNow }
	if _, err := v.Verify(context.Background(), out); err != nil {
		t.Fatal(err)
	}
}
