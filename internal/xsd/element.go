package xsd

import (
	"github.com/s2r-project/s2r/internal/xmlstream"
)

// elementRef returns the (possibly not yet compiled) global element name,
// queueing its compilation.
func (c *compiler) elementRef(name xmlstream.Name, from decl, at *xmlstream.Element) (*Element, error) {
	if e, ok := c.elements[name]; ok {
		return e.e, nil
	}
	resolved, d, ok := c.lookupRef(c.s.elements, name, from)
	if !ok {
		if u := c.dangling(from, at, "element", name); u != nil {
			return &Element{Name: name, Type: AnyTypeFor(u)}, nil
		}
		return nil, refErr(from, at, "element", name)
	}
	if e, ok := c.elements[resolved]; ok {
		if e.state == statePending && !e.queued { // its compile failed before
			e.queued = true
			c.queue = append(c.queue, func() error { e.queued = false; return c.completeElement(e) })
		}
		return e.e, nil
	}
	e := &elementEntry{e: &Element{Name: resolved}, d: d, queued: true}
	c.elements[resolved] = e
	c.queue = append(c.queue, func() error { e.queued = false; return c.completeElement(e) })
	return e.e, nil
}

func (c *compiler) completeElement(e *elementEntry) error {
	switch e.state {
	case stateDone:
		return nil
	case stateBusy:
		return errorf(e.d.doc.location, e.d.el.Line, "element %s is in its own substitution group", displayName(e.e.Name))
	}
	e.state = stateBusy
	if err := c.enter(e.d, e.d.el); err != nil {
		e.state = statePending
		return err
	}
	defer c.leave()
	if err := c.elementBody(e); err != nil {
		e.state = statePending
		c.failed[e.e] = err
		return err
	}
	delete(c.failed, e.e)
	e.state = stateDone
	return nil
}

// elementBody compiles a global element declaration and its substitutes.
func (c *compiler) elementBody(e *elementEntry) error {
	e.e.Substitutes = nil
	el := e.d.el
	if err := c.fillElement(e.d, el, e.e); err != nil {
		return err
	}
	e.e.Abstract = boolAttr(el, "abstract")
	if e.e.Type == nil { // no type: the substitution group head's, else anyType
		t, err := c.headType(e.d, el)
		if err != nil {
			return err
		}
		e.e.Type = t
	}
	members := c.members(e.e.Name)
	if err := c.link(e.d, len(members)); err != nil {
		return err
	}
	for _, m := range members {
		me, err := c.elementRef(m, e.d, el)
		if err != nil {
			return err
		}
		e.e.Substitutes = append(e.e.Substitutes, me)
	}
	return nil
}

// headType is the type of an element declared without one: its
// substitution group head's type, or anyType.
func (c *compiler) headType(d decl, el *xmlstream.Element) (*Type, error) {
	if v, ok := el.Attr("", "substitutionGroup"); ok && v != "" {
		hn, err := d.doc.resolve(el, firstField(v))
		if err != nil {
			return nil, err
		}
		head, err := c.elementRef(hn, d, el)
		if err != nil {
			return nil, err
		}
		he, ok := c.elements[head.Name]
		if !ok || he.e != head { // a lenient stand-in for an undeclared head
			return head.Type, nil
		}
		if err := c.completeElement(he); err != nil {
			return nil, err
		}
		if he.e.Type != nil {
			return he.e.Type, nil
		}
	}
	return c.typeRef(xmlstream.Name{Space: NSXSD, Local: "anyType"}, d, el)
}

// members lists the elements of name's substitution group, transitively.
func (c *compiler) members(name xmlstream.Name) []xmlstream.Name {
	return closure(name, c.s.substitutions)
}

// fillElement sets the type, nillable, default and fixed of an element
// declaration. The type of an anonymous definition is compiled later
// through the queue, like named ones.
func (c *compiler) fillElement(d decl, el *xmlstream.Element, out *Element) error {
	out.Nillable = boolAttr(el, "nillable")
	out.Default, _ = el.Attr("", "default")
	out.Fixed, _ = el.Attr("", "fixed")
	if v, ok := el.Attr(NSXMIME, "expectedContentTypes"); ok && v != "" {
		c.mime[out] = true
	}
	if v, ok := el.Attr("", "type"); ok {
		tn, err := d.doc.resolve(el, v)
		if err != nil {
			return err
		}
		t, err := c.typeRef(tn, d, el)
		if err != nil {
			return err
		}
		out.Type = t
		return nil
	}
	for _, ch := range el.Children {
		switch {
		case isXS(ch, "complexType"):
			t := &Type{}
			out.Type = t
			c.queue = append(c.queue, func() error { return c.anonComplex(d, ch, t) })
			return nil
		case isXS(ch, "simpleType"):
			st, err := c.anonSimple(d, ch)
			if err != nil {
				return err
			}
			out.Type = &Type{Simple: st}
			return nil
		}
	}
	return nil
}

func (c *compiler) anonComplex(d decl, el *xmlstream.Element, t *Type) error {
	if err := c.enter(d, el); err != nil {
		return err
	}
	defer c.leave()
	return c.complexBody(d, el, t)
}

// localElement compiles a local element declaration (one with a name
// inside a content model), qualified per form or elementFormDefault.
func (c *compiler) localElement(d decl, el *xmlstream.Element) (*Element, error) {
	if e, ok := c.locals[el]; ok {
		return e, nil
	}
	name, _ := el.Attr("", "name")
	qualified := d.doc.elementQualified
	if f, ok := el.Attr("", "form"); ok {
		qualified = f == "qualified"
	}
	e := &Element{Name: xmlstream.Name{Local: name}}
	if qualified {
		e.Name.Space = d.doc.tns
	}
	c.locals[el] = e
	if err := c.fillElement(d, el, e); err != nil {
		return nil, err
	}
	if e.Type == nil {
		t, err := c.typeRef(xmlstream.Name{Space: NSXSD, Local: "anyType"}, d, el)
		if err != nil {
			return nil, err
		}
		e.Type = t
	}
	return e, nil
}

func boolAttr(el *xmlstream.Element, local string) bool {
	v, _ := el.Attr("", local)
	return v == "true" || v == "1"
}

func firstField(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r' {
			if i == 0 {
				return firstField(s[1:])
			}
			return s[:i]
		}
	}
	return s
}
