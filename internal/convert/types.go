package convert

import (
	"github.com/s2r-project/s2r/internal/xmlstream"
	"github.com/s2r-project/s2r/internal/xsd"
)

// typePlan compiles t once; recursive types share the plan being built.
func (p *Plan) typePlan(t *xsd.Type) *typePlan {
	if t == nil || t.Name.Space == NSXSD && t.Name.Local == "anyType" {
		return p.anyTypePlan()
	}
	if tp, ok := p.types[t]; ok {
		return tp
	}
	tp := &typePlan{xtype: t, byJSON: map[string]int{}, byXML: map[xmlstream.Name]int{}, wildcardAt: -1}
	p.types[t] = tp
	tp.simple = t.Simple
	tp.text = howOf(t.Simple)
	tp.scalar = t.IsSimple()
	tp.abstract = t.Abstract
	tp.mixed = t.Mixed
	tp.anyAttr = t.AnyAttribute
	if p.opts.Encoded {
		p.prefixFor(NSXSI)
		tp.typeName = p.encodedTypeName(t)
	}
	if t.Name.Local != "" && (t.Base != nil && t.Base.Simple == nil || len(t.Derived) > 0) {
		tp.hierarchy = true
		tp.typeName = *p.name(t.Name)
		p.prefixFor(NSXSI)
	}
	for _, a := range t.Attributes {
		ap := &attrPlan{json: "@" + a.Name.Local, name: *p.name(a.Name), attr: a, text: howOf(a.Type)}
		tp.byJSON[ap.json] = ^len(tp.attrs)
		tp.attrs = append(tp.attrs, ap)
		if a.Required {
			tp.requiredAttrs++
		}
	}
	if t.ArrayItem != nil {
		tp.arrayItem = p.member(t.ArrayItem, 0, xsd.Unbounded)
		tp.scalar = false
		if p.opts.Encoded {
			p.prefixFor(NSSOAPEnc)
		}
	}
	if t.Content != nil {
		p.flatten(tp, t.Content, false, true)
	}
	if len(t.Derived) > 0 {
		p.prefixFor(NSXSI)
		tp.derived = make(map[string]*typePlan, len(t.Derived))
		for _, d := range t.Derived {
			dp := p.typePlan(d)
			dp.typeName = *p.name(d.Name)
			tp.derived[d.Name.Local] = dp
		}
	}
	return tp
}

// encodedTypeName is the xsi:type written for t under SOAP encoding.
func (p *Plan) encodedTypeName(t *xsd.Type) xmlName {
	switch {
	case t.ArrayItem != nil:
		return xmlName{prefix: p.prefixFor(NSSOAPEnc), local: "Array", space: NSSOAPEnc}
	case t.Name.Local != "":
		return *p.name(t.Name)
	case t.Simple != nil && t.Simple.Name.Local != "":
		return *p.name(t.Simple.Name)
	case t.Simple != nil && t.Simple.Builtin != "":
		return xmlName{prefix: p.prefixFor(NSXSD), local: t.Simple.Builtin, space: NSXSD}
	}
	return xmlName{}
}

// anyTypePlan is the plan of an element without type information: its
// content converts by the naive mapping.
func (p *Plan) anyTypePlan() *typePlan {
	if tp, ok := p.types[nil]; ok {
		return tp
	}
	tp := &typePlan{anyType: true, wildcardAt: -1}
	p.types[nil] = tp
	return tp
}

// flatten turns the content model into JSON members in schema order.
// repeated and required describe the enclosing groups.
func (p *Plan) flatten(tp *typePlan, pt *xsd.Particle, repeated, required bool) {
	rep := repeated || pt.Repeated()
	req := required && pt.MinOccurs > 0
	switch pt.Kind {
	case xsd.ParticleElement:
		minOcc, maxOcc := pt.MinOccurs, pt.MaxOccurs
		if repeated {
			minOcc, maxOcc = 0, xsd.Unbounded
		}
		if !required {
			minOcc = 0
		}
		head := tp.addMember(p.member(pt.Element, minOcc, maxOcc))
		for _, s := range pt.Element.Substitutes {
			sm := p.member(s, 0, maxOcc)
			sm.group = head
			tp.addMember(sm)
		}
	case xsd.ParticleSequence, xsd.ParticleAll:
		from := len(tp.members)
		for _, c := range pt.Children {
			p.flatten(tp, c, rep, req)
		}
		if pt.Kind == xsd.ParticleSequence && pt.Repeated() && !repeated && len(tp.members)-from > 1 {
			if tp.interleaved == nil {
				tp.interleaved = map[int]int{}
			}
			tp.interleaved[from] = len(tp.members)
		}
	case xsd.ParticleChoice:
		cc := choiceCheck{optional: !req || xsd.Emptiable(pt)}
		for _, c := range pt.Children {
			from := len(tp.members)
			p.flatten(tp, c, rep, false)
			cc.branches = append(cc.branches, [2]int{from, len(tp.members)})
			if c.Kind == xsd.ParticleAny {
				cc.wildcard = true
			}
		}
		if !rep {
			tp.choices = append(tp.choices, cc)
		}
	case xsd.ParticleAny:
		if !tp.wildcard {
			tp.wildcard = true
			tp.wildcardAt = len(tp.members)
		}
	}
}
