package wssec

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"io"
	"time"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/xmlstream"
)

// Signer adds a wsse:Security header to outbound envelopes. It is compiled
// once from a backend profile's configuration and secrets and is safe for
// concurrent use.
type Signer struct {
	cfg      model.WSSecurity
	password string
	digest   bool // PasswordDigest

	key      *rsa.PrivateKey
	certB64  string
	issuer   string // RFC 2253 issuer name
	serial   string // decimal serial number
	ski      string // base64 subject key identifier
	keyID    string
	sigURI   string
	sigHash  crypto.Hash
	digURI   string
	digHash  crypto.Hash
	signBody bool
	signTS   bool
	signUT   bool
	ttl      time.Duration
	limits   xmlstream.Limits
	now      func() time.Time
	random   io.Reader
}

// NewSigner checks cfg and its secrets (the UsernameToken password and the
// PEM signing key) and compiles them. Errors are *model.FieldError.
func NewSigner(cfg *model.WSSecurity, password, signingKeyPEM string) (*Signer, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := cfg.ValidateCredentials(password, signingKeyPEM); err != nil {
		return nil, err
	}
	s := &Signer{cfg: *cfg, password: password, now: time.Now, random: rand.Reader}
	if u := cfg.UsernameToken; u != nil {
		s.digest = u.PasswordType == model.WSSPasswordDigest
	}
	if t := cfg.Timestamp; t != nil {
		s.ttl = time.Duration(t.TTLSeconds) * time.Second
	}
	if sig := cfg.Signature; sig != nil {
		s.compileSignature(sig, signingKeyPEM)
	}
	return s, nil
}

// compileSignature prepares the key, the certificate forms and the
// algorithms; cfg has been validated, so parsing cannot fail.
func (s *Signer) compileSignature(sig *model.WSSSignature, keyPEM string) {
	s.key, _ = model.ParseRSAPrivateKeyPEM(keyPEM)
	cert, _ := model.ParseCertificatePEM(sig.CertificatePEM)
	s.certB64 = base64.StdEncoding.EncodeToString(cert.Raw)
	s.issuer = cert.Issuer.String()
	s.serial = cert.SerialNumber.String()
	s.ski = base64.StdEncoding.EncodeToString(cert.SubjectKeyId)
	s.keyID = sig.KeyIdentifierOrDefault()
	s.sigURI, s.sigHash = uriRSASHA256, crypto.SHA256
	if sig.SignatureAlgorithmOrDefault() == model.WSSRSASHA1 {
		s.sigURI, s.sigHash = uriRSASHA1, crypto.SHA1
	}
	s.digURI, s.digHash = uriSHA256, crypto.SHA256
	if sig.DigestAlgorithmOrDefault() == model.WSSSHA1 {
		s.digURI, s.digHash = uriSHA1, crypto.SHA1
	}
	for _, p := range sig.SignPartsOrDefault(&s.cfg) {
		switch p {
		case model.WSSPartBody:
			s.signBody = true
		case model.WSSPartTimestamp:
			s.signTS = true
		case model.WSSPartUsernameToken:
			s.signUT = true
		}
	}
}
