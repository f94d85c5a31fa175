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
	"vpulim+node-soap/test/wsdl/attachments.wsdl":                               "not well-formed XML",
	"vpulim+node-soap/test/wsdl/default_namespace_soap12.wsdl":                  "not well-formed XML",
	"vpulim+node-soap/test/wsdl/tnsImportConflict/bar.wsdl":                     "has no SOAP port",
	"vpulim+node-soap/test/wsdl/ws-policy.wsdl":                                 "not well-formed XML",
	"vpulim+node-soap/test/wsdl/wsdlImport/overridden.wsdl":                     "has no SOAP port",
	"vpulim+node-soap/test/wsdl/wsdlImport/sub.wsdl":                            "has no SOAP port",
	"vpulim+node-soap/test/wsdl/wsdl_with_attributes.wsdl":                      "not well-formed XML",
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
	// The part's element is e:ExtendedDummyRequest, prefix e undeclared.
	"vpulim+node-soap/test/wsdl/extended_element.wsdl": "MANUAL_MAPPING_REQUIRED",
	// No wsdl:service: the synthesized port has no address.
	"vpulim+node-soap/test/wsdl/tnsImportConflict/foo.wsdl": "NO_BACKEND_URL",
	// DummyRequest's element names type DummyList, defined nowhere.
	"vpulim+node-soap/test/wsdl/xsdinclude/xsd_include.wsdl": "MANUAL_MAPPING_REQUIRED",
}
