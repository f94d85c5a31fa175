package model

import (
	"cmp"
	"crypto"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"slices"
)

// WS-Security choices of DESIGN 10.1 and 10.2.
const (
	WSSPasswordText   = "PasswordText"
	WSSPasswordDigest = "PasswordDigest"

	WSSKeyIdentifierBST    = "BinarySecurityToken"
	WSSKeyIdentifierIssuer = "IssuerSerial"
	WSSKeyIdentifierSKI    = "SubjectKeyIdentifier"

	WSSRSASHA256 = "rsa-sha256"
	WSSRSASHA1   = "rsa-sha1"
	WSSSHA256    = "sha256"
	WSSSHA1      = "sha1"

	WSSPartBody          = "Body"
	WSSPartTimestamp     = "Timestamp"
	WSSPartUsernameToken = "UsernameToken"

	WSSModeOff      = "off"
	WSSModeOptional = "optional"
	WSSModeRequired = "required"

	// DefaultWSSClockSkewSeconds is the inbound maxClockSkewSeconds when
	// the policy leaves it 0.
	DefaultWSSClockSkewSeconds = 300
)

// Credential names of the WS-Security secrets of a backend profile.
const (
	CredWSSPassword      = "wssPassword"
	CredWSSSigningKeyPEM = "wssSigningKeyPem"
)

// WSSecurity is a backend profile's outbound WS-Security (DESIGN 10.1):
// each part is optional; nil means none. Its secrets (the password and the
// signing key) live in the profile's credentials.
type WSSecurity struct {
	UsernameToken  *WSSUsernameToken `json:"usernameToken"`
	Timestamp      *WSSTimestamp     `json:"timestamp"`
	Signature      *WSSSignature     `json:"signature"`
	MustUnderstand bool              `json:"mustUnderstand"`
}

// WSSUsernameToken is the UsernameToken sent to a backend.
type WSSUsernameToken struct {
	Username     string `json:"username"`
	PasswordType string `json:"passwordType"` // PasswordText (default) | PasswordDigest
}

// WSSTimestamp is the Timestamp sent to a backend.
type WSSTimestamp struct {
	TTLSeconds int `json:"ttlSeconds"`
}

// WSSSignature is the XML signature put on requests to a backend.
type WSSSignature struct {
	CertificatePEM     string   `json:"certificatePem"`
	KeyIdentifier      string   `json:"keyIdentifier"`      // default BinarySecurityToken
	SignatureAlgorithm string   `json:"signatureAlgorithm"` // default rsa-sha256
	DigestAlgorithm    string   `json:"digestAlgorithm"`    // default sha256
	SignParts          []string `json:"signParts"`          // default [Body, Timestamp]
}

// InboundWSSecurity is a consume or gateway service's policy for incoming
// WS-Security headers (DESIGN 10.2).
type InboundWSSecurity struct {
	Mode                   string            `json:"mode"` // off (default) | optional | required
	UsernameTokens         []WSSUserPassword `json:"usernameTokens"`
	TrustedCertificatesPEM []string          `json:"trustedCertificatesPem"`
	RequireSignature       bool              `json:"requireSignature"`
	RequireTimestamp       bool              `json:"requireTimestamp"`
	MaxClockSkewSeconds    int               `json:"maxClockSkewSeconds"`
}

// WSSUserPassword is one accepted UsernameToken. Password is write-only:
// the admin layer answers it as a credential metadata envelope.
type WSSUserPassword struct {
	Username string `json:"username"`
	Password string `json:"password"`
}

