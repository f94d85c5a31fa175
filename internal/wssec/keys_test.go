package wssec

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// testIdentity is an RSA key with a self-signed certificate, in PEM.
type testIdentity struct {
	key     *rsa.PrivateKey
	cert    *x509.Certificate
	certPEM string
	keyPEM  string // PKCS#8
	pkcs1   string
}

var (
	identityOnce sync.Once
	identities   [2]*testIdentity
)

// testIdentities returns two identities made once per test binary.
func testIdentities(t testing.TB) [2]*testIdentity {
	t.Helper()
	identityOnce.Do(func() {
		for i, cn := range []string{"s2r test signer", "s2r other signer"} {
			identities[i] = newIdentity(cn, int64(1000+i))
		}
	})
	return identities
}

func newIdentity(cn string, serial int64) *testIdentity {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		panic(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(serial),
		Subject:      pkix.Name{CommonName: cn, Organization: []string{"s2r"}},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		SubjectKeyId: []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, byte(serial)},
		KeyUsage:     x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		panic(err)
	}
	cert, _ := x509.ParseCertificate(der)
	p8, _ := x509.MarshalPKCS8PrivateKey(key)
	return &testIdentity{
		key: key, cert: cert,
		certPEM: string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})),
		keyPEM:  string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: p8})),
		pkcs1:   string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)})),
	}
}

// writeFiles writes the identity's certificate and key to dir.
func (id *testIdentity) writeFiles(t *testing.T, dir string) (certFile, keyFile string) {
	t.Helper()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, []byte(id.certPEM), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, []byte(id.pkcs1), 0o600); err != nil {
		t.Fatal(err)
	}
	return certFile, keyFile
}
