package xsd

import (
	"context"
	"embed"
	"fmt"
	"strings"
)

//go:embed wellknown/*.xsd
var wellKnownFS embed.FS

// Namespaces of the schemas s2r carries built in.
const (
	NSXSD       = "http://www.w3.org/2001/XMLSchema"
	NSXSI       = "http://www.w3.org/2001/XMLSchema-instance"
	NSSOAPEnc   = "http://schemas.xmlsoap.org/soap/encoding/"
	NSSOAP12Enc = "http://www.w3.org/2003/05/soap-encoding"
	NSWSDL      = "http://schemas.xmlsoap.org/wsdl/"
	NSXMIME     = "http://www.w3.org/2005/05/xmlmime"
	NSXOP       = "http://www.w3.org/2004/08/xop/include"
	NSDSig      = "http://www.w3.org/2000/09/xmldsig#"
	NSWSA       = "http://www.w3.org/2005/08/addressing"
	NSWSA2004   = "http://schemas.xmlsoap.org/ws/2004/08/addressing"
	NSXML       = "http://www.w3.org/XML/1998/namespace"
	NSSwaRef    = "http://ws-i.org/profiles/basic/1.1/xsd"
)

// wellKnown describes one built-in schema: its namespace, embedded file and
// the schemaLocation URLs that real WSDLs use for it.
type wellKnown struct {
	namespace string
	file      string
	urls      []string
}

var wellKnownSchemas = []wellKnown{
	{NSSOAPEnc, "soapenc11.xsd", []string{"http://schemas.xmlsoap.org/soap/encoding/", "http://schemas.xmlsoap.org/soap/encoding"}},
	{NSSOAP12Enc, "soapenc12.xsd", []string{"http://www.w3.org/2003/05/soap-encoding"}},
	{NSXML, "xml.xsd", []string{"http://www.w3.org/2001/xml.xsd", "http://www.w3.org/XML/1998/namespace", "https://www.w3.org/2001/xml.xsd", "http://www.w3.org/2009/01/xml.xsd"}},
	{NSDSig, "xmldsig.xsd", []string{"http://www.w3.org/TR/xmldsig-core/xmldsig-core-schema.xsd", "http://www.w3.org/TR/2002/REC-xmldsig-core-20020212/xmldsig-core-schema.xsd", "http://www.w3.org/2000/09/xmldsig#"}},
	{NSXMIME, "xmime.xsd", []string{"http://www.w3.org/2005/05/xmlmime"}},
	{NSXOP, "xop.xsd", []string{"http://www.w3.org/2004/08/xop/include"}},
	{NSWSA, "wsa200508.xsd", []string{"http://www.w3.org/2006/03/addressing/ws-addr.xsd", "http://www.w3.org/2005/08/addressing/ws-addr.xsd", "http://www.w3.org/2005/08/addressing"}},
	{NSWSA2004, "wsa200408.xsd", []string{"http://schemas.xmlsoap.org/ws/2004/08/addressing", "http://schemas.xmlsoap.org/ws/2004/08/addressing/addressing.xsd"}},
	{NSWSDL, "wsdl11.xsd", []string{"http://schemas.xmlsoap.org/wsdl/"}},
	{NSSwaRef, "swaref.xsd", []string{"http://ws-i.org/profiles/basic/1.1/swaref.xsd", "http://ws-i.org/profiles/basic/1.1/xsd"}},
}

// builtinPrefix marks the resolved location of a built-in schema.
const builtinPrefix = "builtin:"

// WellKnownLocation returns the built-in location of the schema for a
// namespace, if s2r carries one.
func WellKnownLocation(namespace string) (string, bool) {
	for _, w := range wellKnownSchemas {
		if w.namespace == namespace {
			return builtinPrefix + w.file, true
		}
	}
	return "", false
}

// wellKnownByURL maps a well-known schemaLocation URL to its built-in
// location.
func wellKnownByURL(location string) (string, bool) {
	for _, w := range wellKnownSchemas {
		for _, u := range w.urls {
			if strings.EqualFold(u, location) {
				return builtinPrefix + w.file, true
			}
		}
	}
	return "", false
}

// BuiltinLoader serves the built-in schemas, by their "builtin:" location
// and by their well-known URLs, so imports of them work offline.
type BuiltinLoader struct{}

var _ Loader = BuiltinLoader{}

// Load returns a built-in schema.
func (BuiltinLoader) Load(_ context.Context, location string) ([]byte, string, error) {
	if !strings.HasPrefix(location, builtinPrefix) {
		loc, ok := wellKnownByURL(location)
		if !ok {
			return nil, "", fmt.Errorf("%s: %w", location, ErrNotFound)
		}
		location = loc
	}
	data, err := wellKnownFS.ReadFile("wellknown/" + strings.TrimPrefix(location, builtinPrefix))
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", location, ErrNotFound)
	}
	return data, location, nil
}
