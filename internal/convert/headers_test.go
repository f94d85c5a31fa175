package convert

import (
	"testing"

	"github.com/s2r-project/s2r/internal/xmlstream"
	"github.com/s2r-project/s2r/internal/xsd"
)

func TestHeaders(t *testing.T) {
	set, err := xsd.CompileSchemas(map[string][]byte{"h.xsd": []byte(`<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:h" elementFormDefault="qualified">
<xs:element name="Auth"><xs:complexType><xs:sequence><xs:element name="user" type="xs:string"/><xs:element name="level" type="xs:int"/></xs:sequence></xs:complexType></xs:element>
</xs:schema>`)})
	if err != nil {
		t.Fatal(err)
	}
	el, err := set.Element(xmlstream.Name{Space: "urn:h", Local: "Auth"})
	if err != nil {
		t.Fatal(err)
	}
	msg := &xsd.Message{Headers: []*xsd.Part{{Name: "auth", Element: el}}}
	p, err := CompileHeaders(msg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	w := xmlstream.NewWriter(nil)
	if err := p.JSONToXML(w, []byte(`{"auth":{"level":2,"user":"u"}}`)); err != nil {
		t.Fatal(err)
	}
	const wantXML = `<ns1:Auth xmlns:ns1="urn:h"><ns1:user>u</ns1:user><ns1:level>2</ns1:level></ns1:Auth>`
	if got := string(w.Bytes()); got != wantXML {
		t.Errorf("JSONToXML = %s, want %s", got, wantXML)
	}
	header := `<Header><wsa:MessageID xmlns:wsa="http://www.w3.org/2005/08/addressing">x</wsa:MessageID>` + wantXML + `</Header>`
	r := xmlstream.NewReader([]byte(header), xmlstream.Limits{})
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	out, err := p.XMLToJSON(nil, r, "/Envelope/Header")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(out), `{"auth":{"user":"u","level":2}}`; got != want {
		t.Errorf("XMLToJSON = %s, want %s", got, want)
	}
	if p, _ := CompileHeaders(&xsd.Message{}, Options{}); p != nil {
		t.Error("CompileHeaders without header parts should return nil")
	}
}
