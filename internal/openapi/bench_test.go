package openapi_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/openapi"
	"github.com/s2r-project/s2r/internal/wsdl"
	"github.com/s2r-project/s2r/internal/xsd"
)

// largeWSDL renders a document/literal WSDL with ops operations whose
// messages use types shared complex types (each with a nested type, an
// array and an enumeration).
func largeWSDL(ops, types int) string {
	var sch, msgs, pt, bind strings.Builder
	sch.WriteString(`<xs:simpleType name="Status"><xs:restriction base="xs:string"><xs:enumeration value="A"/><xs:enumeration value="B"/></xs:restriction></xs:simpleType>`)
	for i := range types {
		fmt.Fprintf(&sch, `<xs:complexType name="T%d"><xs:sequence><xs:element name="id" type="xs:long"/><xs:element name="name" type="xs:string" minOccurs="0"/>`+
			`<xs:element name="status" type="tns:Status"/><xs:element name="items" type="xs:decimal" maxOccurs="unbounded"/>`+
			`<xs:element name="next" type="tns:T%d" minOccurs="0"/></xs:sequence></xs:complexType>`, i, (i+1)%types)
	}
	for i := range ops {
		fmt.Fprintf(&sch, `<xs:element name="Op%[1]d"><xs:complexType><xs:sequence><xs:element name="in" type="tns:T%[2]d"/><xs:element name="when" type="xs:dateTime"/></xs:sequence></xs:complexType></xs:element>`+
			`<xs:element name="Op%[1]dResponse"><xs:complexType><xs:sequence><xs:element name="out" type="tns:T%[3]d" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element>`,
			i, i%types, (i+7)%types)
		fmt.Fprintf(&msgs, `<wsdl:message name="Op%[1]dIn"><wsdl:part name="parameters" element="tns:Op%[1]d"/></wsdl:message>`+
			`<wsdl:message name="Op%[1]dOut"><wsdl:part name="parameters" element="tns:Op%[1]dResponse"/></wsdl:message>`, i)
		fmt.Fprintf(&pt, `<wsdl:operation name="Op%[1]d"><wsdl:input message="tns:Op%[1]dIn"/><wsdl:output message="tns:Op%[1]dOut"/></wsdl:operation>`, i)
		fmt.Fprintf(&bind, `<wsdl:operation name="Op%[1]d"><soap:operation soapAction="urn:Op%[1]d"/><wsdl:input><soap:body use="literal"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output></wsdl:operation>`, i)
	}
	return `<?xml version="1.0"?><wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" ` +
		`xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:big" targetNamespace="urn:big">` +
		`<wsdl:types><xs:schema targetNamespace="urn:big" elementFormDefault="qualified">` + sch.String() + `</xs:schema></wsdl:types>` +
		msgs.String() + `<wsdl:portType name="PT">` + pt.String() + `</wsdl:portType>` +
		`<wsdl:binding name="B" type="tns:PT"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>` + bind.String() + `</wsdl:binding>` +
		`<wsdl:service name="Big"><wsdl:port name="P" binding="tns:B"><soap:address location="http://10.0.0.1/big"/></wsdl:port></wsdl:service></wsdl:definitions>`
}

func largeInput(b *testing.B) openapi.Input {
	defs, err := wsdl.ParseFiles(context.Background(), "big.wsdl", map[string][]byte{"big.wsdl": []byte(largeWSDL(1000, 200))})
	if err != nil {
		b.Fatal(err)
	}
	in, ok := corpusInput(&testing.T{}, defs)
	if !ok {
		b.Fatal("no draft")
	}
	return in
}

// BenchmarkGenerateLarge generates the document of 1,000 operations.
func BenchmarkGenerateLarge(b *testing.B) {
	in := largeInput(b)
	b.ReportAllocs()
	var size int
	for b.Loop() {
		doc, err := openapi.Generate(in)
		if err != nil {
			b.Fatal(err)
		}
		size = len(doc)
	}
	b.ReportMetric(float64(size)/1e6, "doc-MB")
}

// BenchmarkSchemasOnlyLarge is the baseline: only the JSON Schemas of the
// same 2,000 messages, with one shared generator.
func BenchmarkSchemasOnlyLarge(b *testing.B) {
	in := largeInput(b)
	b.ReportAllocs()
	for b.Loop() {
		g := xsd.NewJSONSchemaGenerator(xsd.JSONSchemaOptions{})
		for _, op := range in.Operations {
			g.Message(op.Contract.Input)
			g.Message(op.Contract.Output)
		}
	}
}
