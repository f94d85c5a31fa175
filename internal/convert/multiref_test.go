package convert

import (
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/xmlstream"
	"github.com/s2r-project/s2r/internal/xsd"
)

// TestMultiRefBomb: references to references must not expand like an
// entity bomb.
func TestMultiRefBomb(t *testing.T) {
	set, err := xsd.CompileSchemas(map[string][]byte{"a.xsd": []byte(`<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:t="urn:t" targetNamespace="urn:t">
<xs:complexType name="Node"><xs:sequence><xs:element name="k" type="t:Node" minOccurs="0" maxOccurs="unbounded"/></xs:sequence></xs:complexType>
</xs:schema>`)})
	if err != nil {
		t.Fatal(err)
	}
	node, err := set.Type(xmlstream.Name{Space: "urn:t", Local: "Node"})
	if err != nil {
		t.Fatal(err)
	}
	msg := &xsd.Message{Wrapper: &xsd.Element{Name: xmlstream.Name{Space: "urn:t", Local: "opResponse"}}, Parts: []*xsd.Part{{Name: "n", Type: node}}}
	p, err := Compile(msg, Options{Encoded: true})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString(`<t:opResponse xmlns:t="urn:t"><n href="#l0"/></t:opResponse>`)
	for i := 0; i < 30; i++ {
		b.WriteString(`<m id="l` + itoa(i) + `">`)
		for k := 0; k < 10; k++ {
			b.WriteString(`<k href="#l` + itoa(i+1) + `"/>`)
		}
		b.WriteString(`</m>`)
	}
	b.WriteString(`<m id="l30"/>`)
	c := &goldenCase{plan: p}
	_, err = c.bodyJSON(b.String(), nil)
	if err == nil || !strings.Contains(err.Error(), "href references") {
		t.Fatalf("reference bomb: err = %v", err)
	}
}
