package xsd

import (
	"slices"

	"github.com/s2r-project/s2r/internal/xmlstream"
)

// complexBody compiles an xs:complexType definition into t.
func (c *compiler) complexBody(d decl, el *xmlstream.Element, t *Type) error {
	if isSOAPArray(t.Name) { // soapenc:Array itself: an array of anything
		it, err := c.typeRef(xmlstream.Name{Space: NSXSD, Local: "anyType"}, d, el)
		if err != nil {
			return err
		}
		setArray(t, &Element{Name: xmlstream.Name{Local: "item"}, Type: it, Nillable: true})
		return nil
	}
	t.Mixed = boolAttr(el, "mixed")
	t.Abstract = boolAttr(el, "abstract")
	for _, ch := range el.Children {
		switch {
		case isXS(ch, "simpleContent"):
			return c.simpleContent(d, ch, t)
		case isXS(ch, "complexContent"):
			if boolAttr(ch, "mixed") {
				t.Mixed = true
			}
			return c.complexContent(d, ch, t)
		}
	}
	content, attrs, anyAttr, err := c.ownContent(d, el)
	if err != nil {
		return err
	}
	t.Content, t.Attributes, t.AnyAttribute = content, attrs, anyAttr
	return nil
}

// ownContent compiles the model group and attribute declarations directly
// inside el (a complexType, extension or restriction).
func (c *compiler) ownContent(d decl, el *xmlstream.Element) (*Particle, []*Attribute, bool, error) {
	var content *Particle
	for _, ch := range el.Children {
		if isXS(ch, "sequence") || isXS(ch, "choice") || isXS(ch, "all") || isXS(ch, "group") {
			p, err := c.particle(d, ch)
			if err != nil {
				return nil, nil, false, err
			}
			content = p
			break
		}
		if u := c.undeclaredChild(d, ch); u != nil && content == nil {
			content = undeclaredParticle(d, ch, u) // unless a model group follows
		}
	}
	attrs, anyAttr, err := c.attributes(d, el)
	if err != nil {
		return nil, nil, false, err
	}
	return content, attrs, anyAttr, nil
}

// derivation returns the extension or restriction child of a content
// element and its resolved base.
func (c *compiler) derivation(d decl, el *xmlstream.Element) (*xmlstream.Element, xmlstream.Name, error) {
	for _, ch := range el.Children {
		if isXS(ch, "extension") || isXS(ch, "restriction") {
			v, ok := ch.Attr("", "base")
			if !ok || v == "" {
				return ch, xmlstream.Name{}, nil
			}
			bn, err := d.doc.resolve(ch, v)
			return ch, bn, err
		}
	}
	return nil, xmlstream.Name{}, errorf(d.doc.location, el.Line, "xs:%s without extension or restriction", el.Name.Local)
}

func (c *compiler) complexContent(d decl, el *xmlstream.Element, t *Type) error {
	der, base, err := c.derivation(d, el)
	if err != nil {
		return err
	}
	if der.Name.Local == "restriction" && isSOAPArray(base) {
		return c.soapArray(d, der, t)
	}
	content, attrs, anyAttr, err := c.ownContent(d, der)
	if err != nil {
		return err
	}
	if base.Local == "" || isAnyType(base) {
		t.Content, t.Attributes, t.AnyAttribute = content, attrs, anyAttr
		if isAnyType(base) && der.Name.Local == "extension" {
			t.Content = concatContent(anyType().Content, content)
			t.AnyAttribute = true
		}
		return nil
	}
	bt, err := c.completedType(base, d, der)
	if err != nil {
		return err
	}
	t.Base = bt
	if der.Name.Local == "extension" {
		t.Content = concatContent(bt.Content, content)
		t.Attributes = mergeAttributes(bt.Attributes, attrs, nil)
		t.AnyAttribute = bt.AnyAttribute || anyAttr
		t.Mixed = t.Mixed || bt.Mixed
		t.Simple = bt.Simple
		return nil
	}
	t.Content = content
	t.Attributes = mergeAttributes(bt.Attributes, attrs, prohibited(d, der))
	t.AnyAttribute = anyAttr
	return nil
}

func (c *compiler) simpleContent(d decl, el *xmlstream.Element, t *Type) error {
	der, base, err := c.derivation(d, el)
	if err != nil {
		return err
	}
	_, attrs, anyAttr, err := c.ownContent(d, der)
	if err != nil {
		return err
	}
	var bt *Type
	if base.Local != "" {
		if bt, err = c.completedType(base, d, der); err != nil {
			return err
		}
		t.Base = bt
	}
	st := &SimpleType{Builtin: "anySimpleType", Kind: JSONString}
	var baseAttrs []*Attribute
	if bt != nil {
		baseAttrs = bt.Attributes
		if bt.Simple != nil {
			st = bt.Simple
		}
	}
	if der.Name.Local == "extension" {
		t.Simple = st
		t.Attributes = mergeAttributes(baseAttrs, attrs, nil)
		t.AnyAttribute = anyAttr || (bt != nil && bt.AnyAttribute)
		return nil
	}
	if t.Simple, err = c.restrictSimple(d, der, st); err != nil {
		return err
	}
	t.Simple.Name = xmlstream.Name{}
	t.Attributes = mergeAttributes(baseAttrs, attrs, prohibited(d, der))
	t.AnyAttribute = anyAttr
	return nil
}

