package xsd

import (
	"strings"

	"github.com/s2r-project/s2r/internal/xmlstream"
)

// soapArray compiles a restriction of soapenc:Array: the item comes from
// the wsdl:arrayType of the soapenc:arrayType attribute ("tns:Item[]"), or
// from the single element of the restriction's content, or is anyType.
// The content becomes one repeated item element, and ArrayItem names it.
func (c *compiler) soapArray(d decl, der *xmlstream.Element, t *Type) error {
	t.Base = nil
	content, _, _, err := c.ownContent(d, der)
	if err != nil {
		return err
	}
	item := singleElement(content)
	if item == nil {
		it, err := c.arrayItemType(d, der)
		if err != nil {
			return err
		}
		item = &Element{Name: xmlstream.Name{Local: "item"}, Type: it, Nillable: true}
	}
	setArray(t, item)
	return nil
}

func setArray(t *Type, item *Element) {
	t.ArrayItem = item
	t.Content = &Particle{Kind: ParticleSequence, MinOccurs: 1, MaxOccurs: 1, Children: []*Particle{
		{Kind: ParticleElement, MinOccurs: 0, MaxOccurs: Unbounded, Element: item},
	}}
}

// singleElement returns the only element of a content model, if that is
// all it holds.
func singleElement(p *Particle) *Element {
	for p != nil && (p.Kind == ParticleSequence || p.Kind == ParticleAll || p.Kind == ParticleChoice) {
		if len(p.Children) != 1 {
			return nil
		}
		p = p.Children[0]
	}
	if p != nil && p.Kind == ParticleElement {
		return p.Element
	}
	return nil
}

// arrayItemType finds the item type declared by wsdl:arrayType (SOAP 1.1)
// or wsdl:itemType on an attribute of the restriction.
func (c *compiler) arrayItemType(d decl, der *xmlstream.Element) (*Type, error) {
	for _, ch := range der.Children {
		if !isXS(ch, "attribute") {
			continue
		}
		v, ok := ch.Attr(NSWSDL, "arrayType")
		if !ok {
			v, ok = ch.Attr(NSWSDL, "itemType")
		}
		if !ok || strings.TrimSpace(v) == "" {
			continue
		}
		return c.arrayTypeValue(d, ch, strings.TrimSpace(v))
	}
	return c.typeRef(xmlstream.Name{Space: NSXSD, Local: "anyType"}, d, der)
}

// arrayTypeValue compiles "prefix:Type[]" ("[][]" nests arrays; sizes and
// ranks such as "[5]" or "[,]" are ignored).
func (c *compiler) arrayTypeValue(d decl, at *xmlstream.Element, v string) (*Type, error) {
	i := strings.IndexByte(v, '[')
	qn, dims := v, ""
	if i >= 0 {
		qn, dims = v[:i], v[i:]
	}
	n, err := d.doc.resolve(at, qn)
	if err != nil {
		return nil, err
	}
	t, err := c.typeRef(n, d, at)
	if err != nil {
		return nil, err
	}
	for depth := strings.Count(dims, "["); depth > 1; depth-- {
		outer := &Type{}
		setArray(outer, &Element{Name: xmlstream.Name{Local: "item"}, Type: t, Nillable: true})
		t = outer
	}
	return t, nil
}
