package wssec

import (
	"crypto/rsa"
	"crypto/subtle"
	"crypto/x509"
	"io"
	"math/big"
	"slices"
	"strings"
	"time"

	"github.com/s2r-project/s2r/internal/xmlstream"
)

// checkSignature verifies the Signature of the Security header and returns
// the subject of its trusted certificate. The signature must cover THE
// Body of the envelope and the Timestamp of the header when there is one.
func (v *Verifier) checkSignature(doc []byte, m *message, now time.Time) (string, error) {
	sig := m.sec.sig
	if sig.signedInfo < 0 || sig.value == "" {
		return "", invalid("the Signature has no SignedInfo or SignatureValue")
	}
	if sig.c14nMethod != NSExcC14N {
		return "", invalid("the canonicalization %q is not supported; use exclusive C14N", truncateString(sig.c14nMethod, 100))
	}
	canonical, err := canonicalAtOrdinal(doc, v.limits, sig.signedInfo, sig.prefixList)
	if err != nil {
		return "", err
	}
	si, err := parseSignedInfo(canonical)
	if err != nil {
		return "", err
	}
	cert, err := v.signingCertificate(m, now)
	if err != nil {
		return "", err
	}
	refs, err := v.targets(m, si)
	if err != nil {
		return "", err
	}
	if err := verifyRSA(cert, si, canonical, sig.value); err != nil {
		return "", err
	}
	if err := v.checkDigests(doc, si, refs); err != nil {
		return "", err
	}
	return cert.Subject.String(), nil
}

func verifyRSA(cert *x509.Certificate, si *signedInfo, canonical []byte, value string) error {
	pub, ok := cert.PublicKey.(*rsa.PublicKey)
	if !ok {
		return invalid("only RSA signatures are supported")
	}
	sv, err := decodeB64(value)
	if err != nil {
		return invalid("the SignatureValue is not base64")
	}
	h := si.sigHash.New()
	h.Write(canonical)
	if rsa.VerifyPKCS1v15(pub, si.sigHash, h.Sum(nil), sv) != nil {
		return failed("the signature does not verify")
	}
	return nil
}

// targets checks that every reference names one existing element, and
// that the Body and the Timestamp are covered.
func (v *Verifier) targets(m *message, si *signedInfo) ([]*reference, error) {
	refs := make([]*reference, len(si.refs))
	covered := make([]string, 0, len(si.refs))
	for i, r := range si.refs {
		switch m.ids[r.id] {
		case 0:
			return nil, invalid("the signature references an element that does not exist")
		case 1:
		default:
			return nil, invalid("the Id %q of a signed element appears more than once in the envelope", truncateString(r.id, 100))
		}
		if slices.Contains(covered, r.id) {
			return nil, invalid("the signature references an element twice")
		}
		if r.enveloped && slices.Contains(m.sec.sig.ancestorsIDs, r.id) {
			return nil, invalid("an enveloped signature over an element holding it is not supported")
		}
		refs[i] = &reference{id: r.id, inclusive: r.inclusive}
		covered = append(covered, r.id)
	}
	if !coversAny(covered, m.bodyIDs) {
		return nil, invalid("the signature does not cover the SOAP Body")
	}
	if ts := m.sec.timestamp; ts != nil && !coversAny(covered, ts.ids) {
		return nil, invalid("the signature does not cover the Timestamp")
	}
	return refs, nil
}

// coversAny reports whether one of an element's Id values is covered.
func coversAny(covered, ids []string) bool {
	return slices.ContainsFunc(ids, func(id string) bool { return slices.Contains(covered, id) })
}

// checkDigests recomputes the digest of every signed element.
func (v *Verifier) checkDigests(doc []byte, si *signedInfo, refs []*reference) error {
	if err := canonicalizeRefs(doc, v.limits, refs); err != nil {
		return invalid("a signed element cannot be canonicalized")
	}
	for i, r := range si.refs {
		h := r.digest.New()
		h.Write(refs[i].canonical)
		if subtle.ConstantTimeCompare(h.Sum(nil), r.value) != 1 {
			return failed("the digest of a signed element does not match")
		}
	}
	return nil
}

// canonicalAtOrdinal canonicalizes the n-th start element of doc.
func canonicalAtOrdinal(doc []byte, lim xmlstream.Limits, n int, inclusive []string) ([]byte, error) {
	r := xmlstream.NewReader(doc, lim)
	var tok xmlstream.Token
	for seen := 0; ; {
		if err := r.ReadToken(&tok); err != nil {
			if err == io.EOF {
				return nil, invalid("the SignedInfo cannot be found")
			}
			return nil, invalid("the envelope is not well-formed XML")
		}
		if tok.Kind != xmlstream.StartElement {
			continue
		}
		if seen++; seen == n {
			out, err := AppendCanonical(nil, r, tok, inclusive)
			if err != nil {
				return nil, invalid("the SignedInfo cannot be canonicalized")
			}
			if len(out) > maxSignedInfo {
				return nil, invalid("the SignedInfo is too large")
			}
			return out, nil
		}
	}
}

