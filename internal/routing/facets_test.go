package routing

import (
	"context"
	"testing"

	"github.com/s2r-project/s2r/internal/wsdl"
)

const facetWSDL = `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
 xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:f" targetNamespace="urn:f">
 <types><xs:schema targetNamespace="urn:f" elementFormDefault="qualified">
  <xs:simpleType name="Code"><xs:restriction base="xs:string"><xs:enumeration value="A"/><xs:enumeration value="B"/></xs:restriction></xs:simpleType>
  <xs:complexType name="Inner"><xs:sequence><xs:element name="code" type="tns:Code"/></xs:sequence></xs:complexType>
  <xs:element name="Plain"><xs:complexType><xs:sequence><xs:element name="n" type="xs:int"/><xs:element name="s" type="xs:string" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element>
  <xs:element name="Nested"><xs:complexType><xs:sequence><xs:element name="inner" type="tns:Inner" minOccurs="0"/></xs:sequence></xs:complexType></xs:element>
 </xs:schema></types>
 <message name="PlainIn"><part name="p" element="tns:Plain"/></message>
 <message name="NestedIn"><part name="p" element="tns:Nested"/></message>
 <portType name="P"><operation name="Plain"><input message="tns:PlainIn"/></operation><operation name="Nested"><input message="tns:NestedIn"/></operation></portType>
 <binding name="B" type="tns:P"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
  <operation name="Plain"><soap:operation soapAction="p"/><input><soap:body use="literal"/></input></operation>
  <operation name="Nested"><soap:operation soapAction="n"/><input><soap:body use="literal"/></input></operation>
 </binding>
 <service name="S"><port name="P" binding="tns:B"><soap:address location="http://localhost/x"/></port></service>
</definitions>`

func TestNeedsSchemaCheck(t *testing.T) {
	defs, err := wsdl.ParseFiles(context.Background(), "f.wsdl", map[string][]byte{"f.wsdl": []byte(facetWSDL)})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{"Plain": false, "Nested": true} {
		op, ok := defs.Operation("", "", name)
		if !ok {
			t.Fatalf("no operation %s", name)
		}
		if got := needsSchemaCheck(op.Input); got != want {
			t.Errorf("%s: needsSchemaCheck = %v, want %v", name, got, want)
		}
	}
}
