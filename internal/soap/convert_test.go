package soap

import (
	"testing"

	"github.com/s2r-project/s2r/internal/convert"
	"github.com/s2r-project/s2r/internal/xmlstream"
	"github.com/s2r-project/s2r/internal/xsd"
)

// TestEnvelopeConversion drives a JSON request into an envelope whose
// namespaces are declared once on the Envelope, and the envelope's body
// back to JSON through BodyReader.
func TestEnvelopeConversion(t *testing.T) {
	set, err := xsd.CompileSchemas(map[string][]byte{"c.xsd": []byte(`<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:calc" elementFormDefault="qualified">
<xs:element name="Add"><xs:complexType><xs:sequence><xs:element name="a" type="xs:int"/><xs:element name="b" type="xs:decimal"/></xs:sequence></xs:complexType></xs:element>
</xs:schema>`)})
	if err != nil {
		t.Fatal(err)
	}
	el, err := set.Element(xmlstream.Name{Space: "urn:calc", Local: "Add"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := convert.Compile(&xsd.Message{Wrapped: true, Wrapper: el}, convert.Options{OmitDeclarations: true, Prefixes: map[string]string{"urn:calc": "c"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []Version{V11, V12} {
		t.Run(v.String(), func(t *testing.T) {
			env := Envelope{Version: v, Addressing: &Addressing{MessageID: "urn:uuid:1"}}
			for _, ns := range p.Namespaces() {
				env.Namespaces = append(env.Namespaces, NSDecl{Prefix: ns.Prefix, URI: ns.URI})
			}
			w := xmlstream.NewWriter(nil)
			err := Write(w, env, func(w *xmlstream.Writer) error {
				return p.JSONToXML(w, []byte(`{"b":2.50,"a":1}`))
			})
			if err != nil {
				t.Fatal(err)
			}
			m, err := Parse(w.Bytes(), xmlstream.Limits{})
			if err != nil {
				t.Fatalf("%v\n%s", err, w.Bytes())
			}
			if m.Version != v || m.Addressing.MessageID != "urn:uuid:1" || m.First != (xmlstream.Name{Space: "urn:calc", Local: "Add"}) {
				t.Fatalf("parsed %+v from %s", m, w.Bytes())
			}
			r, err := m.BodyReader()
			if err != nil {
				t.Fatal(err)
			}
			out, err := p.XMLToJSON(nil, r, "/Envelope/Body")
			if err != nil {
				t.Fatal(err)
			}
			if got, want := string(out), `{"a":1,"b":2.50}`; got != want {
				t.Errorf("JSON = %s, want %s", got, want)
			}
		})
	}
}
