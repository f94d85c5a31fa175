package xsd

import (
	"slices"
	"strconv"
	"strings"

	"github.com/s2r-project/s2r/internal/xmlstream"
)

// simpleRef returns the compiled named simple type. A complex type with
// simple content stands for its simple content.
func (c *compiler) simpleRef(name xmlstream.Name, from decl, at *xmlstream.Element) (*SimpleType, error) {
	if st := builtinSimple(name); st != nil {
		return st, nil
	}
	if isAnyType(name) {
		return builtinSimple(xmlstream.Name{Space: NSXSD, Local: "anySimpleType"}), nil
	}
	if e, ok := c.simples[name]; ok {
		if e.state == stateBusy {
			return nil, errorf(from.doc.location, at.Line, "simple type %s derives from itself", displayName(name))
		}
		return e.st, nil
	}
	resolved, d, ok := c.lookupRef(c.s.types, name, from)
	if !ok {
		if u := c.dangling(from, at, "type", name); u != nil {
			return anySimpleFor(u), nil
		}
		return nil, refErr(from, at, "type", name)
	}
	if d.el.Name.Local == "complexType" {
		t, err := c.completedType(resolved, from, at)
		if err != nil {
			return nil, err
		}
		if t.Simple == nil {
			return nil, errorf(from.doc.location, at.Line, "type %s is complex where a simple type is required", displayName(resolved))
		}
		return t.Simple, nil
	}
	if err := c.enter(d, d.el); err != nil {
		return nil, err
	}
	defer c.leave()
	e := &simpleEntry{state: stateBusy}
	c.simples[name] = e
	st, err := c.simpleBody(d, d.el)
	if err != nil {
		delete(c.simples, name)
		return nil, err
	}
	st.Name = resolved
	e.st, e.state = st, stateDone
	return st, nil
}

// anonSimple compiles an anonymous xs:simpleType.
func (c *compiler) anonSimple(d decl, el *xmlstream.Element) (*SimpleType, error) {
	if st, ok := c.anySimpl[el]; ok {
		return st, nil
	}
	if err := c.enter(d, el); err != nil {
		return nil, err
	}
	defer c.leave()
	st, err := c.simpleBody(d, el)
	if err != nil {
		return nil, err
	}
	c.anySimpl[el] = st
	return st, nil
}

// simpleBody compiles the restriction, list or union of a simpleType.
func (c *compiler) simpleBody(d decl, el *xmlstream.Element) (*SimpleType, error) {
	for _, ch := range el.Children {
		switch {
		case isXS(ch, "restriction"):
			base, err := c.restrictionBase(d, ch)
			if err != nil {
				return nil, err
			}
			return c.restrictSimple(d, ch, base)
		case isXS(ch, "list"):
			item, err := c.listItem(d, ch)
			if err != nil {
				return nil, err
			}
			return &SimpleType{Builtin: "anySimpleType", Kind: JSONString, List: item}, nil
		case isXS(ch, "union"):
			return c.union(d, ch)
		}
	}
	return nil, errorf(d.doc.location, el.Line, "xs:simpleType without restriction, list or union")
}

func (c *compiler) restrictionBase(d decl, el *xmlstream.Element) (*SimpleType, error) {
	if v, ok := el.Attr("", "base"); ok && v != "" {
		bn, err := d.doc.resolve(el, v)
		if err != nil {
			return nil, err
		}
		return c.simpleRef(bn, d, el)
	}
	for _, ch := range el.Children {
		if isXS(ch, "simpleType") {
			return c.anonSimple(d, ch)
		}
	}
	return nil, errorf(d.doc.location, el.Line, "xs:restriction without base")
}

func (c *compiler) listItem(d decl, el *xmlstream.Element) (*SimpleType, error) {
	if v, ok := el.Attr("", "itemType"); ok && v != "" {
		n, err := d.doc.resolve(el, v)
		if err != nil {
			return nil, err
		}
		return c.simpleRef(n, d, el)
	}
	for _, ch := range el.Children {
		if isXS(ch, "simpleType") {
			return c.anonSimple(d, ch)
		}
	}
	return nil, errorf(d.doc.location, el.Line, "xs:list without itemType")
}

func (c *compiler) union(d decl, el *xmlstream.Element) (*SimpleType, error) {
	st := &SimpleType{Builtin: "anySimpleType", Kind: JSONString}
	v, _ := el.Attr("", "memberTypes")
	for _, m := range strings.Fields(v) {
		n, err := d.doc.resolve(el, m)
		if err != nil {
			return nil, err
		}
		mt, err := c.simpleRef(n, d, el)
		if err != nil {
			return nil, err
		}
		st.Union = append(st.Union, mt)
	}
	for _, ch := range el.Children {
		if isXS(ch, "simpleType") {
			mt, err := c.anonSimple(d, ch)
			if err != nil {
				return nil, err
			}
			st.Union = append(st.Union, mt)
		}
	}
	if len(st.Union) == 0 {
		return nil, errorf(d.doc.location, el.Line, "xs:union without member types")
	}
	return st, nil
}

// restrictSimple copies base and applies the facets found in el.
// Enumerations of a restriction replace the base's; patterns accumulate
// (all must match); other facets override.
func (c *compiler) restrictSimple(d decl, el *xmlstream.Element, base *SimpleType) (*SimpleType, error) {
	st := *base
	st.Name = xmlstream.Name{}
	st.Union = slices.Clone(base.Union)
	st.Patterns = slices.Clone(base.Patterns)
	var enum []string
	for _, ch := range el.Children {
		if !xsdNamespaces[ch.Name.Space] {
			continue
		}
		v, _ := ch.Attr("", "value")
		if ch.Name.Local == "enumeration" {
			enum = append(enum, v)
			continue
		}
		if err := applyFacet(d, ch, v, &st.Facets); err != nil {
			return nil, err
		}
	}
	if enum != nil {
		st.Enumeration = enum
	}
	return &st, nil
}

func applyFacet(d decl, el *xmlstream.Element, v string, f *Facets) error {
	intFacet := func(dst **int) error {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 0 {
			return errorf(d.doc.location, el.Line, "invalid %s value %q", el.Name.Local, v)
		}
		*dst = &n
		return nil
	}
	switch el.Name.Local {
	case "pattern":
		f.Patterns = append(f.Patterns, v)
	case "length":
		return intFacet(&f.Length)
	case "minLength":
		return intFacet(&f.MinLength)
	case "maxLength":
		return intFacet(&f.MaxLength)
	case "totalDigits":
		return intFacet(&f.TotalDigits)
	case "fractionDigits":
		return intFacet(&f.FractionDigits)
	case "minInclusive":
		f.MinInclusive = strings.TrimSpace(v)
	case "maxInclusive":
		f.MaxInclusive = strings.TrimSpace(v)
	case "minExclusive":
		f.MinExclusive = strings.TrimSpace(v)
	case "maxExclusive":
		f.MaxExclusive = strings.TrimSpace(v)
	case "whiteSpace":
		f.WhiteSpace = strings.TrimSpace(v)
	}
	return nil
}
