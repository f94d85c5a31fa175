package wssec

import (
	"strings"
)

// signatureChild reads one child of ds:Signature.
func (s *scanner) signatureChild() error {
	sig := s.m.sec.sig
	var err error
	switch n := s.tok.Name; {
	case local(n, NSDSig, "SignedInfo"):
		if sig.signedInfo >= 0 {
			return invalid("more than one SignedInfo")
		}
		sig.signedInfo = s.ordinal
		return s.children(s.signedInfoChild)
	case local(n, NSDSig, "SignatureValue"):
		sig.value, err = s.text("SignatureValue", maxSigValue)
	case local(n, NSDSig, "KeyInfo"):
		err = s.children(s.keyInfoChild)
	default:
		err = s.skip()
	}
	return err
}

// signedInfoChild notes the CanonicalizationMethod, which is needed to
// canonicalize SignedInfo; the rest is read from the canonical form.
func (s *scanner) signedInfoChild() error {
	if !local(s.tok.Name, NSDSig, "CanonicalizationMethod") {
		return s.skip()
	}
	sig := s.m.sec.sig
	sig.c14nMethod = attrValue(s.tok.Attrs, "", "Algorithm")
	return s.children(func() error {
		if local(s.tok.Name, NSExcC14N, "InclusiveNamespaces") {
			sig.prefixList = strings.Fields(attrValue(s.tok.Attrs, "", "PrefixList"))
		}
		return s.skip()
	})
}

// keyInfoChild reads a SecurityTokenReference or X509Data of KeyInfo.
func (s *scanner) keyInfoChild() error {
	switch n := s.tok.Name; {
	case local(n, NSWSSE, "SecurityTokenReference"):
		return s.children(s.tokenReferenceChild)
	case local(n, NSDSig, "X509Data"):
		return s.children(s.x509DataChild)
	case local(n, NSDSig, "KeyValue"):
		return invalid("a KeyValue key is not supported; reference an X.509 certificate")
	}
	return s.skip()
}

func (s *scanner) tokenReferenceChild() error {
	k := &s.m.sec.sig.key
	switch n := s.tok.Name; {
	case local(n, NSWSSE, "Reference"):
		k.tokenURI = attrValue(s.tok.Attrs, "", "URI")
		return s.skip()
	case local(n, NSWSSE, "KeyIdentifier"):
		vt := attrValue(s.tok.Attrs, "", "ValueType")
		text, err := s.text("KeyIdentifier", maxTokenText)
		switch vt {
		case uriX509SKI:
			k.ski = text
		case uriX509v3:
			k.certB64 = text
		default:
			return invalid("the key identifier type %q is not supported", truncateString(vt, 100))
		}
		return err
	case local(n, NSDSig, "X509Data"):
		return s.children(s.x509DataChild)
	}
	return s.skip()
}

func (s *scanner) x509DataChild() error {
	k := &s.m.sec.sig.key
	var err error
	switch n := s.tok.Name; {
	case local(n, NSDSig, "X509Certificate"):
		if k.certB64 == "" {
			k.certB64, err = s.text("X509Certificate", maxTokenText)
		} else {
			err = s.skip()
		}
	case local(n, NSDSig, "X509SKI"):
		k.ski, err = s.text("X509SKI", maxShortText)
	case local(n, NSDSig, "X509IssuerSerial"):
		k.hasIssuerSerl = true
		err = s.children(func() error {
			var e error
			switch {
			case local(s.tok.Name, NSDSig, "X509IssuerName"):
				k.issuer, e = s.text("X509IssuerName", maxShortText)
			case local(s.tok.Name, NSDSig, "X509SerialNumber"):
				k.serial, e = s.text("X509SerialNumber", maxShortText)
			default:
				e = s.skip()
			}
			return e
		})
	default:
		err = s.skip()
	}
	return err
}

func truncateString(v string, n int) string {
	if len(v) > n {
		return v[:n] + "…"
	}
	return v
}