// Validate checks the outbound configuration without its secrets. Errors
// are *FieldError naming the field under "wsSecurity".
func (w *WSSecurity) Validate() error {
	if w == nil {
		return nil
	}
	if u := w.UsernameToken; u != nil {
		if u.Username == "" {
			return fieldErr("wsSecurity.usernameToken.username", "is required")
		}
		if u.PasswordType != "" && u.PasswordType != WSSPasswordText && u.PasswordType != WSSPasswordDigest {
			return fieldErr("wsSecurity.usernameToken.passwordType", "must be PasswordText or PasswordDigest")
		}
	}
	if t := w.Timestamp; t != nil && (t.TTLSeconds < 1 || t.TTLSeconds > 86400) {
		return fieldErr("wsSecurity.timestamp.ttlSeconds", "must be between 1 and 86400")
	}
	if s := w.Signature; s != nil {
		return s.validate(w)
	}
	return nil
}

func (s *WSSSignature) validate(w *WSSecurity) error {
	const f = "wsSecurity.signature."
	cert, err := ParseCertificatePEM(s.CertificatePEM)
	if err != nil {
		return fieldErr(f+"certificatePem", err.Error())
	}
	if _, ok := cert.PublicKey.(*rsa.PublicKey); !ok {
		return fieldErr(f+"certificatePem", "must hold an RSA public key")
	}
	switch s.KeyIdentifierOrDefault() {
	case WSSKeyIdentifierBST, WSSKeyIdentifierIssuer:
	case WSSKeyIdentifierSKI:
		if len(cert.SubjectKeyId) == 0 {
			return fieldErr(f+"keyIdentifier", "SubjectKeyIdentifier needs a certificate with a subject key identifier extension")
		}
	default:
		return fieldErr(f+"keyIdentifier", "must be BinarySecurityToken, IssuerSerial or SubjectKeyIdentifier")
	}
	if a := s.SignatureAlgorithmOrDefault(); a != WSSRSASHA256 && a != WSSRSASHA1 {
		return fieldErr(f+"signatureAlgorithm", "must be rsa-sha256 or rsa-sha1")
	}
	if a := s.DigestAlgorithmOrDefault(); a != WSSSHA256 && a != WSSSHA1 {
		return fieldErr(f+"digestAlgorithm", "must be sha256 or sha1")
	}
	return s.validateParts(w)
}

func (s *WSSSignature) validateParts(w *WSSecurity) error {
	const f = "wsSecurity.signature.signParts"
	seen := map[string]bool{}
	for i, p := range s.SignPartsOrDefault(w) {
		switch {
		case p != WSSPartBody && p != WSSPartTimestamp && p != WSSPartUsernameToken:
			return &FieldError{Field: f, Index: i, Reason: "must be Body, Timestamp or UsernameToken"}
		case seen[p]:
			return &FieldError{Field: f, Index: i, Reason: "is listed twice"}
		case p == WSSPartTimestamp && w.Timestamp == nil:
			return &FieldError{Field: f, Index: i, Reason: "Timestamp is signed but wsSecurity.timestamp is not set"}
		case p == WSSPartUsernameToken && w.UsernameToken == nil:
			return &FieldError{Field: f, Index: i, Reason: "UsernameToken is signed but wsSecurity.usernameToken is not set"}
		}
		seen[p] = true
	}
	return nil
}

// ValidateCredentials checks the secrets the configuration needs: the
// password of a UsernameToken and, for a signature, a PKCS#1 or PKCS#8 RSA
// private key matching the certificate. Errors name the credential field
// and never quote the secret.
func (w *WSSecurity) ValidateCredentials(password, signingKeyPEM string) error {
	if w == nil {
		return nil
	}
	if w.UsernameToken != nil && password == "" {
		return fieldErr("credentials."+CredWSSPassword, "is required by wsSecurity.usernameToken")
	}
	if w.Signature == nil {
		return nil
	}
	key, err := ParseRSAPrivateKeyPEM(signingKeyPEM)
	if err != nil {
		return fieldErr("credentials."+CredWSSSigningKeyPEM, err.Error())
	}
	cert, err := ParseCertificatePEM(w.Signature.CertificatePEM)
	if err != nil {
		return fieldErr("wsSecurity.signature.certificatePem", err.Error())
	}
	if !key.PublicKey.Equal(cert.PublicKey) {
		return fieldErr("credentials."+CredWSSSigningKeyPEM, "does not match wsSecurity.signature.certificatePem")
	}
	return nil
}

