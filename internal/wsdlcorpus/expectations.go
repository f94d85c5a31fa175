package wsdlcorpus

// ImportFailures pins the corpus WSDLs that s2r refuses to import, by
// their path under the corpus directory: a substring of the 400's reason.
// Each failure is a genuine problem of the file (the corpus keeps broken
// WSDLs on purpose) or a documented limit; every other corpus WSDL
// imports. "no usable http(s) soap:address" applies only when the import
// gives no backend URL.
var ImportFailures = map[string]string{
	"mvantellingen+python-zeep/tests/integration/recursive_schema_main.wsdl":    "binds no operation",
	"mvantellingen+python-zeep/tests/wsdl_files/http.wsdl":                      "has no SOAP port",
	"mvantellingen+python-zeep/tests/wsdl_files/soap_import_2.wsdl":             "has no SOAP port",
	"postmanlabs+wsdl-to-postman/test/data/validWSDLs20/W3Example_wsdl_20.wsdl": "WSDL 2.0 is not supported",
	"vpulim+node-soap/test/wsdl/attachments.wsdl":                               "not well-formed XML",
	"vpulim+node-soap/test/wsdl/complex/registration-common.wsdl":               "unresolved message reference {http://test-soap.com/api/registration}errorDetailMessage",
	"vpulim+node-soap/test/wsdl/complex/registration.wsdl":                      "unresolved message reference {http://test-soap.com/api/registration}errorDetailMessage",
	"vpulim+node-soap/test/wsdl/default_namespace_soap12.wsdl":                  "not well-formed XML",
	"vpulim+node-soap/test/wsdl/extended_element.wsdl":                          `cannot resolve QName "e:ExtendedDummyRequest"`,
	"vpulim+node-soap/test/wsdl/recursive2.wsdl":                                "unresolved message reference {http://bugrepro.com/account}AddAttributeSecureHeader",
	"vpulim+node-soap/test/wsdl/tnsImportConflict/bar.wsdl":                     "has no SOAP port",
	"vpulim+node-soap/test/wsdl/tnsImportConflict/foo.wsdl":                     "no usable http(s) soap:address",
	"vpulim+node-soap/test/wsdl/ws-policy.wsdl":                                 "not well-formed XML",
	"vpulim+node-soap/test/wsdl/wsdlImport/overridden.wsdl":                     "has no SOAP port",
	"vpulim+node-soap/test/wsdl/wsdlImport/sub.wsdl":                            "has no SOAP port",
	"vpulim+node-soap/test/wsdl/wsdl_with_attributes.wsdl":                      "not well-formed XML",
	"vpulim+node-soap/test/wsdl/xsdinclude/xsd_include.wsdl":                    "unresolved type reference {http://www.dummy.com/Types}DummyList",
}
