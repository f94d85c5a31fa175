package samples_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/s2r-project/s2r/internal/admin/backends/samples"
	"github.com/s2r-project/s2r/internal/convert"
	"github.com/s2r-project/s2r/internal/wsdl"
	"github.com/s2r-project/s2r/internal/wsdlcorpus"
	"github.com/s2r-project/s2r/internal/xmlstream"
	"github.com/s2r-project/s2r/internal/xsd"
)

const facetsWSDL = `<?xml version="1.0"?>
<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
  xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:f" targetNamespace="urn:f">
<wsdl:types><xs:schema targetNamespace="urn:f" elementFormDefault="qualified">
<xs:simpleType name="Color"><xs:restriction base="xs:string"><xs:enumeration value="red"/><xs:enumeration value="blue"/></xs:restriction></xs:simpleType>
<xs:simpleType name="Percent"><xs:restriction base="xs:decimal"><xs:minExclusive value="10.5"/><xs:maxInclusive value="11"/></xs:restriction></xs:simpleType>
<xs:simpleType name="Big"><xs:restriction base="xs:long"><xs:minInclusive value="100"/></xs:restriction></xs:simpleType>
<xs:simpleType name="Code"><xs:restriction base="xs:string"><xs:length value="3"/></xs:restriction></xs:simpleType>
<xs:complexType name="Money"><xs:simpleContent><xs:extension base="xs:decimal"><xs:attribute name="currency" type="xs:string" use="required"/></xs:extension></xs:simpleContent></xs:complexType>
<xs:element name="Order"><xs:complexType><xs:sequence>
 <xs:element name="color" type="tns:Color"/><xs:element name="pct" type="tns:Percent"/><xs:element name="big" type="tns:Big"/>
 <xs:element name="code" type="tns:Code"/><xs:element name="when" type="xs:dateTime"/><xs:element name="day" type="xs:date"/>
 <xs:element name="at" type="xs:time"/><xs:element name="blob" type="xs:base64Binary"/><xs:element name="neg" type="xs:negativeInteger"/>
 <xs:element name="ok" type="xs:boolean"/><xs:element name="price" type="tns:Money"/>
 <xs:element name="lines" type="xs:string" maxOccurs="unbounded"/><xs:element name="note" type="xs:string" minOccurs="0"/>
 <xs:choice><xs:element name="byId" type="xs:int"/><xs:element name="byName" type="xs:string"/></xs:choice>
</xs:sequence></xs:complexType></xs:element>
<xs:element name="OrderResponse"><xs:complexType><xs:sequence/></xs:complexType></xs:element>
</xs:schema></wsdl:types>
<wsdl:message name="In"><wsdl:part name="parameters" element="tns:Order"/></wsdl:message>
<wsdl:message name="Out"><wsdl:part name="parameters" element="tns:OrderResponse"/></wsdl:message>
<wsdl:portType name="PT"><wsdl:operation name="Order"><wsdl:input message="tns:In"/><wsdl:output message="tns:Out"/></wsdl:operation></wsdl:portType>
<wsdl:binding name="B" type="tns:PT"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
<wsdl:operation name="Order"><soap:operation soapAction="urn:Order"/><wsdl:input><soap:body use="literal"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output></wsdl:operation></wsdl:binding>
<wsdl:service name="S"><wsdl:port name="P" binding="tns:B"><soap:address location="http://127.0.0.1:1/"/></wsdl:port></wsdl:service>
</wsdl:definitions>`

func TestFacets(t *testing.T) {
	defs, err := wsdl.ParseFiles(context.Background(), "f.wsdl", map[string][]byte{"f.wsdl": []byte(facetsWSDL)})
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range defs.Operations() {
		got, err := samples.Request(op.Operation)
		if err != nil {
			t.Fatal(err)
		}
		// Not a wrapped message (its wrapper has a choice), so one member per part.
		want := `{"parameters":{"at":"00:00:00","big":100,"blob":"AAAA","byId":1,"code":"str","color":"red","day":"2024-01-01",` +
			`"lines":["string"],"neg":-1,"ok":true,"pct":11,"price":{"$value":1,"@currency":"string"},"when":"2024-01-01T00:00:00Z"}}`
		if string(got) != want {
			t.Errorf("sample\n got %s\nwant %s", got, want)
		}
		checkSample(t, op.Operation, got)
	}
}

// checkSample converts the sample to XML with the operation's plan and
// validates it against the message's JSON Schema.
func checkSample(t *testing.T, op *xsd.Operation, sample []byte) {
	t.Helper()
	plan, err := convert.Compile(op.Input, convert.OptionsFor(op))
	if err != nil {
		t.Skipf("no plan: %v", err)
	}
	if err := plan.JSONToXML(xmlstream.NewWriter(nil), sample); err != nil {
		t.Errorf("converter refuses sample %s: %v", sample, err)
	}
	doc := xsd.MessageJSONSchema(op.Input, xsd.JSONSchemaOptions{}).Document()
	raw, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	schemaDoc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("mem://schema.json", schemaDoc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("mem://schema.json")
	if err != nil {
		t.Skipf("schema does not compile: %v", err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil && !strings.Contains(err.Error(), "pattern") {
		t.Errorf("sample %s fails the JSON Schema: %v", sample, err)
	}
}

// TestCorpusSamples generates samples (minimal, with optional content,
// with nillable elements null) for every operation of every importable
// corpus WSDL; each must convert and fit its JSON Schema (patterns aside).
func TestCorpusSamples(t *testing.T) {
	n := 0
	for _, rel := range wsdlcorpus.WSDLs(t) {
		root, name := wsdlcorpus.Project(t, rel)
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defs, err := wsdl.Parse(ctx, xsd.DirLoader{Root: root}, name, xmlstream.Limits{})
		cancel()
		if err != nil {
			continue
		}
		for _, op := range defs.Operations() {
			if op.Operation == nil || op.Operation.Input == nil {
				continue
			}
			t.Run(rel+"/"+op.Operation.Name, func(t *testing.T) {
				for _, opts := range []samples.Options{{}, {Optional: 3}, {Optional: 3, Nil: true}} {
					s, err := samples.RequestWith(op.Operation, opts)
					if err != nil {
						t.Fatal(err)
					}
					checkSample(t, op.Operation, s)
				}
			})
			n++
		}
	}
	t.Logf("%d corpus operations sampled", n)
}
