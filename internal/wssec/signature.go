package wssec

import (
	"crypto"
	_ "crypto/sha1"   // registers crypto.SHA1
	_ "crypto/sha256" // registers crypto.SHA256
	"encoding/base64"

	"github.com/s2r-project/s2r/internal/model"
)

// Key identifier choices, as configured.
const (
	keyIDBST    = model.WSSKeyIdentifierBST
	keyIDIssuer = model.WSSKeyIdentifierIssuer
	keyIDSKI    = model.WSSKeyIdentifierSKI
)

// signature canonicalizes the signed parts of doc and returns the complete
// ds:Signature element.
func (s *Signer) signature(doc []byte, id ids) ([]byte, error) {
	var refs []*reference
	if s.signBody {
		refs = append(refs, &reference{id: id.body})
	}
	if s.signTS && s.cfg.Timestamp != nil {
		refs = append(refs, &reference{id: id.ts})
	}
	if s.signUT && s.cfg.UsernameToken != nil {
		refs = append(refs, &reference{id: id.ut})
	}
	if err := canonicalizeRefs(doc, s.limits, refs); err != nil {
		return nil, err
	}
	si := s.signedInfo(refs)
	value, err := s.signRSA(si)
	if err != nil {
		return nil, err
	}
	return s.signatureElement(si, value, id), nil
}

// signedInfo writes ds:SignedInfo directly in its exclusive canonical
// form, which is also how it appears in the document.
func (s *Signer) signedInfo(refs []*reference) []byte {
	b := make([]byte, 0, 512+300*len(refs))
	b = append(b, `<ds:SignedInfo xmlns:ds="`+NSDSig+`">`...)
	b = append(b, `<ds:CanonicalizationMethod Algorithm="`+NSExcC14N+`"></ds:CanonicalizationMethod>`...)
	b = append(b, `<ds:SignatureMethod Algorithm="`...)
	b = append(b, s.sigURI...)
	b = append(b, `"></ds:SignatureMethod>`...)
	for _, ref := range refs {
		b = append(b, `<ds:Reference URI="#`...)
		b = appendC14NAttr(b, ref.id)
		b = append(b, `"><ds:Transforms><ds:Transform Algorithm="`+NSExcC14N+`"></ds:Transform></ds:Transforms>`...)
		b = append(b, `<ds:DigestMethod Algorithm="`...)
		b = append(b, s.digURI...)
		b = append(b, `"></ds:DigestMethod><ds:DigestValue>`...)
		b = append(b, digestB64(s.digHash, ref.canonical)...)
		b = append(b, `</ds:DigestValue></ds:Reference>`...)
	}
	return append(b, `</ds:SignedInfo>`...)
}

func digestB64(h crypto.Hash, data []byte) string {
	d := h.New()
	d.Write(data)
	return base64.StdEncoding.EncodeToString(d.Sum(nil))
}

// signatureElement wraps SignedInfo, the value and the key reference.
func (s *Signer) signatureElement(si, value []byte, id ids) []byte {
	b := make([]byte, 0, len(si)+len(value)*2+1024)
	b = append(b, `<ds:Signature xmlns:ds="`+NSDSig+`" Id="`...)
	b = append(b, id.sig...)
	b = append(b, `">`...)
	b = append(b, si...)
	b = append(b, `<ds:SignatureValue>`...)
	b = base64.StdEncoding.AppendEncode(b, value)
	b = append(b, `</ds:SignatureValue><ds:KeyInfo><wsse:SecurityTokenReference wsu:Id="`...)
	b = append(b, id.str...)
	b = append(b, `">`...)
	b = s.appendKeyReference(b, id)
	return append(b, `</wsse:SecurityTokenReference></ds:KeyInfo></ds:Signature>`...)
}

func (s *Signer) appendKeyReference(b []byte, id ids) []byte {
	switch s.keyID {
	case keyIDIssuer:
		b = append(b, `<ds:X509Data><ds:X509IssuerSerial><ds:X509IssuerName>`...)
		b = appendC14NText(b, []byte(s.issuer))
		b = append(b, `</ds:X509IssuerName><ds:X509SerialNumber>`...)
		b = append(b, s.serial...)
		return append(b, `</ds:X509SerialNumber></ds:X509IssuerSerial></ds:X509Data>`...)
	case keyIDSKI:
		b = append(b, `<wsse:KeyIdentifier EncodingType="`+uriBase64Binary+`" ValueType="`+uriX509SKI+`">`...)
		b = append(b, s.ski...)
		return append(b, `</wsse:KeyIdentifier>`...)
	}
	b = append(b, `<wsse:Reference URI="#`...)
	b = append(b, id.bst...)
	return append(b, `" ValueType="`+uriX509v3+`"></wsse:Reference>`...)
}

// PasswordDigest returns Base64(SHA-1(nonce + created + password)), the
// UsernameToken Profile 1.0 password digest.
func PasswordDigest(nonce []byte, created, password string) string {
	h := crypto.SHA1.New()
	h.Write(nonce)
	h.Write([]byte(created))
	h.Write([]byte(password))
	return base64.StdEncoding.EncodeToString(h.Sum(nil))
}
