package wsdl

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/s2r-project/s2r/internal/tests/filetree"
	"github.com/s2r-project/s2r/internal/xmlstream"
	"github.com/s2r-project/s2r/internal/xsd"
)

// unitFiles reads testdata/unit into a file set keyed by relative path.
func unitFiles(t *testing.T) map[string][]byte {
	t.Helper()
	return filetree.Read(t, filepath.Join("testdata", "unit"))
}

func TestParseDocumentLiteral(t *testing.T) {
	defs, err := ParseFiles(t.Context(), "calc.wsdl", unitFiles(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := checkContracts(defs); err != nil {
		t.Error(err)
	}
	want := `service Calculator
  port Calc11 SOAP 1.1 binding Calc11 address "http://10.0.0.5/calc"
    Add document/literal action="urn:calc/Add" in=wrapped(Add)+header(Auth) out=wrapped(AddResponse) fault=calcFault
    Echo document/literal action="urn:calc/Echo" in=bare(value=Value) out=-
  port Calc12 SOAP 1.2 binding Calc12 address "http://10.0.0.5/calc12"
    Add document/literal action="urn:calc/Add" in=wrapped(Add) out=wrapped(AddResponse) fault=calcFault mtom
    Echo document/literal action="urn:calc/Echo" in=bare(value=Value) out=- mtom
  port CalcHttp skipped: HTTP binding
warning: calc.wsdl:59: port CalcHttp skipped: HTTP binding
`
	if diff := cmp.Diff(want, summarize(defs)); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
	add, ok := defs.Operation("Calculator", "Calc11", "Add")
	if !ok {
		t.Fatal("Add not found")
	}
	if got := add.Input.Headers[0].Element.Name; got != (xmlstream.Name{Space: "urn:calc:types", Local: "Auth"}) {
		t.Errorf("header element %v: chameleon include should give it the includer's namespace", got)
	}
	code := add.Faults[0].Message.Wrapper.Type.Content.Children[0].Element
	if code.Type.Simple == nil || code.Type.Simple.Kind != xsd.JSONInteger {
		t.Errorf("fault code type %+v, want an integer simple type", code.Type)
	}
	if got := len(defs.Operations()); got != 4 {
		t.Errorf("%d operations, want 4", got)
	}
	if _, ok := defs.Operation("", "", "Missing"); ok {
		t.Error("found an operation that does not exist")
	}
}

func TestParseRPCEncoded(t *testing.T) {
	defs, err := ParseFiles(t.Context(), "rpc.wsdl", unitFiles(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := checkContracts(defs); err != nil {
		t.Error(err)
	}
	op, ok := defs.Operation("SumService", "SumPort", "Sum")
	if !ok {
		t.Fatal("Sum not found")
	}
	if op.Style != xsd.RPC || op.Use != xsd.Encoded || op.EncodingStyle != xsd.NSSOAPEnc {
		t.Errorf("style %d use %d encodingStyle %q", op.Style, op.Use, op.EncodingStyle)
	}
	w := op.Input.Wrapper
	if w.Name != (xmlstream.Name{Space: "urn:rpc:sum", Local: "Sum"}) || op.Input.Wrapped {
		t.Errorf("input wrapper %v wrapped=%v", w.Name, op.Input.Wrapped)
	}
	values := w.Type.Content.Children[0].Element
	if values.Name != (xmlstream.Name{Local: "values"}) {
		t.Errorf("first rpc child %v, want unqualified values", values.Name)
	}
	item := values.Type.ArrayItem
	if item == nil || item.Type.Simple == nil || item.Type.Simple.Builtin != "int" {
		t.Fatalf("values is not an array of int: %+v", values.Type)
	}
	if got := op.Output.Wrapper.Name.Local; got != "SumResponse" {
		t.Errorf("output wrapper %q", got)
	}
}

// TestImportErrors pairs broken imports with the exact error they give.
func TestImportErrors(t *testing.T) {
	const defsHead = `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:tns="urn:t" targetNamespace="urn:t">`
	tests := []struct {
		name  string
		files map[string][]byte
		want  string
	}{
		{"wsdl 2.0", map[string][]byte{"a.wsdl": []byte(`<description xmlns="http://www.w3.org/ns/wsdl"/>`)},
			"a.wsdl:1: WSDL 2.0 is not supported; s2r imports WSDL 1.1"},
		{"not xml", map[string][]byte{"a.wsdl": []byte("<definitions>\n<x></y>")},
			"a.wsdl:2: not well-formed XML: "},
		{"wrong root", map[string][]byte{"a.wsdl": []byte(`<html/>`)},
			"a.wsdl:1: expected a wsdl:definitions root element, found html"},
		{"missing root file", map[string][]byte{}, "a.wsdl: cannot load document: a.wsdl: not found"},
		{"dangling wsdl import", map[string][]byte{"dir/a.wsdl": []byte(defsHead + "\n<import namespace=\"urn:x\" location=\"../b.wsdl\"/></definitions>")},
			`dir/a.wsdl:2: cannot load "b.wsdl": b.wsdl: not found`},
		{"dangling xsd import", map[string][]byte{"a.wsdl": []byte(defsHead + `<types>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:t"><xs:import namespace="urn:x" schemaLocation="x.xsd"/></xs:schema></types></definitions>`)},
			`a.wsdl:2: cannot load "x.xsd": x.xsd: not found`},
		{"remote import without fetcher", map[string][]byte{"a.wsdl": []byte(defsHead + `<types>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:t"><xs:import namespace="urn:x" schemaLocation="http://example.com/x.xsd"/></xs:schema></types></definitions>`)},
			`a.wsdl:2: cannot load "http://example.com/x.xsd": http://example.com/x.xsd: not found`},
		{"unresolved message", map[string][]byte{"a.wsdl": []byte(defsHead + `
<portType name="P"><operation name="o">
<input message="tns:Nope"/></operation></portType>
<binding name="B" type="tns:P"><soap:binding style="document"/><operation name="o"><input><soap:body use="literal"/></input></operation></binding>
<service name="S"><port name="p" binding="tns:B"><soap:address location="http://x"/></port></service></definitions>`)},
			"a.wsdl:3: unresolved message reference {urn:t}Nope"},
		{"operation not in portType", map[string][]byte{"a.wsdl": []byte(defsHead + `
<portType name="P"/>
<binding name="B" type="tns:P"><soap:binding style="document"/><operation name="o"><input><soap:body use="literal"/></input></operation></binding>
<service name="S"><port name="p" binding="tns:B"><soap:address location="http://x"/></port></service></definitions>`)},
			"a.wsdl:3: operation o is not in portType {urn:t}P"},
		{"unresolved portType", map[string][]byte{"a.wsdl": []byte(defsHead + `
<binding name="B" type="tns:Nope"><soap:binding style="document"/></binding>
<service name="S"><port name="p" binding="tns:B"><soap:address location="http://x"/></port></service></definitions>`)},
			"a.wsdl:2: binding refers to undeclared portType {urn:t}Nope"},
		{"unresolved binding", map[string][]byte{"a.wsdl": []byte(defsHead + `
<service name="S"><port name="p" binding="tns:Nope"/></service></definitions>`)},
			"a.wsdl:2: port p refers to undeclared binding {urn:t}Nope"},
		{"undeclared prefix in QName", map[string][]byte{"a.wsdl": []byte(defsHead + `
<service name="S"><port name="p" binding="zz:B"/></service></definitions>`)},
			`a.wsdl:2: port p refers to undeclared binding {urn:s2r:undeclared-prefix:zz}B`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := "a.wsdl"
			if _, ok := tt.files["dir/a.wsdl"]; ok {
				root = "dir/a.wsdl"
			}
			_, err := ParseFiles(t.Context(), root, tt.files)
			if err == nil {
				t.Fatalf("no error, want %q", tt.want)
			}
			if !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error:\n %s\nwant prefix:\n %s", err, tt.want)
			}
			if _, ok := xsd.AsImportError(err); !ok {
				t.Errorf("error %T is not an ImportError", err)
			}
		})
	}
}

func TestNoSOAPBindingWarns(t *testing.T) {
	files := map[string][]byte{"a.wsdl": []byte(`<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" targetNamespace="urn:t"/>`)}
	defs, err := ParseFiles(t.Context(), "a.wsdl", files)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a.wsdl: no operation bound to SOAP 1.1 or SOAP 1.2: nothing to import"}
	if diff := cmp.Diff(want, defs.Warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}

func TestCircularImports(t *testing.T) {
	files := map[string][]byte{
		"a.wsdl": []byte(`<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" targetNamespace="urn:a"><import namespace="urn:b" location="b.wsdl"/></definitions>`),
		"b.wsdl": []byte(`<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" targetNamespace="urn:b"><import namespace="urn:a" location="a.wsdl"/></definitions>`),
	}
	defs, err := ParseFiles(t.Context(), "a.wsdl", files)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a.wsdl", "b.wsdl"}, defs.Documents); diff != "" {
		t.Errorf("documents (-want +got):\n%s", diff)
	}
}

func TestRepairNamespaces(t *testing.T) {
	files := map[string][]byte{"a.wsdl": []byte(`<?xml version="1.0"?>
<!-- comment -->
<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" targetNamespace="urn:t">
  <binding name="B" type="tns:P"><soap:binding style="document"/></binding>
  <foo:bar/>
</definitions>`)}
	report, repaired, err := RepairNamespaces(files)
	if err != nil {
		t.Fatal(err)
	}
	want := []PrefixRepair{
		{File: "a.wsdl", Line: 4, Prefix: "tns", URI: "urn:t", Source: "targetNamespace"},
		{File: "a.wsdl", Line: 4, Prefix: "soap", URI: NSSOAP11, Source: "conventional prefix: a SOAP 1.1 binding"},
		{File: "a.wsdl", Line: 5, Prefix: "foo"},
	}
	if diff := cmp.Diff(want, report.Repairs); diff != "" {
		t.Errorf("repairs (-want +got):\n%s", diff)
	}
	wantHead := `<definitions xmlns:tns="urn:t" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns=`
	if !strings.Contains(string(repaired["a.wsdl"]), wantHead) {
		t.Errorf("repaired document:\n%s", repaired["a.wsdl"])
	}
}

// TestSchemaLocationPointsAtWSDL covers toolkits that publish schemas
// inside a WSDL and import them from there.
func TestSchemaLocationPointsAtWSDL(t *testing.T) {
	files := map[string][]byte{
		"a.wsdl": []byte(`<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:tns="urn:a" xmlns:o="urn:o" targetNamespace="urn:a">
<types><xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:a"><xs:import namespace="urn:o" schemaLocation="other.wsdl"/></xs:schema></types>
<message name="M"><part name="p" element="o:Thing"/></message>
<portType name="P"><operation name="o"><input message="tns:M"/></operation></portType>
<binding name="B" type="tns:P"><soap:binding style="document"/><operation name="o"><input><soap:body use="literal"/></input></operation></binding>
<service name="S"><port name="p" binding="tns:B"><soap:address location="http://x"/></port></service></definitions>`),
		"other.wsdl": []byte(`<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" targetNamespace="urn:o">
<types><xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:o"><xs:element name="Thing" type="xs:string"/></xs:schema></types></definitions>`),
	}
	defs, err := ParseFiles(t.Context(), "a.wsdl", files)
	if err != nil {
		t.Fatal(err)
	}
	op, _ := defs.Operation("S", "p", "o")
	if got := op.Input.Parts[0].Element.Name; got != (xmlstream.Name{Space: "urn:o", Local: "Thing"}) {
		t.Errorf("part element %v", got)
	}
}

// TestBodyPartsAndOverloads covers soap:body parts="…" (the other parts
// travel as attachments), rpc/literal with element parts and overloaded
// operation names told apart by input name.
func TestBodyPartsAndOverloads(t *testing.T) {
	files := map[string][]byte{"a.wsdl": []byte(`<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
 xmlns:mime="http://schemas.xmlsoap.org/wsdl/mime/" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:t" targetNamespace="urn:t">
<types><xs:schema targetNamespace="urn:t" elementFormDefault="qualified"><xs:element name="Doc" type="xs:string"/></xs:schema></types>
<message name="Up"><part name="meta" type="xs:string"/><part name="file" type="xs:base64Binary"/></message>
<message name="One"><part name="a" type="xs:int"/></message>
<message name="Two"><part name="a" type="xs:int"/><part name="b" element="tns:Doc"/></message>
<portType name="P">
 <operation name="upload"><input message="tns:Up"/></operation>
 <operation name="add"><input name="addOne" message="tns:One"/></operation>
 <operation name="add"><input name="addTwo" message="tns:Two"/></operation>
</portType>
<binding name="B" type="tns:P"><soap:binding style="rpc"/>
 <operation name="upload"><input><mime:multipartRelated><mime:part><soap:body use="literal" parts="meta" namespace="urn:up"/></mime:part>
  <mime:part><mime:content part="file" type="application/octet-stream"/></mime:part></mime:multipartRelated></input></operation>
 <operation name="add"><input name="addTwo"><soap:body use="literal" namespace="urn:add"/></input></operation>
</binding>
<service name="S"><port name="p" binding="tns:B"><soap:address location="http://x"/></port></service></definitions>`)}
	defs, err := ParseFiles(t.Context(), "a.wsdl", files)
	if err != nil {
		t.Fatal(err)
	}
	want := `service S
  port p SOAP 1.1 binding B address "http://x"
    upload rpc/literal action="" in=rpc(upload)(meta:string) out=-
    add rpc/literal action="" in=rpc(add)(a:int b=Doc) out=-
`
	if diff := cmp.Diff(want, summarize(defs)); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
}

func TestRepairSkipsProlog(t *testing.T) {
	doc := []byte("<?xml version=\"1.0\"?>\n<!DOCTYPE d [ <!ELEMENT d ANY> ]>\n<!-- c --><?pi x?>\n<d><p:x/></d>")
	_, repaired, err := RepairNamespaces(map[string][]byte{"d.xml": doc})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(repaired["d.xml"]), "<d xmlns:p=") {
		// p has no proposal: the document must come back unchanged
		if string(repaired["d.xml"]) != string(doc) {
			t.Errorf("repaired:\n%s", repaired["d.xml"])
		}
	}
	got, err := addDeclarations(doc, []PrefixRepair{{Prefix: "p", URI: "urn:p&q"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(got), `<d xmlns:p="urn:p&amp;q">`) {
		t.Errorf("declaration not added on the root:\n%s", got)
	}
}

func TestNotificationSkipped(t *testing.T) {
	files := map[string][]byte{"a.wsdl": []byte(`<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:t" targetNamespace="urn:t">
<message name="M"><part name="a" type="xs:int"/></message>
<portType name="P"><operation name="ping"><input message="tns:M"/></operation><operation name="notify"><output message="tns:M"/></operation></portType>
<binding name="B" type="tns:P"><soap:binding style="rpc"/>
<operation name="ping"><input><soap:body use="literal" namespace="urn:t"/></input></operation>
<operation name="notify"><output><soap:body use="literal" namespace="urn:t"/></output></operation></binding>
<service name="S"><port name="p" binding="tns:B"><soap:address location="http://x"/></port></service></definitions>`)}
	defs, err := ParseFiles(t.Context(), "a.wsdl", files)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(defs.Operations()); got != 1 {
		t.Errorf("%d operations, want 1", got)
	}
	want := []string{"a.wsdl:6: operation notify has no input (a notification): skipped"}
	if diff := cmp.Diff(want, defs.Warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}
