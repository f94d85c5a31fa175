package wsdl

import (
	"errors"
	"fmt"
	"slices"
	"strings"

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
	for _, pe := range children(mr.el, NSWSDL, "part") {
		if name := attr(pe, "name"); (spec.parts == nil && !inHeader[name]) || slices.Contains(spec.parts, name) {
			m.Parts = append(m.Parts, p.part(mr.doc, pe))
		}
	}
	m.Headers = p.headers(spec, op.Name)
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

// part compiles one part. When its element or type is not declared, its
// QName does not resolve or its schema component fails to compile, the
// import goes on: the part becomes an element of that name (or a type
// part) of an xs:anyType stand-in recording where and why, so the
// operations carrying it are flagged for review rather than the whole WSDL
// refused.
func (p *parser) part(doc *wdoc, pe *xmlstream.Element) *xsd.Part {
	part, err := p.strictPart(doc, pe)
	if err == nil {
		return part
	}
	u := &xsd.Unresolved{File: doc.location, Line: pe.Line, Reason: err.Error()}
	if ie, ok := xsd.AsImportError(err); ok {
		u.File, u.Line, u.Reason = ie.File, ie.Line, ie.Reason
		if ie.Err != nil {
			u.Reason += ": " + ie.Err.Error()
		}
	}
	var ue *unresolvedName
	if errors.As(err, &ue) {
		u.Name = ue.name
	}
	p.partStandIns = append(p.partStandIns, u)
	if raw, ok := pe.Attr("", "element"); ok {
		n := ue.nameOr(p.partQName(doc, pe, raw))
		if _, undeclared := xmlstream.UndeclaredPrefix(n.Space); undeclared {
			n = xmlstream.Name{Local: n.Local} // no namespace known: unqualified, as written
		}
		return &xsd.Part{Name: part.Name, Element: &xsd.Element{Name: n, Type: xsd.AnyTypeFor(u)}}
	}
	return &xsd.Part{Name: part.Name, Type: xsd.AnyTypeFor(u)}
}

// strictPart compiles one part or reports why it cannot be; the returned
// part always carries the part name.
func (p *parser) strictPart(doc *wdoc, pe *xmlstream.Element) (*xsd.Part, error) {
	part := &xsd.Part{Name: attr(pe, "name")}
	kind := "type"
	if _, ok := pe.Attr("", "element"); ok {
		kind = "element"
	}
	n, err := p.resolve(doc, pe, kind)
	if err != nil {
		return part, err
	}
	if kind == "element" {
		el, err := p.schemas.Element(n)
		if err != nil {
			return part, p.schemaErr(doc, pe, kind, n, err)
		}
		part.Element = el
		return part, nil
	}
	t, err := p.schemas.Type(n)
	if err != nil {
		return part, p.schemaErr(doc, pe, kind, n, err)
	}
	part.Type = t
	return part, nil
}

// partQName is the name a stand-in element takes when the part's element
// QName does not resolve: its local part, unqualified.
func (p *parser) partQName(doc *wdoc, pe *xmlstream.Element, raw string) xmlstream.Name {
	raw = strings.TrimSpace(raw)
	if n, err := p.prefixes.ResolveQName(doc.location, pe, raw); err == nil {
		return n
	}
	if i := strings.LastIndexByte(raw, ':'); i >= 0 {
		raw = raw[i+1:]
	}
	return xmlstream.Name{Local: raw}
}

// unresolvedName is the error of a part naming an undeclared element or
// type: the place, and the name not found.
type unresolvedName struct {
	ImportError
	name xmlstream.Name
}

func (e *unresolvedName) Unwrap() error { return &e.ImportError }

// nameOr returns the name not found, or n when e is nil.
func (e *unresolvedName) nameOr(n xmlstream.Name) xmlstream.Name {
	if e == nil {
		return n
	}
	return e.name
}

// schemaErr places a failed schema lookup at the part that asked for it
// when the name is simply not declared.
func (p *parser) schemaErr(doc *wdoc, at *xmlstream.Element, kind string, n xmlstream.Name, err error) error {
	if _, ok := xsd.AsImportError(err); ok {
		return err
	}
	return &unresolvedName{ImportError: ImportError{File: doc.location, Line: at.Line,
		Reason: fmt.Sprintf("unresolved %s reference %s", kind, showName(n))}, name: n}
}

// headers compiles the soap:header parts of one direction of operation
// op. A header whose message or part does not exist, or whose element or
// type cannot be built, is left out with a warning: the body does not need
// it.
func (p *parser) headers(spec bodySpec, op string) []*xsd.Part {
	var out []*xsd.Part
	for _, h := range spec.headers {
		part, err := p.header(spec, h)
		if err != nil {
			p.warnf("%v: soap:header left out of operation %s", err, op)
			continue
		}
		out = append(out, part)
	}
	return out
}

// header compiles one soap:header.
func (p *parser) header(spec bodySpec, h *xmlstream.Element) (*xsd.Part, error) {
	mn, err := p.resolve(spec.doc, h, "message")
	if err != nil {
		return nil, err
	}
	mr, ok := p.lookup(p.messages, mn, spec.doc, h)
	if !ok {
		return nil, &ImportError{File: spec.doc.location, Line: h.Line, Reason: fmt.Sprintf("unresolved message reference %s", showName(mn))}
	}
	want := attr(h, "part")
	for _, pe := range children(mr.el, NSWSDL, "part") {
		if attr(pe, "name") == want {
			return p.strictPart(mr.doc, pe)
		}
	}
	return nil, &ImportError{File: spec.doc.location, Line: h.Line, Reason: fmt.Sprintf("soap:header part %q is not in message %s", want, showName(mn))}
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