// KeyIdentifierOrDefault returns the key identifier, BinarySecurityToken
// when empty.
func (s *WSSSignature) KeyIdentifierOrDefault() string {
	return cmp.Or(s.KeyIdentifier, WSSKeyIdentifierBST)
}

// SignatureAlgorithmOrDefault returns the signature algorithm, rsa-sha256
// when empty.
func (s *WSSSignature) SignatureAlgorithmOrDefault() string {
	return cmp.Or(s.SignatureAlgorithm, WSSRSASHA256)
}

// DigestAlgorithmOrDefault returns the digest algorithm, sha256 when empty.
func (s *WSSSignature) DigestAlgorithmOrDefault() string {
	return cmp.Or(s.DigestAlgorithm, WSSSHA256)
}

// SignPartsOrDefault returns the signed parts: when none are listed, the
// Body and, when w sends one, the Timestamp.
func (s *WSSSignature) SignPartsOrDefault(w *WSSecurity) []string {
	if len(s.SignParts) > 0 {
		return s.SignParts
	}
	if w != nil && w.Timestamp != nil {
		return []string{WSSPartBody, WSSPartTimestamp}
	}
	return []string{WSSPartBody}
}

// Validate checks an inbound policy. Errors are *FieldError.
func (p *InboundWSSecurity) Validate() error {
	if !slices.Contains([]string{"", WSSModeOff, WSSModeOptional, WSSModeRequired}, p.Mode) {
		return fieldErr("mode", "must be off, optional or required")
	}
	for i, u := range p.UsernameTokens {
		if u.Username == "" {
			return &FieldError{Field: "usernameTokens", Index: i, Reason: "username is required"}
		}
	}
	for i, c := range p.TrustedCertificatesPEM {
		if _, err := ParseCertificatePEM(c); err != nil {
			return &FieldError{Field: "trustedCertificatesPem", Index: i, Reason: err.Error()}
		}
	}
	if p.MaxClockSkewSeconds < 0 || p.MaxClockSkewSeconds > 86400 {
		return fieldErr("maxClockSkewSeconds", "must be between 0 and 86400")
	}
	return nil
}

// ParseCertificatePEM parses the first CERTIFICATE block of s.
func ParseCertificatePEM(s string) (*x509.Certificate, error) {
	rest := []byte(s)
	for {
		var b *pem.Block
		b, rest = pem.Decode(rest)
		if b == nil {
			return nil, errors.New("is not a PEM certificate")
		}
		if b.Type != "CERTIFICATE" {
			continue
		}
		cert, err := x509.ParseCertificate(b.Bytes)
		if err != nil {
			return nil, errors.New("is not a parseable X.509 certificate")
		}
		return cert, nil
	}
}

// ParseRSAPrivateKeyPEM parses a PKCS#1 ("RSA PRIVATE KEY") or PKCS#8
// ("PRIVATE KEY") RSA private key. Its errors never quote the key.
func ParseRSAPrivateKeyPEM(s string) (*rsa.PrivateKey, error) {
	b, _ := pem.Decode([]byte(s))
	if b == nil {
		return nil, errors.New("is not a PEM private key")
	}
	var key crypto.PrivateKey
	var err error
	switch b.Type {
	case "RSA PRIVATE KEY":
		key, err = x509.ParsePKCS1PrivateKey(b.Bytes)
	case "PRIVATE KEY":
		key, err = x509.ParsePKCS8PrivateKey(b.Bytes)
	default:
		return nil, errors.New("must be a PKCS#1 (RSA PRIVATE KEY) or PKCS#8 (PRIVATE KEY) PEM block")
	}
	if err != nil {
		return nil, errors.New("is not a parseable private key")
	}
	rk, ok := key.(*rsa.PrivateKey)
	if !ok {
		return nil, errors.New("must be an RSA private key")
	}
	return rk, nil
}
