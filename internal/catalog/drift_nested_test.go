package catalog

import (
	"context"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/wsdl"
)

// nestedDefs parses a one-operation WSDL whose schema is types, with
// request element Op and response element OpResponse defined in it.
func nestedDefs(t *testing.T, types string) *wsdl.Definitions {
	t.Helper()
	doc := `<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
  xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:n" targetNamespace="urn:n">
<wsdl:types><xs:schema targetNamespace="urn:n" elementFormDefault="qualified">` + types + `
<xs:element name="OpResponse"><xs:complexType><xs:sequence><xs:element name="ok" type="xs:boolean"/></xs:sequence></xs:complexType></xs:element>
</xs:schema></wsdl:types>
<wsdl:message name="In"><wsdl:part name="parameters" element="tns:Op"/></wsdl:message>
<wsdl:message name="Out"><wsdl:part name="parameters" element="tns:OpResponse"/></wsdl:message>
<wsdl:portType name="PT"><wsdl:operation name="Op"><wsdl:input message="tns:In"/><wsdl:output message="tns:Out"/></wsdl:operation></wsdl:portType>
<wsdl:binding name="B" type="tns:PT"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
<wsdl:operation name="Op"><soap:operation soapAction="urn:Op"/><wsdl:input><soap:body use="literal"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output></wsdl:operation></wsdl:binding>
<wsdl:service name="S"><wsdl:port name="P" binding="tns:B"><soap:address location="http://127.0.0.1:1/"/></wsdl:port></wsdl:service>
</wsdl:definitions>`
	defs, err := wsdl.ParseFiles(context.Background(), "n.wsdl", map[string][]byte{"n.wsdl": []byte(doc)})
	if err != nil {
		t.Fatal(err)
	}
	return defs
}

const nestedOld = `
<xs:complexType name="Addr"><xs:sequence>
  <xs:element name="street" type="xs:string"/>
  <xs:element name="next" type="tns:Addr" minOccurs="0"/>
</xs:sequence></xs:complexType>
<xs:element name="Op"><xs:complexType><xs:sequence>
  <xs:element name="home" type="tns:Addr"/>
  <xs:element name="work" type="tns:Addr" minOccurs="0"/>
</xs:sequence></xs:complexType></xs:element>`

func TestDriftNestedAndRecursive(t *testing.T) {
	old := nestedDefs(t, nestedOld)
	ops, err := DraftOperations(old, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if rep := Drift(old, nestedDefs(t, nestedOld), ops); rep.Status != UpToDate {
		t.Fatalf("same recursive contract: %+v", rep)
	}
	changed := strings.Replace(nestedOld, `<xs:element name="street" type="xs:string"/>`,
		`<xs:element name="street" type="xs:int"/><xs:element name="zip" type="xs:string"/>`, 1)
	rep := Drift(old, nestedDefs(t, changed), ops)
	var got []string
	for _, c := range rep.Changes {
		b := "additive"
		if c.Breaking {
			b = "breaking"
		}
		got = append(got, c.Kind+" "+c.Field+" "+b)
	}
	want := []string{
		"FIELD_RETYPED home/street breaking",
		"REQUIRED_FIELD_ADDED home/zip breaking",
		"FIELD_RETYPED work/street breaking",
		"FIELD_ADDED work/zip additive", // under an optional parent
	}
	if rep.Status != BreakingDrift || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("status %s, changes:\n%s\nwant:\n%s", rep.Status, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
