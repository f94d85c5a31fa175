package soap

import (
	"fmt"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/convert"
	"github.com/s2r-project/s2r/internal/tests/cputime"
	"github.com/s2r-project/s2r/internal/xmlstream"
	"github.com/s2r-project/s2r/internal/xsd"
)

// benchEnvelope builds a SOAP 1.1 response of about size bytes: a header
// block, then a wrapper holding repeated records.
func benchEnvelope(size int) []byte {
	var b strings.Builder
	b.WriteString(`<soapenv:Envelope xmlns:soapenv="` + NS11 + `" xmlns:t="urn:t"><soapenv:Header><t:Trace>abc</t:Trace></soapenv:Header><soapenv:Body><t:ListResponse>`)
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, `<t:item><t:id>%d</t:id><t:name>Item %d &amp; co</t:name><t:price>%d.50</t:price></t:item>`, i, i, i)
	}
	b.WriteString(`</t:ListResponse></soapenv:Body></soapenv:Envelope>`)
	return []byte(b.String())
}

func benchResponsePlan(b *testing.B) *convert.Plan {
	set, err := xsd.CompileSchemas(map[string][]byte{"t.xsd": []byte(`<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:t" elementFormDefault="qualified">
<xs:element name="ListResponse"><xs:complexType><xs:sequence><xs:element name="item" maxOccurs="unbounded"><xs:complexType><xs:sequence>
<xs:element name="id" type="xs:int"/><xs:element name="name" type="xs:string"/><xs:element name="price" type="xs:decimal"/>
</xs:sequence></xs:complexType></xs:element></xs:sequence></xs:complexType></xs:element></xs:schema>`)})
	if err != nil {
		b.Fatal(err)
	}
	el, err := set.Element(xmlstream.Name{Space: "urn:t", Local: "ListResponse"})
	if err != nil {
		b.Fatal(err)
	}
	p, err := convert.Compile(&xsd.Message{Wrapped: true, Wrapper: el}, convert.Options{})
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkResponseToJSON converts a 20 KB SOAP response to JSON: TwoPass
// parses the envelope (Parse) then converts from BodyReader; OnePass uses
// ParseHead and converts from the same reader.
func BenchmarkResponseToJSON(b *testing.B) {
	p := benchResponsePlan(b)
	env := benchEnvelope(20 << 10)
	var out []byte
	b.Run("TwoPass", func(b *testing.B) {
		b.SetBytes(int64(len(env)))
		b.ReportAllocs()
		defer cputime.Report(b)()
		for b.Loop() {
			m, err := Parse(env, xmlstream.Limits{})
			if err != nil {
				b.Fatal(err)
			}
			r, err := m.BodyReader()
			if err != nil {
				b.Fatal(err)
			}
			if out, err = p.XMLToJSON(out[:0], r, "/Envelope/Body"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("OnePass", func(b *testing.B) {
		b.SetBytes(int64(len(env)))
		b.ReportAllocs()
		r := xmlstream.NewReader(nil, xmlstream.Limits{})
		defer cputime.Report(b)()
		for b.Loop() {
			m, err := ParseHeadWith(r, env, xmlstream.Limits{})
			if err != nil {
				b.Fatal(err)
			}
			if m.FaultAhead(r) {
				b.Fatal("unexpected fault")
			}
			if out, err = p.XMLToJSON(out[:0], r, "/Envelope/Body"); err != nil {
				b.Fatal(err)
			}
			if err := FinishBody(r); err != nil {
				b.Fatal(err)
			}
		}
	})
}