// signingCertificate finds the certificate KeyInfo names and checks that
// it is trusted.
func (v *Verifier) signingCertificate(m *message, now time.Time) (*x509.Certificate, error) {
	k := m.sec.sig.key
	switch {
	case k.tokenURI != "":
		return v.tokenCertificate(m, k.tokenURI, now)
	case k.certB64 != "":
		return v.trustedCertificate(k.certB64, now)
	case k.ski != "":
		ski, err := decodeB64(k.ski)
		if err != nil {
			return nil, invalid("the subject key identifier is not base64")
		}
		for _, c := range v.trusted {
			if len(ski) > 0 && subtle.ConstantTimeCompare(c.SubjectKeyId, ski) == 1 {
				return c, v.checkValidity(c, now)
			}
		}
		return nil, failed("no trusted certificate has this subject key identifier")
	case k.hasIssuerSerl:
		return v.issuerSerialCertificate(k, now)
	}
	return nil, invalid("the Signature's KeyInfo names no supported key")
}

func (v *Verifier) tokenCertificate(m *message, uri string, now time.Time) (*x509.Certificate, error) {
	if len(uri) < 2 || uri[0] != '#' {
		return nil, invalid("the key reference must point at a BinarySecurityToken by Id")
	}
	t, ok := m.sec.bsts[uri[1:]]
	if ok && m.ids[uri[1:]] != 1 {
		return nil, invalid("the Id of the BinarySecurityToken appears more than once in the envelope")
	}
	if !ok {
		return nil, invalid("the key reference names no BinarySecurityToken of the header")
	}
	if t.valueType != uriX509v3 {
		return nil, invalid("the BinarySecurityToken type %q is not supported; use X509v3", truncateString(t.valueType, 100))
	}
	if t.encodingType != "" && t.encodingType != uriBase64Binary {
		return nil, invalid("the BinarySecurityToken encoding is not supported")
	}
	return v.trustedCertificate(t.text, now)
}

// trustedCertificate parses a base64 DER certificate and checks that it
// is one of the trusted certificates or issued by one.
func (v *Verifier) trustedCertificate(b64 string, now time.Time) (*x509.Certificate, error) {
	der, err := decodeB64(b64)
	if err != nil {
		return nil, invalid("the certificate is not base64")
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, invalid("the certificate cannot be parsed")
	}
	for _, c := range v.trusted {
		if c.Equal(cert) {
			return cert, v.checkValidity(cert, now)
		}
	}
	opts := x509.VerifyOptions{Roots: v.roots, CurrentTime: now, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageAny}}
	if _, err := cert.Verify(opts); err != nil {
		return nil, failed("the signing certificate is not trusted")
	}
	return cert, nil
}

func (v *Verifier) checkValidity(c *x509.Certificate, now time.Time) error {
	if now.Add(v.skew).Before(c.NotBefore) || now.Add(-v.skew).After(c.NotAfter) {
		return failed("the signing certificate is not valid at this time")
	}
	return nil
}

func (v *Verifier) issuerSerialCertificate(k keyRef, now time.Time) (*x509.Certificate, error) {
	serial, ok := new(big.Int).SetString(strings.TrimSpace(k.serial), 10)
	if !ok {
		return nil, invalid("the X509SerialNumber is not a decimal number")
	}
	want := dnSet(k.issuer)
	for _, c := range v.trusted {
		if c.SerialNumber.Cmp(serial) == 0 && slices.Equal(dnSet(c.Issuer.String()), want) {
			return c, v.checkValidity(c, now)
		}
	}
	return nil, failed("no trusted certificate has this issuer and serial number")
}

// dnSet normalizes a distinguished name string for comparison: its
// attribute=value parts, trimmed, with short attribute names in upper
// case, sorted (stacks print RDNs in either order).
func dnSet(dn string) []string {
	var parts []string
	start := 0
	for i := 0; i <= len(dn); i++ {
		if i < len(dn) && (dn[i] == '\\') {
			i++
			continue
		}
		if i == len(dn) || dn[i] == ',' || dn[i] == ';' || dn[i] == '+' {
			p := strings.TrimSpace(dn[start:min(i, len(dn))])
			if k, val, ok := strings.Cut(p, "="); ok {
				p = dnAttr(strings.ToUpper(strings.TrimSpace(k))) + "=" + strings.TrimSpace(val)
			}
			parts = append(parts, p)
			start = i + 1
		}
	}
	slices.Sort(parts)
	return parts
}

func dnAttr(k string) string {
	switch k {
	case "EMAILADDRESS", "E", "1.2.840.113549.1.9.1":
		return "EMAILADDRESS"
	case "S", "ST", "2.5.4.8":
		return "ST"
	case "2.5.4.3":
		return "CN"
	case "2.5.4.10":
		return "O"
	case "2.5.4.11":
		return "OU"
	case "2.5.4.6":
		return "C"
	case "2.5.4.7":
		return "L"
	}
	return k
}
