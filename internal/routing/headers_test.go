package routing

import (
	"context"
	"testing"

	"github.com/s2r-project/s2r/internal/wsdl"
	"github.com/s2r-project/s2r/internal/xmlstream"
)

const headerWSDL = `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
 xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:h" targetNamespace="urn:h">
 <types><xs:schema targetNamespace="urn:h" elementFormDefault="qualified">
  <xs:element name="Get"><xs:complexType><xs:sequence><xs:element name="id" type="xs:int"/></xs:sequence></xs:complexType></xs:element>
  <xs:element name="GetResponse"><xs:complexType><xs:sequence><xs:element name="v" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
  <xs:element name="Token"><xs:simpleType><xs:restriction base="xs:string"><xs:maxLength value="8"/></xs:restriction></xs:simpleType></xs:element>
  <xs:element name="Trace" type="xs:string"/>
 </xs:schema></types>
 <message name="GetIn"><part name="parameters" element="tns:Get"/><part name="token" element="tns:Token"/></message>
 <message name="GetOut"><part name="parameters" element="tns:GetResponse"/></message>
 <message name="TraceHeader"><part name="trace" element="tns:Trace"/></message>
 <portType name="P"><operation name="Get"><input message="tns:GetIn"/><output message="tns:GetOut"/></operation>
  <operation name="Plain"><input message="tns:GetOut"/></operation></portType>
 <binding name="B" type="tns:P"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
  <operation name="Get"><soap:operation soapAction="g"/>
   <input><soap:body use="literal"/><soap:header message="tns:GetIn" part="token" use="literal"/></input>
   <output><soap:body use="literal"/><soap:header message="tns:TraceHeader" part="trace" use="literal"/></output></operation>
  <operation name="Plain"><soap:operation soapAction="p"/><input><soap:body use="literal"/></input></operation>
 </binding>
 <service name="S"><port name="P" binding="tns:B"><soap:address location="http://localhost/x"/></port></service>
</definitions>`

// TestCompileHeaders: header parts compile into their own plan and schema;
// their facets do not make the body's schema check necessary.
func TestCompileHeaders(t *testing.T) {
	defs, err := wsdl.ParseFiles(context.Background(), "h.wsdl", map[string][]byte{"h.wsdl": []byte(headerWSDL)})
	if err != nil {
		t.Fatal(err)
	}
	c, ok := defs.Operation("", "", "Get")
	if !ok {
		t.Fatal("no operation Get")
	}
	op := &Operation{ID: "op-get"}
	if err := compileContract(op, c); err != nil {
		t.Fatal(err)
	}
	if op.RequestHeaders == nil || op.ResponseHeaders == nil {
		t.Fatalf("header parts not compiled: %+v %+v", op.RequestHeaders, op.ResponseHeaders)
	}
	if op.RequestSchemaCheck || !op.RequestHeaders.SchemaCheck || op.ResponseHeaders.SchemaCheck {
		t.Errorf("schema checks: body %v, request headers %v, response headers %v",
			op.RequestSchemaCheck, op.RequestHeaders.SchemaCheck, op.ResponseHeaders.SchemaCheck)
	}
	if _, ok := op.Params["token"]; ok {
		t.Error("a header part is a top-level body field for parameters")
	}
	doc, _ := DecodeJSON([]byte(`{"token":"123456789"}`))
	if v := SchemaViolations(op.RequestHeaders.Schema, doc); len(PrefixViolations(v)) != 1 || v[0].Pointer != "/$headers/token" {
		t.Errorf("violations = %+v", v)
	}
	w := xmlstream.NewWriter(nil)
	if err := op.RequestHeaders.Plan.JSONToXML(w, []byte(`{"token":"t"}`)); err != nil {
		t.Fatal(err)
	}
	if got, want := string(w.Bytes()), `<ns1:Token xmlns:ns1="urn:h">t</ns1:Token>`; got != want {
		t.Errorf("header block = %s, want %s (self-contained)", got, want)
	}

	plain, _ := defs.Operation("", "", "Plain")
	op = &Operation{ID: "op-plain"}
	if err := compileContract(op, plain); err != nil {
		t.Fatal(err)
	}
	if op.RequestHeaders != nil || op.ResponseHeaders != nil {
		t.Error("an operation without header parts has header plans")
	}
}

const encodedHeaderWSDL = `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
 xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:e" targetNamespace="urn:e">
 <message name="In"><part name="n" type="xsd:int"/></message>
 <message name="Out"><part name="r" type="xsd:int"/></message>
 <message name="Hdr"><part name="session" type="xsd:string"/></message>
 <portType name="P"><operation name="Op"><input message="tns:In"/><output message="tns:Out"/></operation></portType>
 <binding name="B" type="tns:P"><soap:binding style="rpc" transport="http://schemas.xmlsoap.org/soap/http"/>
  <operation name="Op"><soap:operation soapAction="o"/>
   <input><soap:body use="encoded" namespace="urn:e" encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"/>
    <soap:header message="tns:Hdr" part="session" use="encoded" namespace="urn:e" encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"/></input>
   <output><soap:body use="encoded" namespace="urn:e" encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"/></output></operation>
 </binding>
 <service name="S"><port name="P" binding="tns:B"><soap:address location="http://localhost/x"/></port></service>
</definitions>`

// TestCompileHeadersEncoded: an rpc/encoded operation's header part is
// written with its xsi:type, the block declaring the xsi prefix itself.
func TestCompileHeadersEncoded(t *testing.T) {
	defs, err := wsdl.ParseFiles(context.Background(), "e.wsdl", map[string][]byte{"e.wsdl": []byte(encodedHeaderWSDL)})
	if err != nil {
		t.Fatal(err)
	}
	c, ok := defs.Operation("", "", "Op")
	if !ok {
		t.Fatal("no operation Op")
	}
	op := &Operation{ID: "op-e"}
	if err := compileContract(op, c); err != nil {
		t.Fatal(err)
	}
	w := xmlstream.NewWriter(nil)
	if err := op.RequestHeaders.Plan.JSONToXML(w, []byte(`{"session":"s"}`)); err != nil {
		t.Fatal(err)
	}
	const want = `<session xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xsi:type="xsd:string">s</session>`
	if got := string(w.Bytes()); got != want {
		t.Errorf("header block = %s, want %s", got, want)
	}
}
