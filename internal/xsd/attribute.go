package xsd

import (
	"strconv"
	"strings"

	"github.com/s2r-project/s2r/internal/xmlstream"
)

// occurs reads minOccurs and maxOccurs (default 1 each).
func occurs(d decl, el *xmlstream.Element) (int, int, error) {
	minOcc, maxOcc := 1, 1
	if v, ok := el.Attr("", "minOccurs"); ok {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 0 {
			return 0, 0, errorf(d.doc.location, el.Line, "invalid minOccurs %q", v)
		}
		minOcc = n
	}
	if v, ok := el.Attr("", "maxOccurs"); ok {
		v = strings.TrimSpace(v)
		if v == "unbounded" {
			return minOcc, Unbounded, nil
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return 0, 0, errorf(d.doc.location, el.Line, "invalid maxOccurs %q", v)
		}
		maxOcc = n
	}
	return minOcc, maxOcc, nil
}

// attributes compiles the attribute declarations, attribute group
// references and attribute wildcard directly inside el.
func (c *compiler) attributes(d decl, el *xmlstream.Element) ([]*Attribute, bool, error) {
	var out []*Attribute
	anyAttr := false
	for _, ch := range el.Children {
		switch {
		case isXS(ch, "attribute"):
			if v, _ := ch.Attr("", "use"); v == "prohibited" {
				continue
			}
			a, err := c.attribute(d, ch)
			if err != nil {
				return nil, false, err
			}
			out = mergeAttributes(out, []*Attribute{a}, nil)
		case isXS(ch, "attributeGroup"):
			attrs, groupAny, err := c.attributeGroup(d, ch)
			if err != nil {
				return nil, false, err
			}
			out = mergeAttributes(out, attrs, nil)
			anyAttr = anyAttr || groupAny
		case isXS(ch, "anyAttribute"):
			anyAttr = true
		case c.s.lenient && isUndeclared(ch):
			anyAttr = true // it may declare attributes: accept any (the content's stand-in records it)
		}
	}
	return out, anyAttr, nil
}

// prohibited lists the attributes a restriction removes.
func prohibited(d decl, el *xmlstream.Element) map[xmlstream.Name]bool {
	var out map[xmlstream.Name]bool
	for _, ch := range el.Children {
		if v, _ := ch.Attr("", "use"); !isXS(ch, "attribute") || v != "prohibited" {
			continue
		}
		if out == nil {
			out = map[xmlstream.Name]bool{}
		}
		if r, ok := ch.Attr("", "ref"); ok {
			if n, err := d.doc.resolve(ch, r); err == nil {
				out[n] = true
			}
			continue
		}
		name, _ := ch.Attr("", "name")
		out[attrName(d, ch, name)] = true
	}
	return out
}

func attrName(d decl, el *xmlstream.Element, name string) xmlstream.Name {
	qualified := d.doc.attributeQualified
	if f, ok := el.Attr("", "form"); ok {
		qualified = f == "qualified"
	}
	if qualified {
		return xmlstream.Name{Space: d.doc.tns, Local: name}
	}
	return xmlstream.Name{Local: name}
}

// attribute compiles a local attribute declaration or reference.
func (c *compiler) attribute(d decl, el *xmlstream.Element) (*Attribute, error) {
	var a *Attribute
	if r, ok := el.Attr("", "ref"); ok {
		rn, err := d.doc.resolve(el, r)
		if err != nil {
			return nil, err
		}
		g, err := c.globalAttribute(rn, d, el)
		if err != nil {
			return nil, err
		}
		cp := *g
		a = &cp
	} else {
		name, _ := el.Attr("", "name")
		st, err := c.attributeType(d, el)
		if err != nil {
			return nil, err
		}
		a = &Attribute{Name: attrName(d, el, name), Type: st}
		a.Default, _ = el.Attr("", "default")
		a.Fixed, _ = el.Attr("", "fixed")
	}
	if v, _ := el.Attr("", "use"); v == "required" {
		a.Required = true
	}
	if v, ok := el.Attr("", "default"); ok {
		a.Default = v
	}
	if v, ok := el.Attr("", "fixed"); ok {
		a.Fixed = v
	}
	return a, nil
}

// globalAttribute compiles a top-level attribute declaration (always
// qualified by its schema's namespace).
func (c *compiler) globalAttribute(name xmlstream.Name, from decl, at *xmlstream.Element) (*Attribute, error) {
	if a, ok := c.attrs[name]; ok {
		return a, nil
	}
	resolved, d, ok := c.lookupRef(c.s.attributes, name, from)
	if !ok {
		if u := c.dangling(from, at, "attribute", name); u != nil {
			return &Attribute{Name: name, Type: anySimpleFor(u)}, nil
		}
		return nil, refErr(from, at, "attribute", name)
	}
	st, err := c.attributeType(d, d.el)
	if err != nil {
		return nil, err
	}
	a := &Attribute{Name: resolved, Type: st}
	a.Default, _ = d.el.Attr("", "default")
	a.Fixed, _ = d.el.Attr("", "fixed")
	c.attrs[name] = a
	return a, nil
}

// attributeType is the simple type of an attribute declaration: its type
// attribute, its anonymous simpleType, or anySimpleType.
func (c *compiler) attributeType(d decl, el *xmlstream.Element) (*SimpleType, error) {
	if v, ok := el.Attr("", "type"); ok {
		tn, err := d.doc.resolve(el, v)
		if err != nil {
			return nil, err
		}
		return c.simpleRef(tn, d, el)
	}
	for _, ch := range el.Children {
		if isXS(ch, "simpleType") {
			return c.anonSimple(d, ch)
		}
	}
	return builtinSimple(xmlstream.Name{Space: NSXSD, Local: "anySimpleType"}), nil
}

// attributeGroup expands an attribute group reference.
func (c *compiler) attributeGroup(d decl, el *xmlstream.Element) ([]*Attribute, bool, error) {
	v, _ := el.Attr("", "ref")
	gn, err := d.doc.resolve(el, v)
	if err != nil {
		return nil, false, err
	}
	_, gd, ok := c.lookupRef(c.s.attrGroups, gn, d)
	if !ok {
		if c.dangling(d, el, "attributeGroup", gn) != nil {
			return nil, true, nil // any attribute stands in for the group
		}
		return nil, false, refErr(d, el, "attributeGroup", gn)
	}
	if g, ok := c.attrGroups[gd.el]; ok {
		return g.attrs, g.any, nil
	}
	if c.stack[gd.el] {
		return nil, false, errorf(d.doc.location, el.Line, "attributeGroup %s contains itself", displayName(gn))
	}
	if err := c.enter(d, el); err != nil {
		return nil, false, err
	}
	c.stack[gd.el] = true
	defer func() { delete(c.stack, gd.el); c.leave() }()
	attrs, anyAttr, err := c.attributes(gd, gd.el)
	if err != nil {
		return nil, false, err
	}
	c.attrGroups[gd.el] = attrGroup{attrs, anyAttr}
	return attrs, anyAttr, nil
}

// attrGroup is a compiled attribute group definition.
type attrGroup struct {
	attrs []*Attribute
	any   bool
}
