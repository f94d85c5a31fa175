package wsdl

import (
	"fmt"
	"slices"

	"github.com/s2r-project/s2r/internal/xmlstream"
	"github.com/s2r-project/s2r/internal/xsd"
)

// message compiles the message an input, output or fault refers to, with
// the shape rules of xsd.Message:
//
//   - document style is wrapped when the body has exactly one part, that
//     part names an element, the element's type is complex without
//     attributes, not mixed, and its content is empty or a sequence or all
//     of elements only; for the input the element's local name must also
//     equal the operation name (the WS-I wrapped convention). Anything else
//     is bare: one JSON member per part.
//   - rpc style is never wrapped: Wrapper is synthesized as the operation
//     name (name+"Response" for the output) in the soap:body namespace, and
//     its content is one unqualified element per type part (element parts
//     keep their element).
func (p *parser) message(doc *wdoc, io *xmlstream.Element, op *xsd.Operation, spec bodySpec, response bool) (*xsd.Message, error) {
	mn, err := p.resolve(doc, io, "message")
	if err != nil {
		return nil, err
	}
	mr, ok := p.lookup(p.messages, mn, doc, io)
	if !ok {
		return nil, &ImportError{File: doc.location, Line: io.Line, Reason: fmt.Sprintf("unresolved message reference %s", showName(mn))}
	}
	all, err := p.parts(mr)
	if err != nil {
		return nil, err
	}
	m := &xsd.Message{Name: xmlstream.Name{Space: mr.doc.tns, Local: attr(mr.el, "name")}, Namespace: spec.namespace}
	// Without a parts attribute the body has every part except those this
	// binding places in the Header (WS-I BP R2208; CXF, .NET and zeep read
	// it so): a soap:header part of the same message is not also a body part.
	inHeader := map[string]bool{}
	if spec.parts == nil {
		for _, h := range spec.headers {
			if hn, err := p.resolve(spec.doc, h, "message"); err == nil && hn == mn {
				inHeader[attr(h, "part")] = true
			}
		}
	}
	for _, part := range all {
		if (spec.parts == nil && !inHeader[part.Name]) || slices.Contains(spec.parts, part.Name) {
			m.Parts = append(m.Parts, part)
		}
	}
	if m.Headers, err = p.headers(spec); err != nil {
		return nil, err
	}
	if op.Style == xsd.RPC {
		if m.Namespace == "" {
			m.Namespace = spec.doc.tns
		}
		m.Wrapper = rpcWrapper(op.Name, response, m)
		return m, nil
	}
	if len(m.Parts) == 1 && m.Parts[0].Element != nil {
		el := m.Parts[0].Element
		if isWrapperElement(el) && (response || el.Name.Local == op.Name) {
			m.Wrapped, m.Wrapper = true, el
		}
	}
	return m, nil
}

// isWrapperElement reports whether el's type can be a wrapper: complex,
// no attributes, not mixed, content only elements in a sequence or all.
func isWrapperElement(el *xsd.Element) bool {
	t := el.Type
	if t == nil || t.Simple != nil || len(t.Attributes) > 0 || t.AnyAttribute || t.Mixed || t.ArrayItem != nil {
		return false
	}
	if t.Content == nil {
		return true
	}
	if t.Content.Kind != xsd.ParticleSequence && t.Content.Kind != xsd.ParticleAll {
		return false
	}
	if t.Content.MaxOccurs != 1 {
		return false
	}
	for _, ch := range t.Content.Children {
		if ch.Kind != xsd.ParticleElement {
			return false
		}
	}
	return true
}

// rpcWrapper synthesizes the rpc operation element.
func rpcWrapper(opName string, response bool, m *xsd.Message) *xsd.Element {
	name := opName
	if response {
		name += "Response"
	}
	seq := &xsd.Particle{Kind: xsd.ParticleSequence, MinOccurs: 1, MaxOccurs: 1}
	for _, part := range m.Parts {
		el := part.Element
		if el == nil {
			el = &xsd.Element{Name: xmlstream.Name{Local: part.Name}, Type: part.Type, Nillable: true}
		}
		seq.Children = append(seq.Children, &xsd.Particle{Kind: xsd.ParticleElement, MinOccurs: 1, MaxOccurs: 1, Element: el})
	}
	return &xsd.Element{Name: xmlstream.Name{Space: m.Namespace, Local: name}, Type: &xsd.Type{Content: seq}}
}

