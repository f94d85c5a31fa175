package wsdl

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/s2r-project/s2r/internal/xmlstream"
	"github.com/s2r-project/s2r/internal/xsd"
)

// parseLenientFixture imports testdata/lenient/name alone.
func parseLenientFixture(t *testing.T, name string) (*Definitions, error) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "lenient", name))
	if err != nil {
		t.Fatal(err)
	}
	return ParseFiles(t.Context(), name, map[string][]byte{name: b})
}

// unresolvedOf renders an operation's stand-ins as file:line: reason.
func unresolvedOf(op *xsd.Operation) []string {
	var out []string
	for _, u := range op.Unresolved {
		out = append(out, u.String())
	}
	return out
}

func TestLenientMissingType(t *testing.T) {
	defs, err := parseLenientFixture(t, "missing-type.wsdl")
	if err != nil {
		t.Fatal(err)
	}
	if err := checkContracts(defs); err != nil {
		t.Error(err)
	}
	place, _ := defs.Operation("", "", "PlaceOrder")
	status, _ := defs.Operation("", "", "GetStatus")
	cancel, _ := defs.Operation("", "", "Cancel")
	if place == nil || status == nil || cancel == nil {
		t.Fatalf("operations: %v", defs.Operations())
	}
	if diff := cmp.Diff([]string{"missing-type.wsdl:16: unresolved type reference {urn:orders}Address"}, unresolvedOf(place)); diff != "" {
		t.Errorf("PlaceOrder unresolved (-want +got):\n%s", diff)
	}
	if got := place.Unresolved[0].Name; got != (xmlstream.Name{Space: "urn:orders", Local: "Address"}) {
		t.Errorf("missing name %v", got)
	}
	// PlaceOrder keeps its shape: wrapped, with shipTo as xs:anyType.
	if !place.Input.Wrapped {
		t.Fatal("PlaceOrder input is no longer wrapped")
	}
	shipTo := place.Input.Wrapper.Type.Content.Children[2].Element
	if shipTo.Name.Local != "shipTo" || shipTo.Type.Name.Local != "anyType" || shipTo.Type.Unresolved == nil {
		t.Errorf("shipTo %v type %+v", shipTo.Name, shipTo.Type)
	}
	if len(status.Unresolved) != 0 {
		t.Errorf("GetStatus needs nothing missing, got %v", unresolvedOf(status))
	}
	if diff := cmp.Diff([]string{"missing-type.wsdl:37: unresolved element reference {urn:orders}Cancel"}, unresolvedOf(cancel)); diff != "" {
		t.Errorf("Cancel unresolved (-want +got):\n%s", diff)
	}
	part := cancel.Input.Parts[0]
	if cancel.Input.Wrapped || part.Element == nil || part.Element.Name != (xmlstream.Name{Space: "urn:orders", Local: "Cancel"}) ||
		part.Element.Type.Name.Local != "anyType" {
		t.Errorf("Cancel input %+v", cancel.Input)
	}
	want := []string{
		"missing-type.wsdl:16: unresolved type reference {urn:orders}Address: xs:anyType stands in for it, needed by operation PlaceOrder",
		"missing-type.wsdl:29: unresolved type reference {urn:orders}Gone: xs:anyType stands in for it; no imported operation needs it",
		"missing-type.wsdl:37: unresolved element reference {urn:orders}Cancel: xs:anyType stands in for it, needed by operation Cancel",
	}
	if diff := cmp.Diff(want, defs.Warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}

func TestLenientMissingHeader(t *testing.T) {
	defs, err := parseLenientFixture(t, "missing-header.wsdl")
	if err != nil {
		t.Fatal(err)
	}
	transfer, _ := defs.Operation("", "", "Transfer")
	balance, _ := defs.Operation("", "", "Balance")
	if transfer == nil || balance == nil {
		t.Fatalf("operations: %v", defs.Operations())
	}
	if len(transfer.Input.Headers) != 0 || !transfer.Input.Wrapped || len(transfer.Unresolved) != 0 {
		t.Errorf("Transfer input %+v", transfer.Input)
	}
	if len(balance.Input.Headers) != 1 || balance.Input.Headers[0].Name != "trace" || len(balance.Unresolved) != 0 {
		t.Errorf("Balance headers %+v", balance.Input.Headers)
	}
	want := []string{
		"missing-header.wsdl:49: unresolved message reference {urn:bank}SecurityHeader: soap:header left out of operation Transfer",
		`missing-header.wsdl:58: soap:header part "session" is not in message {urn:bank}TraceHeader: soap:header left out of operation Balance`,
	}
	if diff := cmp.Diff(want, defs.Warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}

func TestLenientMissingMessage(t *testing.T) {
	defs, err := parseLenientFixture(t, "missing-message.wsdl")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, op := range defs.Operations() {
		names = append(names, op.Name)
	}
	if diff := cmp.Diff([]string{"Lookup"}, names); diff != "" {
		t.Errorf("operations (-want +got):\n%s", diff)
	}
	want := []string{
		"missing-message.wsdl:21: unresolved message reference {urn:docs}ArchiveRequest: operation Archive left out",
		"missing-message.wsdl:30: unresolved message reference {urn:docs}RestoreResponse: operation Restore left out",
	}
	if diff := cmp.Diff(want, defs.Warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}

// TestLenientNothingUsable: when every operation is left out the import is
// refused with the first reason, naming file and line.
func TestLenientNothingUsable(t *testing.T) {
	_, err := parseLenientFixture(t, "nothing-usable.wsdl")
	ie, ok := xsd.AsImportError(err)
	if !ok {
		t.Fatalf("error %v, want an ImportError", err)
	}
	want := ImportError{File: "nothing-usable.wsdl", Line: 9, Reason: "unresolved message reference {urn:empty}PingRequest"}
	if ie.File != want.File || ie.Line != want.Line || ie.Reason != want.Reason {
		t.Errorf("error %+v, want %+v", ie, want)
	}
}

// TestLenientSchemaFailureOfPart: a part whose element exists but fails to
// compile for another reason than a missing name gets a stand-in naming
// the failure.
func TestLenientSchemaFailureOfPart(t *testing.T) {
	const doc = `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
 xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:t" targetNamespace="urn:t">
<types><xs:schema targetNamespace="urn:t">
<xs:complexType name="Loop"><xs:complexContent><xs:extension base="tns:Loop"/></xs:complexContent></xs:complexType>
<xs:element name="Bad" type="tns:Loop"/><xs:element name="Good" type="xs:string"/>
</xs:schema></types>
<message name="BadIn"><part name="p" element="tns:Bad"/></message>
<message name="GoodIn"><part name="p" element="tns:Good"/></message>
<portType name="P"><operation name="bad"><input message="tns:BadIn"/></operation><operation name="good"><input message="tns:GoodIn"/></operation></portType>
<binding name="B" type="tns:P"><soap:binding style="document"/>
<operation name="bad"><input><soap:body use="literal"/></input></operation>
<operation name="good"><input><soap:body use="literal"/></input></operation></binding>
<service name="S"><port name="p" binding="tns:B"><soap:address location="http://x"/></port></service></definitions>`
	defs, err := ParseFiles(t.Context(), "a.wsdl", map[string][]byte{"a.wsdl": []byte(doc)})
	if err != nil {
		t.Fatal(err)
	}
	bad, _ := defs.Operation("", "", "bad")
	good, _ := defs.Operation("", "", "good")
	if diff := cmp.Diff([]string{"a.wsdl:4: type {urn:t}Loop derives from itself"}, unresolvedOf(bad)); diff != "" {
		t.Errorf("bad (-want +got):\n%s", diff)
	}
	if bad.Unresolved[0].Name != (xmlstream.Name{}) {
		t.Errorf("a failure that is not a missing name has no name: %v", bad.Unresolved[0].Name)
	}
	if len(good.Unresolved) != 0 {
		t.Errorf("good: %v", unresolvedOf(good))
	}
}
