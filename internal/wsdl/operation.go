package wsdl

import (
	"fmt"
	"strings"

	"github.com/s2r-project/s2r/internal/xmlstream"
	"github.com/s2r-project/s2r/internal/xsd"
)

// bodySpec is what a soap:body (and the soap:headers beside it) say about
// one direction of a bound operation.
type bodySpec struct {
	use           string
	namespace     string
	encodingStyle string
	parts         []string // nil: all parts
	headers       []*xmlstream.Element
	doc           *wdoc // the binding's document
}

// operation compiles one wsdl:operation of a binding against its portType.
// An error (an *ImportError) means the operation is left out: it is not in
// the portType, or its input or output message does not exist. A fault
// whose message does not exist is left out with a warning; parts whose
// schema components cannot be built get xs:anyType stand-ins (part).
func (p *parser) operation(doc *wdoc, bop *xmlstream.Element, pt ref, style string) (*xsd.Operation, error) {
	name, _ := bop.Attr("", "name")
	op := &xsd.Operation{Name: name, Style: xsd.Document, Use: xsd.Literal}
	if so := soapChild(bop, "operation"); so != nil {
		op.SOAPAction, _ = so.Attr("", "soapAction")
		if s, ok := so.Attr("", "style"); ok && s != "" {
			style = s
		}
	}
	if style == "rpc" {
		op.Style = xsd.RPC
	}
	ptop := p.portTypeOperation(pt.el, name, bop)
	if ptop == nil {
		return nil, &ImportError{File: doc.location, Line: bop.Line, Reason: fmt.Sprintf("operation %s is not in portType %s", name, showName(xmlstream.Name{Space: pt.doc.tns, Local: attr(pt.el, "name")}))}
	}
	in := first(bop, NSWSDL, "input")
	inSpec := readBody(in, doc)
	if inSpec.use == "encoded" {
		op.Use = xsd.Encoded
		op.EncodingStyle = inSpec.encodingStyle
	}
	var err error
	if pin := first(ptop, NSWSDL, "input"); pin != nil {
		inputAction(op, pin)
		if op.Input, err = p.message(pt.doc, pin, op, inSpec, false); err != nil {
			return nil, err
		}
	}
	if pout := first(ptop, NSWSDL, "output"); pout != nil {
		if op.Output, err = p.message(pt.doc, pout, op, readBody(first(bop, NSWSDL, "output"), doc), true); err != nil {
			return nil, err
		}
	}
	for _, pf := range children(ptop, NSWSDL, "fault") {
		f := &xsd.Fault{Name: attr(pf, "name")}
		if f.Message, err = p.message(pt.doc, pf, op, bodySpec{use: "literal", doc: doc}, true); err != nil {
			p.warnf("%v: fault %s left out of operation %s", err, f.Name, op.Name)
			continue
		}
		f.Message.Wrapper, f.Message.Wrapped = nil, false
		if len(f.Message.Parts) == 1 && f.Message.Parts[0].Element != nil {
			f.Message.Wrapper = f.Message.Parts[0].Element
			f.Message.Wrapped = isWrapperElement(f.Message.Wrapper)
		}
		op.Faults = append(op.Faults, f)
	}
	op.MTOM = op.MTOM || p.messageMTOM(op.Input) || p.messageMTOM(op.Output)
	if p.schemas.HasUnresolved() || len(p.partStandIns) > 0 {
		var body []*xsd.Part
		for _, m := range []*xsd.Message{op.Input, op.Output} {
			if m != nil {
				body = append(body, m.Parts...)
			}
		}
		op.Unresolved = xsd.UnresolvedIn(body)
	}
	return op, nil
}

// portTypeOperation finds the portType operation a binding operation binds:
// by name, and by input name when the name is overloaded. The portType's
// operations are indexed by name on first use.
func (p *parser) portTypeOperation(pt *xmlstream.Element, name string, bop *xmlstream.Element) *xmlstream.Element {
	index, ok := p.ptIndex[pt]
	if !ok {
		index = map[string][]*xmlstream.Element{}
		for _, op := range children(pt, NSWSDL, "operation") {
			n := attr(op, "name")
			index[n] = append(index[n], op)
		}
		p.ptIndex[pt] = index
	}
	match := index[name]
	if len(match) > 1 {
		if in := first(bop, NSWSDL, "input"); in != nil && attr(in, "name") != "" {
			for _, m := range match {
				if pin := first(m, NSWSDL, "input"); pin != nil && attr(pin, "name") == attr(in, "name") {
					return m
				}
			}
		}
	}
	if len(match) == 0 {
		return nil
	}
	return match[0]
}

func attr(el *xmlstream.Element, local string) string {
	v, _ := el.Attr("", local)
	return v
}

// readBody reads the soap:body and soap:header of a binding input or
// output, looking inside mime:multipartRelated parts too.
func readBody(io *xmlstream.Element, doc *wdoc) bodySpec {
	spec := bodySpec{use: "literal", doc: doc}
	if io == nil {
		return spec
	}
	var visit func(el *xmlstream.Element, depth int)
	visit = func(el *xmlstream.Element, depth int) {
		if depth > 4 {
			return
		}
		for _, ch := range el.Children {
			if ch.Name.Space != NSSOAP11 && ch.Name.Space != NSSOAP12 {
				if ch.Name.Space == NSMIME {
					visit(ch, depth+1)
				}
				continue
			}
			switch ch.Name.Local {
			case "body":
				if u := attr(ch, "use"); u != "" {
					spec.use = u
				}
				spec.namespace = attr(ch, "namespace")
				spec.encodingStyle = attr(ch, "encodingStyle")
				if v, ok := ch.Attr("", "parts"); ok {
					spec.parts = strings.Fields(v)
					if spec.parts == nil {
						spec.parts = []string{}
					}
				}
			case "header":
				spec.headers = append(spec.headers, ch)
			}
		}
	}
	visit(io, 0)
	return spec
}
