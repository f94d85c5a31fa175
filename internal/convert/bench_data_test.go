package convert

import (
	"fmt"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/xmlstream"
	"github.com/s2r-project/s2r/internal/xsd"
)

// benchXSD is a realistic order-management contract: nested records,
// arrays, decimals, dates, attributes, simple content and an enumeration.
const benchXSD = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:orders" targetNamespace="urn:orders" elementFormDefault="qualified">
  <xs:complexType name="Money"><xs:simpleContent><xs:extension base="xs:decimal"><xs:attribute name="currency" type="xs:string" use="required"/></xs:extension></xs:simpleContent></xs:complexType>
  <xs:complexType name="Address"><xs:sequence>
    <xs:element name="street" type="xs:string"/><xs:element name="city" type="xs:string"/>
    <xs:element name="zip" type="xs:string"/><xs:element name="country" type="xs:string"/>
  </xs:sequence></xs:complexType>
  <xs:complexType name="Customer"><xs:sequence>
    <xs:element name="id" type="xs:long"/><xs:element name="name" type="xs:string"/>
    <xs:element name="email" type="xs:string"/><xs:element name="address" type="tns:Address"/>
    <xs:element name="vip" type="xs:boolean"/>
  </xs:sequence><xs:attribute name="segment" type="xs:string"/></xs:complexType>
  <xs:simpleType name="Status"><xs:restriction base="xs:string"><xs:enumeration value="OPEN"/><xs:enumeration value="SHIPPED"/></xs:restriction></xs:simpleType>
  <xs:complexType name="Line"><xs:sequence>
    <xs:element name="sku" type="xs:string"/><xs:element name="description" type="xs:string"/>
    <xs:element name="qty" type="xs:int"/><xs:element name="unitPrice" type="xs:decimal"/>
    <xs:element name="discount" type="xs:decimal" minOccurs="0"/>
  </xs:sequence><xs:attribute name="no" type="xs:int"/></xs:complexType>
  <xs:complexType name="Order"><xs:sequence>
    <xs:element name="placed" type="xs:dateTime"/><xs:element name="status" type="tns:Status"/>
    <xs:element name="total" type="tns:Money"/>
    <xs:element name="line" type="tns:Line" maxOccurs="unbounded"/>
  </xs:sequence><xs:attribute name="id" type="xs:string" use="required"/></xs:complexType>
  <xs:element name="GetOrdersResponse"><xs:complexType><xs:sequence>
    <xs:element name="customer" type="tns:Customer"/>
    <xs:element name="order" type="tns:Order" maxOccurs="unbounded"/>
  </xs:sequence><xs:attribute name="requestId" type="xs:string"/></xs:complexType></xs:element>
</xs:schema>`

// benchPlan compiles the benchmark contract.
func benchPlan(tb testing.TB) *Plan {
	return benchPlanOpts(tb, Options{})
}

// benchPlanOpts compiles the benchmark contract with opts (prefix "o").
func benchPlanOpts(tb testing.TB, opts Options) *Plan {
	set, err := xsd.CompileSchemas(map[string][]byte{"orders.xsd": []byte(benchXSD)})
	if err != nil {
		tb.Fatal(err)
	}
	el, err := set.Element(xmlstream.Name{Space: "urn:orders", Local: "GetOrdersResponse"})
	if err != nil {
		tb.Fatal(err)
	}
	opts.Prefixes = map[string]string{"urn:orders": "o"}
	p, err := Compile(&xsd.Message{Wrapped: true, Wrapper: el}, opts)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// benchBody generates a soapenv:Body of about size bytes.
func benchBody(size int) []byte {
	var b strings.Builder
	b.WriteString(testBodyStart)
	b.WriteString(`<o:GetOrdersResponse xmlns:o="urn:orders" requestId="req-42"><o:customer segment="retail"><o:id>9007199254740993</o:id><o:name>Ann &amp; Bo Ltd</o:name><o:email>ann@example.com</o:email><o:address><o:street>1 Main St</o:street><o:city>Springfield</o:city><o:zip>12345</o:zip><o:country>US</o:country></o:address><o:vip>true</o:vip></o:customer>`)
	for i := 1; b.Len() < size-300 || i == 1; i++ {
		fmt.Fprintf(&b, `<o:order id="ORD-%06d"><o:placed>2024-03-%02dT10:15:30Z</o:placed><o:status>OPEN</o:status><o:total currency="EUR">%d.50</o:total>`, i, i%28+1, i*37)
		for l := 1; l <= 3; l++ {
			fmt.Fprintf(&b, `<o:line no="%d"><o:sku>SKU-%05d</o:sku><o:description>Widget &lt;%d&gt; deluxe</o:description><o:qty>%d</o:qty><o:unitPrice>%d.99</o:unitPrice>`, l, i*10+l, l, l+1, l*3)
			if l == 2 {
				b.WriteString(`<o:discount>0.10</o:discount>`)
			}
			b.WriteString(`</o:line>`)
		}
		b.WriteString(`</o:order>`)
	}
	b.WriteString(`</o:GetOrdersResponse></soapenv:Body>`)
	return []byte(b.String())
}
