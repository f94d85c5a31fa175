package wssec

import (
	"context"
	"crypto"
	"crypto/rsa"
	"crypto/sha256"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/model"
)

// benchEnvelope is a SOAP 1.1 envelope of about 1 KB.
var benchEnvelope = `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:ord="urn:example:orders"><soapenv:Header/><soapenv:Body><ord:PlaceOrder>` +
	strings.Repeat(`<ord:line><ord:sku>SKU-000123</ord:sku><ord:qty>2</ord:qty><ord:price>19.90</ord:price></ord:line>`, 9) +
	`</ord:PlaceOrder></soapenv:Body></soapenv:Envelope>`

func benchSigner(b *testing.B) *Signer {
	id := testIdentities(b)[0]
	cfg := &model.WSSecurity{Timestamp: &model.WSSTimestamp{TTLSeconds: 300},
		Signature: &model.WSSSignature{CertificatePEM: id.certPEM, SignParts: []string{"Body", "Timestamp"}}}
	return mustSigner(b, cfg, "", id.keyPEM)
}

// BenchmarkSign signs a 1 KB envelope (Body and Timestamp, RSA-2048,
// SHA-256); compare with BenchmarkRSASign, the bare RSA operation.
func BenchmarkSign(b *testing.B) {
	s := benchSigner(b)
	env := []byte(benchEnvelope)
	b.SetBytes(int64(len(env)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Sign(env); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRSASign is rsa.SignPKCS1v15 alone with the same key.
func BenchmarkRSASign(b *testing.B) {
	key := testIdentities(b)[0].key
	digest := sha256.Sum256([]byte(benchEnvelope))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := rsa.SignPKCS1v15(nil, key, crypto.SHA256, digest[:]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVerify verifies the signed 1 KB envelope.
func BenchmarkVerify(b *testing.B) {
	id := testIdentities(b)[0]
	out, err := benchSigner(b).Sign([]byte(benchEnvelope))
	if err != nil {
		b.Fatal(err)
	}
	v := mustVerifier(b, &model.InboundWSSecurity{Mode: model.WSSModeRequired, TrustedCertificatesPEM: []string{id.certPEM}})
	b.SetBytes(int64(len(out)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := v.Verify(context.Background(), out); err != nil {
			b.Fatal(err)
		}
	}
}
