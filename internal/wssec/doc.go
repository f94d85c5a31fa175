// Package wssec implements the WS-Security message layer of s2r (DESIGN
// 10.1, 10.2): Exclusive XML Canonicalization 1.0 over xmlstream, outbound
// signing (UsernameToken, Timestamp, an RSA XML signature with a
// BinarySecurityToken, IssuerSerial or SubjectKeyIdentifier key reference)
// and inbound verification of a wsse:Security header against a policy,
// with faults in the WS-Security namespace. It never builds a DOM copy of
// an envelope: it reads with xmlstream.Reader and splices bytes.
package wssec

// Namespaces and URIs of WS-Security 1.0/1.1 and XML Signature.
const (
	NSWSSE    = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd"
	NSWSU     = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd"
	NSWSSE11  = "http://docs.oasis-open.org/wss/oasis-wss-wssecurity-secext-1.1.xsd"
	NSDSig    = "http://www.w3.org/2000/09/xmldsig#"
	NSXEnc    = "http://www.w3.org/2001/04/xmlenc#"
	NSExcC14N = "http://www.w3.org/2001/10/xml-exc-c14n#"

	uriPasswordText   = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordText"
	uriPasswordDigest = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordDigest"
	uriBase64Binary   = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary"
	uriX509v3         = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0#X509v3"
	uriX509SKI        = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0#X509SubjectKeyIdentifier"

	uriRSASHA1   = "http://www.w3.org/2000/09/xmldsig#rsa-sha1"
	uriRSASHA256 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"
	uriSHA1      = "http://www.w3.org/2000/09/xmldsig#sha1"
	uriSHA256    = "http://www.w3.org/2001/04/xmlenc#sha256"
	uriEnveloped = "http://www.w3.org/2000/09/xmldsig#enveloped-signature"
)