// concatContent is the content of an extension: the base content followed
// by the extension's own.
func concatContent(base, own *Particle) *Particle {
	switch {
	case base == nil:
		return own
	case own == nil:
		return base
	}
	if isPlainSequence(base) && isPlainSequence(own) {
		children := make([]*Particle, 0, len(base.Children)+len(own.Children))
		children = append(append(children, base.Children...), own.Children...)
		return &Particle{Kind: ParticleSequence, MinOccurs: 1, MaxOccurs: 1, Children: children}
	}
	return &Particle{Kind: ParticleSequence, MinOccurs: 1, MaxOccurs: 1, Children: []*Particle{base, own}}
}

func isPlainSequence(p *Particle) bool {
	return p.Kind == ParticleSequence && p.MinOccurs == 1 && p.MaxOccurs == 1
}

// mergeAttributes returns base's attributes with own ones replacing
// same-named ones or appended, minus the prohibited names.
func mergeAttributes(base, own []*Attribute, prohibit map[xmlstream.Name]bool) []*Attribute {
	out := slices.Clone(base)
	for _, a := range own {
		if i := slices.IndexFunc(out, func(b *Attribute) bool { return b.Name == a.Name }); i >= 0 {
			out[i] = a
		} else {
			out = append(out, a)
		}
	}
	if len(prohibit) > 0 {
		out = slices.DeleteFunc(out, func(a *Attribute) bool { return prohibit[a.Name] })
	}
	return out
}

// particle compiles a sequence, choice, all, group reference, element or
// any into a particle.
func (c *compiler) particle(d decl, el *xmlstream.Element) (*Particle, error) {
	minOcc, maxOcc, err := occurs(d, el)
	if err != nil {
		return nil, err
	}
	p := &Particle{MinOccurs: minOcc, MaxOccurs: maxOcc}
	switch el.Name.Local {
	case "sequence", "choice", "all":
		p.Kind = map[string]ParticleKind{"sequence": ParticleSequence, "choice": ParticleChoice, "all": ParticleAll}[el.Name.Local]
		for _, ch := range el.Children {
			if u := c.undeclaredChild(d, ch); u != nil {
				p.Children = append(p.Children, undeclaredParticle(d, ch, u))
				continue
			}
			if !isParticle(ch) {
				continue
			}
			cp, err := c.particle(d, ch)
			if err != nil {
				return nil, err
			}
			if cp != nil {
				p.Children = append(p.Children, cp)
			}
		}
		return p, nil
	case "element":
		p.Kind = ParticleElement
		p.Element, err = c.particleElement(d, el)
		return p, err
	case "any":
		p.Kind = ParticleAny
		p.Wildcard = wildcard(el)
		return p, nil
	case "group":
		return c.groupRef(d, el, minOcc, maxOcc)
	}
	return nil, nil
}

// undeclaredParticle is the stand-in of an element of unknown namespace
// in a content model: a lax wildcard with the element's bounds.
func undeclaredParticle(d decl, el *xmlstream.Element, u *Unresolved) *Particle {
	minOcc, maxOcc, err := occurs(d, el)
	if err != nil {
		minOcc, maxOcc = 0, Unbounded
	}
	return anyGroupFor(u, minOcc, maxOcc)
}

func isParticle(el *xmlstream.Element) bool {
	switch el.Name.Local {
	case "sequence", "choice", "all", "element", "any", "group":
		return xsdNamespaces[el.Name.Space]
	}
	return false
}

func (c *compiler) particleElement(d decl, el *xmlstream.Element) (*Element, error) {
	if v, ok := el.Attr("", "ref"); ok {
		rn, err := d.doc.resolve(el, v)
		if err != nil {
			return nil, err
		}
		return c.elementRef(rn, d, el)
	}
	return c.localElement(d, el)
}

// groupRef inlines a model group definition with the reference's bounds.
func (c *compiler) groupRef(d decl, el *xmlstream.Element, minOcc, maxOcc int) (*Particle, error) {
	v, _ := el.Attr("", "ref")
	gn, err := d.doc.resolve(el, v)
	if err != nil {
		return nil, err
	}
	_, gd, ok := c.lookupRef(c.s.groups, gn, d)
	if !ok {
		if u := c.dangling(d, el, "group", gn); u != nil {
			return anyGroupFor(u, minOcc, maxOcc), nil
		}
		return nil, refErr(d, el, "group", gn)
	}
	p, err := c.groupParticle(gd, gn, el)
	if err != nil || p == nil {
		return nil, err
	}
	cp := *p // the group's particles are shared; only the bounds differ
	cp.MinOccurs, cp.MaxOccurs = minOcc, maxOcc
	return &cp, nil
}

// groupParticle compiles a model group definition once.
func (c *compiler) groupParticle(gd decl, gn xmlstream.Name, at *xmlstream.Element) (*Particle, error) {
	if p, ok := c.groups[gd.el]; ok {
		return p, nil
	}
	if c.stack[gd.el] {
		return nil, errorf(gd.doc.location, at.Line, "group %s contains itself", displayName(gn))
	}
	if err := c.enter(gd, at); err != nil {
		return nil, err
	}
	c.stack[gd.el] = true
	defer func() { delete(c.stack, gd.el); c.leave() }()
	var p *Particle
	for _, ch := range gd.el.Children {
		if isXS(ch, "sequence") || isXS(ch, "choice") || isXS(ch, "all") {
			var err error
			if p, err = c.particle(gd, ch); err != nil {
				return nil, err
			}
			break
		}
	}
	c.groups[gd.el] = p
	return p, nil
}

func wildcard(el *xmlstream.Element) *Wildcard {
	w := &Wildcard{Namespace: "##any", ProcessContents: "strict"}
	if v, ok := el.Attr("", "namespace"); ok {
		w.Namespace = v
	}
	if v, ok := el.Attr("", "processContents"); ok {
		w.ProcessContents = v
	}
	return w
}
