package wssec

import (
	"strings"

	"github.com/s2r-project/s2r/internal/xmlstream"
)

// security is a parsed wsse:Security header.
type security struct {
	timestamp *timestamp
	token     *usernameToken
	bsts      map[string]*binaryToken // by Id
	sig       *signatureInfo
}

type timestamp struct {
	ids              []string // its Id values (wsu:Id, Id, ...)
	created, expires string
}

type usernameToken struct {
	username, password, passwordType string
	nonce, nonceEncoding, created    string
}

type binaryToken struct {
	valueType, encodingType, text string
}

// signatureInfo is a ds:Signature as read in the scan; SignedInfo is read
// again, canonicalized, once the scan is done.
type signatureInfo struct {
	signedInfo   int      // ordinal of the SignedInfo element
	c14nMethod   string   // its CanonicalizationMethod
	prefixList   []string // and that method's InclusiveNamespaces
	value        string   // SignatureValue text (base64)
	key          keyRef
	ancestorsIDs []string // Id values of the elements holding the Signature
}

// keyRef is how KeyInfo names the signing certificate.
type keyRef struct {
	tokenURI      string // a wsse:Reference to a BinarySecurityToken
	certB64       string // an X509Certificate or X509v3 KeyIdentifier
	ski           string // base64 subject key identifier
	issuer        string // X509IssuerName
	serial        string // X509SerialNumber
	hasIssuerSerl bool
}

func local(n xmlstream.Name, space, name string) bool { return n.Space == space && n.Local == name }

func attrValue(attrs []xmlstream.Attr, space, name string) string {
	for _, a := range attrs {
		if a.Name.Space == space && a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// idValues returns the values of the Id attributes of an element.
func idValues(attrs []xmlstream.Attr) []string {
	var ids []string
	for _, a := range attrs {
		if idAttr(a) {
			ids = append(ids, a.Value)
		}
	}
	return ids
}

// securityChild reads one child of wsse:Security.
func (s *scanner) securityChild() error {
	sec, n := s.m.sec, s.tok.Name
	switch {
	case local(n, NSWSU, "Timestamp"):
		if sec.timestamp != nil {
			return invalid("more than one Timestamp")
		}
		sec.timestamp = &timestamp{ids: idValues(s.tok.Attrs)}
		return s.children(s.timestampChild)
	case local(n, NSWSSE, "UsernameToken"):
		if sec.token != nil {
			return invalid("more than one UsernameToken")
		}
		sec.token = &usernameToken{}
		return s.children(s.usernameTokenChild)
	case local(n, NSWSSE, "BinarySecurityToken"):
		return s.binarySecurityToken()
	case local(n, NSDSig, "Signature"):
		if sec.sig != nil {
			return invalid("more than one Signature")
		}
		sec.sig = &signatureInfo{signedInfo: -1}
		for _, id := range s.idStack[:len(s.idStack)-1] {
			if id != "" {
				sec.sig.ancestorsIDs = append(sec.sig.ancestorsIDs, id)
			}
		}
		return s.children(s.signatureChild)
	}
	return s.skip()
}

func (s *scanner) timestampChild() error {
	ts := s.m.sec.timestamp
	var err error
	switch {
	case local(s.tok.Name, NSWSU, "Created"):
		ts.created, err = s.text("Timestamp Created", maxShortText)
	case local(s.tok.Name, NSWSU, "Expires"):
		ts.expires, err = s.text("Timestamp Expires", maxShortText)
	default:
		err = s.skip()
	}
	return err
}

func (s *scanner) usernameTokenChild() error {
	ut := s.m.sec.token
	var err error
	switch n := s.tok.Name; {
	case local(n, NSWSSE, "Username"):
		ut.username, err = s.text("Username", maxShortText)
	case local(n, NSWSSE, "Password"):
		ut.passwordType = attrValue(s.tok.Attrs, "", "Type")
		ut.password, err = s.text("Password", maxShortText)
	case local(n, NSWSSE, "Nonce"):
		ut.nonceEncoding = attrValue(s.tok.Attrs, "", "EncodingType")
		ut.nonce, err = s.text("Nonce", maxShortText)
	case local(n, NSWSU, "Created"):
		ut.created, err = s.text("UsernameToken Created", maxShortText)
	default:
		err = s.skip()
	}
	return err
}

func (s *scanner) binarySecurityToken() error {
	t := &binaryToken{
		valueType:    attrValue(s.tok.Attrs, "", "ValueType"),
		encodingType: attrValue(s.tok.Attrs, "", "EncodingType"),
	}
	ids := idValues(s.tok.Attrs)
	if strings.Contains(t.valueType, "Kerberos") || strings.Contains(t.valueType, "GSS") {
		return invalid("Kerberos tokens are not supported")
	}
	var err error
	if t.text, err = s.text("BinarySecurityToken", maxTokenText); err != nil {
		return err
	}
	for _, id := range ids {
		s.m.sec.bsts[id] = t
	}
	return nil
}
