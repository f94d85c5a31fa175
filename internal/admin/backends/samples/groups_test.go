package samples_test

import (
	"context"
	"testing"

	"github.com/s2r-project/s2r/internal/admin/backends/samples"
	"github.com/s2r-project/s2r/internal/wsdl"
)

// groupsWSDL has elements in repeated groups, an abstract element head
// and an element declared twice in one sequence.
const groupsWSDL = `<?xml version="1.0"?>
<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
  xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:g" targetNamespace="urn:g">
<wsdl:types><xs:schema targetNamespace="urn:g" elementFormDefault="qualified">
<xs:element name="Pairs"><xs:complexType><xs:sequence>
 <xs:sequence maxOccurs="unbounded"><xs:element name="k" type="xs:string"/><xs:element name="v" type="xs:int"/></xs:sequence>
 <xs:choice maxOccurs="3"><xs:element name="a" type="xs:string"/><xs:element name="b" type="xs:int"/></xs:choice>
 <xs:element name="note" type="xs:string" minOccurs="0"/><xs:element name="memo" type="xs:string" nillable="true"/>
</xs:sequence><xs:attribute name="lang" type="xs:language"/></xs:complexType></xs:element>
<xs:complexType name="Shape"><xs:sequence><xs:element name="id" type="xs:int"/></xs:sequence></xs:complexType>
<xs:element name="shape" abstract="true" type="tns:Shape"/>
<xs:element name="circle" substitutionGroup="tns:shape"><xs:complexType><xs:complexContent><xs:extension base="tns:Shape">
 <xs:sequence><xs:element name="r" type="xs:int"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType></xs:element>
<xs:element name="Draw"><xs:complexType><xs:sequence>
 <xs:element ref="tns:shape"/><xs:element name="n" type="xs:int"/><xs:element name="n" type="xs:int" minOccurs="0"/>
</xs:sequence></xs:complexType></xs:element>
<xs:element name="Done"><xs:complexType><xs:sequence/></xs:complexType></xs:element>
</xs:schema></wsdl:types>
<wsdl:message name="PairsIn"><wsdl:part name="parameters" element="tns:Pairs"/></wsdl:message>
<wsdl:message name="DrawIn"><wsdl:part name="parameters" element="tns:Draw"/></wsdl:message>
<wsdl:message name="Out"><wsdl:part name="parameters" element="tns:Done"/></wsdl:message>
<wsdl:portType name="PT">
 <wsdl:operation name="Pairs"><wsdl:input message="tns:PairsIn"/><wsdl:output message="tns:Out"/></wsdl:operation>
 <wsdl:operation name="Draw"><wsdl:input message="tns:DrawIn"/><wsdl:output message="tns:Out"/></wsdl:operation>
</wsdl:portType>
<wsdl:binding name="B" type="tns:PT"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
 <wsdl:operation name="Pairs"><soap:operation soapAction="urn:Pairs"/><wsdl:input><soap:body use="literal"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output></wsdl:operation>
 <wsdl:operation name="Draw"><soap:operation soapAction="urn:Draw"/><wsdl:input><soap:body use="literal"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output></wsdl:operation>
</wsdl:binding>
<wsdl:service name="S"><wsdl:port name="P" binding="tns:B"><soap:address location="http://127.0.0.1:1/"/></wsdl:port></wsdl:service>
</wsdl:definitions>`

// TestGroups: elements inside a repeated sequence or choice, and an
// element declared twice, are JSON arrays (the converter refuses a single
// value); an abstract element is sampled as the first member of its
// substitution group, under that member's name. With Options.Optional the
// optional content is filled and repeated elements get two items; with
// Options.Nil nillable elements are null.
func TestGroups(t *testing.T) {
	defs, err := wsdl.ParseFiles(context.Background(), "g.wsdl", map[string][]byte{"g.wsdl": []byte(groupsWSDL)})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][3]string{
		"Pairs": {`{"parameters":{"a":["string"],"k":["string"],"memo":"string","v":[1]}}`,
			`{"parameters":{"@lang":"en","a":["string","string"],"k":["string","string"],"memo":"string","note":"string","v":[1,1]}}`,
			`{"parameters":{"a":["string"],"k":["string"],"memo":null,"v":[1]}}`},
		"Draw": {`{"circle":{"id":1,"r":1},"n":[1]}`, `{"circle":{"id":1,"r":1},"n":[1,1]}`, `{"circle":{"id":1,"r":1},"n":[1]}`},
	}
	for _, op := range defs.Operations() {
		for i, opts := range []samples.Options{{}, {Optional: 3}, {Nil: true}} {
			got, err := samples.RequestWith(op.Operation, opts)
			if err != nil {
				t.Fatal(err)
			}
			if w := want[op.Name][i]; string(got) != w {
				t.Errorf("%s %+v:\n got %s\nwant %s", op.Name, opts, got, w)
			}
			checkSample(t, op.Operation, got)
		}
	}
}
