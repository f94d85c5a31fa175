package wsdl

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/xmlstream"
)

// Sizes of the synthetic large WSDL.
const (
	benchOperations = 1000
	benchTypes      = 1600
	benchEnums      = 60
)

// largeWSDL generates a WSDL with benchOperations document/literal
// operations over a schema of shared complex types (nesting, extension,
// recursion, arrays) and enumerations.
func largeWSDL() []byte {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0"?>
<wsdl:definitions name="Big" targetNamespace="urn:big" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/"
 xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:big" xmlns:t="urn:big:types">
<wsdl:types><xs:schema targetNamespace="urn:big:types" elementFormDefault="qualified">
`)
	for i := range benchEnums {
		fmt.Fprintf(&b, `<xs:simpleType name="Enum%d"><xs:restriction base="xs:string">`, i)
		for v := range 12 {
			fmt.Fprintf(&b, `<xs:enumeration value="VALUE_%d_%d"/>`, i, v)
		}
		b.WriteString("</xs:restriction></xs:simpleType>\n")
	}
	b.WriteString(`<xs:complexType name="Base"><xs:sequence><xs:element name="id" type="xs:long"/><xs:element name="created" type="xs:dateTime"/></xs:sequence><xs:attribute name="version" type="xs:int"/></xs:complexType>` + "\n")
	for i := range benchTypes {
		fmt.Fprintf(&b, `<xs:complexType name="Type%d"><xs:complexContent><xs:extension base="t:Base"><xs:sequence>`, i)
		fmt.Fprintf(&b, `<xs:element name="name%d" type="xs:string"/><xs:element name="amount" type="xs:decimal" minOccurs="0"/>`, i)
		fmt.Fprintf(&b, `<xs:element name="status" type="t:Enum%d"/><xs:element name="flag" type="xs:boolean" nillable="true"/>`, i%benchEnums)
		fmt.Fprintf(&b, `<xs:element name="child" type="t:Type%d" minOccurs="0" maxOccurs="unbounded"/>`, (i*7+3)%benchTypes)
		fmt.Fprintf(&b, `<xs:element name="self" type="t:Type%d" minOccurs="0"/>`, i)
		fmt.Fprintf(&b, `<xs:element name="detail" minOccurs="0"><xs:complexType><xs:sequence><xs:element name="note" type="xs:string" maxOccurs="5"/><xs:element name="code" type="xs:int"/></xs:sequence></xs:complexType></xs:element>`)
		b.WriteString("</xs:sequence></xs:extension></xs:complexContent></xs:complexType>\n")
	}
	for i := range benchOperations {
		fmt.Fprintf(&b, `<xs:element name="Op%d"><xs:complexType><xs:sequence>`, i)
		fmt.Fprintf(&b, `<xs:element name="requestId" type="xs:string"/><xs:element name="item" type="t:Type%d"/><xs:element name="items" type="t:Type%d" minOccurs="0" maxOccurs="unbounded"/>`, i%benchTypes, (i*13)%benchTypes)
		fmt.Fprintf(&b, `<xs:element name="mode" type="t:Enum%d"/><xs:element name="limit" type="xs:unsignedInt" minOccurs="0"/>`, i%benchEnums)
		fmt.Fprintf(&b, `<xs:element name="filter" minOccurs="0"><xs:complexType><xs:sequence><xs:element name="from" type="xs:date"/><xs:element name="to" type="xs:date"/><xs:element name="tags" type="xs:string" maxOccurs="unbounded"/></xs:sequence><xs:attribute name="op%d" type="xs:string"/></xs:complexType></xs:element>`, i)
		b.WriteString("</xs:sequence></xs:complexType></xs:element>\n")
		fmt.Fprintf(&b, `<xs:element name="Op%dResponse"><xs:complexType><xs:sequence><xs:element name="result" type="t:Type%d" maxOccurs="unbounded"/><xs:element name="total" type="xs:long"/></xs:sequence></xs:complexType></xs:element>`+"\n", i, (i*31)%benchTypes)
	}
	b.WriteString("</xs:schema></wsdl:types>\n")
	for i := range benchOperations {
		fmt.Fprintf(&b, `<wsdl:message name="Op%dIn"><wsdl:part name="parameters" element="t:Op%d"/></wsdl:message><wsdl:message name="Op%dOut"><wsdl:part name="parameters" element="t:Op%dResponse"/></wsdl:message>`+"\n", i, i, i, i)
	}
	b.WriteString(`<wsdl:portType name="BigPort">`)
	for i := range benchOperations {
		fmt.Fprintf(&b, `<wsdl:operation name="Op%d"><wsdl:input message="tns:Op%dIn"/><wsdl:output message="tns:Op%dOut"/></wsdl:operation>`+"\n", i, i, i)
	}
	b.WriteString(`</wsdl:portType><wsdl:binding name="BigBinding" type="tns:BigPort"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>`)
	for i := range benchOperations {
		fmt.Fprintf(&b, `<wsdl:operation name="Op%d"><soap:operation soapAction="urn:big/Op%d"/><wsdl:input><soap:body use="literal"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output></wsdl:operation>`+"\n", i, i)
	}
	b.WriteString(`</wsdl:binding><wsdl:service name="Big"><wsdl:port name="BigPort" binding="tns:BigBinding"><soap:address location="http://localhost/big"/></wsdl:port></wsdl:service></wsdl:definitions>`)
	return []byte(b.String())
}

// BenchmarkImportLarge imports and compiles the synthetic WSDL: 1,000
// operations over about 2 MB of schema.
func BenchmarkImportLarge(b *testing.B) {
	data := largeWSDL()
	files := map[string][]byte{"big.wsdl": data}
	b.SetBytes(int64(len(data)))
	var peak, total uint64
	for b.Loop() {
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		defs, err := ParseFiles(context.Background(), "big.wsdl", files)
		if err != nil {
			b.Fatal(err)
		}
		if n := len(defs.Operations()); n != benchOperations {
			b.Fatalf("%d operations", n)
		}
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		peak = max(peak, after.HeapAlloc)
		total += after.TotalAlloc - before.TotalAlloc
		runtime.KeepAlive(defs)
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(total)/float64(b.N)/(1<<20), "alloc-MB/op")
	b.ReportMetric(float64(len(data))/(1<<20), "wsdl-MB")
	b.ReportMetric(float64(strings.Index(string(data), "</wsdl:types>"))/(1<<20), "schema-MB")
}

// BenchmarkParseLargeXMLOnly is the baseline: only parsing the same
// document into a tree, no import or compile.
func BenchmarkParseLargeXMLOnly(b *testing.B) {
	data := largeWSDL()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := xmlstream.Parse(data, xmlstream.Limits{}); err != nil {
			b.Fatal(err)
		}
	}
}
