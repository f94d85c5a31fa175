package xsd

import "github.com/s2r-project/s2r/internal/xmlstream"

// builtinKinds maps every built-in XSD simple type to its JSON kind.
// Everything not listed as integer, number or boolean is a JSON string.
var builtinKinds = map[string]JSONKind{
	"anySimpleType": JSONString, "anyAtomicType": JSONString,
	"string": JSONString, "normalizedString": JSONString, "token": JSONString,
	"language": JSONString, "Name": JSONString, "NCName": JSONString,
	"ID": JSONString, "IDREF": JSONString, "IDREFS": JSONString,
	"ENTITY": JSONString, "ENTITIES": JSONString, "NMTOKEN": JSONString,
	"NMTOKENS": JSONString, "boolean": JSONBoolean,
	"decimal": JSONNumber, "float": JSONNumber, "double": JSONNumber,
	"integer": JSONInteger, "nonPositiveInteger": JSONInteger,
	"negativeInteger": JSONInteger, "long": JSONInteger, "int": JSONInteger,
	"short": JSONInteger, "byte": JSONInteger, "nonNegativeInteger": JSONInteger,
	"unsignedLong": JSONInteger, "unsignedInt": JSONInteger,
	"unsignedShort": JSONInteger, "unsignedByte": JSONInteger,
	"positiveInteger": JSONInteger,
	"duration":        JSONString, "dayTimeDuration": JSONString,
	"yearMonthDuration": JSONString, "dateTime": JSONString,
	"dateTimeStamp": JSONString, "time": JSONString, "date": JSONString,
	"gYearMonth": JSONString, "gYear": JSONString, "gMonthDay": JSONString,
	"gDay": JSONString, "gMonth": JSONString, "hexBinary": JSONString,
	"base64Binary": JSONString, "anyURI": JSONString, "QName": JSONString,
	"NOTATION": JSONString,
}

// builtinLists are the built-in list types and their item types.
var builtinLists = map[string]string{"IDREFS": "IDREF", "ENTITIES": "ENTITY", "NMTOKENS": "NMTOKEN"}

// xsdNamespaces are the XML Schema namespaces accepted for built-in types:
// the recommendation and the two drafts old toolkits still emit.
var xsdNamespaces = map[string]bool{
	NSXSD:                                 true,
	"http://www.w3.org/1999/XMLSchema":    true,
	"http://www.w3.org/2000/10/XMLSchema": true,
}

// IsXSDNamespace reports whether ns is an XML Schema namespace.
func IsXSDNamespace(ns string) bool { return xsdNamespaces[ns] }

// builtinSimple returns a fresh compiled built-in simple type, or nil when
// name is not one.
func builtinSimple(name xmlstream.Name) *SimpleType {
	if !xsdNamespaces[name.Space] {
		return nil
	}
	kind, ok := builtinKinds[name.Local]
	if !ok {
		return nil
	}
	st := &SimpleType{Name: xmlstream.Name{Space: NSXSD, Local: name.Local}, Builtin: name.Local, Kind: kind}
	if item, ok := builtinLists[name.Local]; ok {
		st.List = &SimpleType{Name: xmlstream.Name{Space: NSXSD, Local: item}, Builtin: item, Kind: JSONString}
	}
	return st
}

// isAnyType reports whether name is xs:anyType.
func isAnyType(name xmlstream.Name) bool {
	return xsdNamespaces[name.Space] && name.Local == "anyType"
}

// isSOAPArray reports whether name is a SOAP-encoded array base type.
func isSOAPArray(name xmlstream.Name) bool {
	return name.Local == "Array" && (name.Space == NSSOAPEnc || name.Space == NSSOAP12Enc)
}
