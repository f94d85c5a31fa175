package wsdlcorpus

// ImportFailures pins the corpus WSDLs that s2r refuses to import, by
// their path under the corpus directory: a substring of the 400's reason.
// Each failure is a genuine problem of the file (the corpus keeps broken
// WSDLs on purpose) or a documented limit; every other corpus WSDL
// imports (dangling references an operation does not need are left out
// with warnings; docs/wsdl-support.md "Lenient import").
var ImportFailures = map[string]string{
	"mvantellingen+python-zeep/tests/integration/recursive_schema_main.wsdl":    "binds no operation",
	"mvantellingen+python-zeep/tests/wsdl_files/http.wsdl":                      "has no SOAP port",
	"mvantellingen+python-zeep/tests/wsdl_files/soap_import_2.wsdl":             "has no SOAP port",
	"postmanlabs+wsdl-to-postman/test/data/validWSDLs20/W3Example_wsdl_20.wsdl": "WSDL 2.0 is not supported",
	// Its undeclared xsd: and xmime: are read by the prefix rules, but its
	// default namespace is its target namespace, so definitions, schema
	// and every unprefixed WSDL and SOAP element are in that namespace,
	// not WSDL's (node-soap ignores namespaces).
	"vpulim+node-soap/test/wsdl/attachments.wsdl":           "expected a wsdl:definitions root element",
	"vpulim+node-soap/test/wsdl/tnsImportConflict/bar.wsdl": "has no SOAP port",
	"vpulim+node-soap/test/wsdl/wsdlImport/overridden.wsdl": "has no SOAP port",
	"vpulim+node-soap/test/wsdl/wsdlImport/sub.wsdl":        "has no SOAP port",
}

// BlockedDrafts pins the corpus WSDLs that import but whose autopilot
// draft is BLOCKED, by path: the code of the blocking issue. NO_BACKEND_URL
// (the soap:address is not an absolute http(s) URL) applies only when the
// import gives no backendUrl; MANUAL_MAPPING_REQUIRED marks an operation
// whose body needs a type the WSDL does not define (xs:anyType stands in
// until a person saves its mapping).
var BlockedDrafts = map[string]string{
	// soap:address "https://{{SERVER}}/…" is a template, not a URL.
	"vpulim+node-soap/test/wsdl/complex/registration-common.wsdl": "NO_BACKEND_URL",
	"vpulim+node-soap/test/wsdl/complex/registration.wsdl":        "NO_BACKEND_URL",
	// The part's element e:ExtendedDummyRequest (prefix e declared only on
	// another schema of the file, read as that binding) extends
	// n:DummyRequest, which Name.xsd does not define.
	"vpulim+node-soap/test/wsdl/extended_element.wsdl": "MANUAL_MAPPING_REQUIRED",
	// No wsdl:service: the synthesized port has no address.
	"vpulim+node-soap/test/wsdl/tnsImportConflict/foo.wsdl": "NO_BACKEND_URL",
	// DummyRequest's element names type DummyList, defined nowhere.
	"vpulim+node-soap/test/wsdl/xsdinclude/xsd_include.wsdl": "MANUAL_MAPPING_REQUIRED",
}

// PrefixOutcome is what the import of a corpus WSDL using undeclared
// namespace prefixes yields (docs/wsdl-support.md "Undeclared prefixes").
type PrefixOutcome struct {
	// Read maps each undeclared prefix to the namespace the import reads
	// it as, one warning each.
	Read map[string]string
	// Readiness is the publish readiness of its autopilot draft.
	Readiness string
}

// UndeclaredPrefixes pins, by corpus path, the corpus WSDLs whose import
// reads undeclared prefixes; every other corpus WSDL that imports has no
// prefix warning. attachments.wsdl reads xsd and xmime too, but is
// refused for its root (ImportFailures).
var UndeclaredPrefixes = map[string]PrefixOutcome{
	// soap: undeclared (only soap12 is): read as the SOAP 1.1 binding, as
	// node-soap calls it; its elements have no type (xs:anyType: a risk).
	"vpulim+node-soap/test/wsdl/default_namespace_soap12.wsdl": {Read: map[string]string{
		"soap": "http://schemas.xmlsoap.org/wsdl/soap/"}, Readiness: "READY_WITH_RISK"},
	// e: declared on the other inline schema only: read as that binding.
	"vpulim+node-soap/test/wsdl/extended_element.wsdl": {Read: map[string]string{
		"e": "http://www.example.com/v1"}, Readiness: "BLOCKED"},
	// A WS-Policy block pasted without its declarations.
	"vpulim+node-soap/test/wsdl/ws-policy.wsdl": {Read: map[string]string{
		"wsp": "http://schemas.xmlsoap.org/ws/2004/09/policy",
		"wsu": "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd"}, Readiness: "READY_TO_PUBLISH"},
	// .NET's s: for XML Schema, in a schema whose default namespace is
	// the 2000/10 draft one.
	"vpulim+node-soap/test/wsdl/wsdl_with_attributes.wsdl": {Read: map[string]string{
		"s": "http://www.w3.org/2001/XMLSchema"}, Readiness: "READY_TO_PUBLISH"},
}
