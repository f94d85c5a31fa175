package onboarding

import "testing"

// A qualified name {namespace}local in an import reason stays readable: the
// URL redaction stops at the brace instead of escaping it as %7D.
func TestImportDetailErrorKeepsQualifiedNames(t *testing.T) {
	e := importDetailError("root.wsdl", 34, "unresolved message reference {http://test-soap.com/api/registration}errorDetailMessage")
	want := "WSDL import failed: root.wsdl:34: unresolved message reference {http://test-soap.com/api/registration}errorDetailMessage"
	if e.Message != want {
		t.Errorf("message %q, want %q", e.Message, want)
	}
	e = importDetailError("root.wsdl", 1, "cannot fetch https://h/x.xsd?token=secret")
	if e.Message != "WSDL import failed: root.wsdl:1: cannot fetch https://h/x.xsd?token=REDACTED" {
		t.Errorf("query values are not redacted: %q", e.Message)
	}
}