// parts compiles the parts of a wsdl:message.
func (p *parser) parts(mr ref) ([]*xsd.Part, error) {
	var out []*xsd.Part
	for _, pe := range children(mr.el, NSWSDL, "part") {
		part, err := p.part(mr.doc, pe)
		if err != nil {
			return nil, err
		}
		out = append(out, part)
	}
	return out, nil
}

func (p *parser) part(doc *wdoc, pe *xmlstream.Element) (*xsd.Part, error) {
	part := &xsd.Part{Name: attr(pe, "name")}
	if _, ok := pe.Attr("", "element"); ok {
		n, err := p.resolve(doc, pe, "element")
		if err != nil {
			return nil, err
		}
		part.Element, err = p.schemas.Element(n)
		if err != nil {
			return nil, p.schemaErr(doc, pe, "element", n, err)
		}
		return part, nil
	}
	n, err := p.resolve(doc, pe, "type")
	if err != nil {
		return nil, err
	}
	part.Type, err = p.schemas.Type(n)
	if err != nil {
		return nil, p.schemaErr(doc, pe, "type", n, err)
	}
	return part, nil
}

// schemaErr places a failed schema lookup at the part that asked for it
// when the name is simply not declared.
func (p *parser) schemaErr(doc *wdoc, at *xmlstream.Element, kind string, n xmlstream.Name, err error) error {
	if _, ok := xsd.AsImportError(err); ok {
		return err
	}
	return &ImportError{File: doc.location, Line: at.Line, Reason: fmt.Sprintf("unresolved %s reference %s", kind, showName(n))}
}

// headers compiles the soap:header parts of one direction.
func (p *parser) headers(spec bodySpec) ([]*xsd.Part, error) {
	var out []*xsd.Part
	for _, h := range spec.headers {
		mn, err := p.resolve(spec.doc, h, "message")
		if err != nil {
			return nil, err
		}
		mr, ok := p.lookup(p.messages, mn, spec.doc, h)
		if !ok {
			return nil, &ImportError{File: spec.doc.location, Line: h.Line, Reason: fmt.Sprintf("unresolved message reference %s", showName(mn))}
		}
		want := attr(h, "part")
		found := false
		for _, pe := range children(mr.el, NSWSDL, "part") {
			if attr(pe, "name") != want {
				continue
			}
			part, err := p.part(mr.doc, pe)
			if err != nil {
				return nil, err
			}
			out, found = append(out, part), true
		}
		if !found {
			return nil, &ImportError{File: spec.doc.location, Line: h.Line, Reason: fmt.Sprintf("soap:header part %q is not in message %s", want, showName(mn))}
		}
	}
	return out, nil
}

// messageMTOM reports xmime hints on the elements a message carries.
func (p *parser) messageMTOM(m *xsd.Message) bool {
	if m == nil || !p.schemas.HasMTOMHints() {
		return false
	}
	seen := map[*xsd.Type]bool{}
	var stack []*xsd.Element
	for _, part := range m.Parts {
		if part.Element != nil {
			stack = append(stack, part.Element)
		} else if part.Type != nil {
			stack = append(stack, &xsd.Element{Type: part.Type})
		}
	}
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if p.schemas.MTOMHint(e) || (e.Name.Space == xsd.NSXOP && e.Name.Local == "Include") {
			return true
		}
		if e.Type == nil || seen[e.Type] {
			continue
		}
		seen[e.Type] = true
		stack = appendElements(stack, e.Type.Content)
	}
	return false
}

func appendElements(stack []*xsd.Element, p *xsd.Particle) []*xsd.Element {
	if p == nil {
		return stack
	}
	if p.Element != nil {
		stack = append(stack, p.Element)
		stack = append(stack, p.Element.Substitutes...)
	}
	for _, ch := range p.Children {
		stack = appendElements(stack, ch)
	}
	return stack
}
