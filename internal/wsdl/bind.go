package wsdl

import (
	"fmt"

	"github.com/s2r-project/s2r/internal/xmlstream"
	"github.com/s2r-project/s2r/internal/xsd"
)

// build turns the indexed services into Definitions.
func (p *parser) build() (*Definitions, error) {
	root := p.docs[0]
	defs := &Definitions{TargetNamespace: root.tns, Schemas: p.schemas}
	defs.Name, _ = root.root.Attr("", "name")
	for _, d := range p.docs {
		defs.Documents = append(defs.Documents, d.location)
	}
	ops := 0
	for _, sr := range p.services {
		svc := &Service{}
		svc.Name, _ = sr.el.Attr("", "name")
		for _, pe := range children(sr.el, NSWSDL, "port") {
			port, err := p.port(sr.doc, pe)
			if err != nil {
				return nil, err
			}
			ops += len(port.Operations)
			svc.Ports = append(svc.Ports, port)
		}
		defs.Services = append(defs.Services, svc)
	}
	if len(p.services) == 0 {
		svc, err := p.bindingsOnly(root)
		if err != nil {
			return nil, err
		}
		if svc != nil {
			for _, port := range svc.Ports {
				ops += len(port.Operations)
			}
			defs.Services = append(defs.Services, svc)
		}
	}
	if ops == 0 && p.leftOut != nil {
		return nil, p.leftOut // nothing usable remains: refuse with the first reason
	}
	if ops == 0 {
		p.warnf("%s: no operation bound to SOAP 1.1 or SOAP 1.2: nothing to import", root.location)
	}
	p.warnUnresolved(defs)
	defs.Warnings = dedupe(append(append(p.prefixes.Warnings(), p.warnings...), p.schemas.Warnings()...))
	return defs, nil
}

// bindingsOnly synthesizes a service for a WSDL that declares SOAP
// bindings but no wsdl:service (an interface-only WSDL): one port per SOAP
// binding, named after it, without address. It returns nil when there is
// no SOAP binding either.
func (p *parser) bindingsOnly(root *wdoc) (*Service, error) {
	svc := &Service{Name: attr(root.root, "name")}
	if svc.Name == "" {
		svc.Name = "Service"
	}
	for _, bn := range p.bindingOrder {
		br := p.bindings[bn]
		sb, version := soapBinding(br.el)
		if sb == nil {
			continue
		}
		port := &Port{Name: bn.Local, Binding: bn, SOAPVersion: version}
		port.Transport, _ = sb.Attr("", "transport")
		p.bindPort(port, br, sb)
		svc.Ports = append(svc.Ports, port)
	}
	if len(svc.Ports) == 0 {
		return nil, nil
	}
	p.warnf("%s: no wsdl:service: service %s synthesized with one port per SOAP binding, without address", root.location, svc.Name)
	return svc, nil
}

// port compiles one wsdl:port and its binding.
func (p *parser) port(doc *wdoc, pe *xmlstream.Element) (*Port, error) {
	port := &Port{}
	port.Name, _ = pe.Attr("", "name")
	bn, err := p.resolve(doc, pe, "binding")
	if err != nil {
		return p.skipPort(port, err), nil
	}
	br, ok := p.lookup(p.bindings, bn, doc, pe)
	if !ok {
		return p.skipPort(port, &ImportError{File: doc.location, Line: pe.Line, Reason: fmt.Sprintf("port %s refers to undeclared binding %s", port.Name, showName(bn))}), nil
	}
	port.Binding = xmlstream.Name{Space: br.doc.tns, Local: bn.Local}
	for _, ch := range pe.Children {
		if ch.Name.Local == "address" {
			port.Address, _ = ch.Attr("", "location")
		}
	}
	sb, version := soapBinding(br.el)
	if sb == nil {
		port.Skipped = "not a SOAP 1.1 or SOAP 1.2 binding"
		if first(br.el, NSHTTP, "binding") != nil {
			port.Skipped = "HTTP binding"
		}
		p.warnf("%s:%d: port %s skipped: %s", doc.location, pe.Line, port.Name, port.Skipped)
		return port, nil
	}
	port.SOAPVersion = version
	port.Transport, _ = sb.Attr("", "transport")
	p.bindPort(port, br, sb)
	p.portAddressing(port, pe)
	return port, nil
}

// bindPort sets the port type and operations of a SOAP port from its
// binding, compiled once per binding. A binding whose portType cannot be
// found leaves the port skipped, with the reason as a warning.
func (p *parser) bindPort(port *Port, br ref, sb *xmlstream.Element) {
	b, done := p.bound[br.el]
	if !done {
		b.portType, b.ops, b.err = p.binding(br, sb)
		p.bound[br.el] = b
	}
	if b.err != nil {
		p.skipPort(port, b.err)
		return
	}
	port.PortType, port.Operations = b.portType, b.ops
}

// boundBinding is a compiled binding: its port type and operations, or why
// it cannot be used.
type boundBinding struct {
	portType xmlstream.Name
	ops      []*xsd.Operation
	err      *ImportError
}

// skipPort marks a port that cannot be imported: skipped, with the reason
// as a warning, recorded in case nothing usable remains.
func (p *parser) skipPort(port *Port, err error) *Port {
	ie := asImportError(err)
	port.Skipped = ie.Reason
	p.leaveOut(ie, "port "+port.Name)
	return port
}

// leaveOut warns that what is left out of the import (an operation, a
// port) is left out and why; the first reason is the refusal when nothing
// usable remains.
func (p *parser) leaveOut(ie *ImportError, what string) {
	p.warnf("%v: %s left out", ie, what)
	if p.leftOut == nil {
		p.leftOut = ie
	}
}

// asImportError returns err as an *ImportError, wrapping other errors.
func asImportError(err error) *ImportError {
	if ie, ok := xsd.AsImportError(err); ok {
		return ie
	}
	return &ImportError{Reason: err.Error()}
}

// soapBinding returns the soap:binding or soap12:binding of a binding.
func soapBinding(b *xmlstream.Element) (*xmlstream.Element, string) {
	if sb := first(b, NSSOAP11, "binding"); sb != nil {
		return sb, SOAP11
	}
	if sb := first(b, NSSOAP12, "binding"); sb != nil {
		return sb, SOAP12
	}
	return nil, ""
}

// binding compiles every operation of a SOAP binding and names its port
// type. An operation that cannot be bound is left out with a warning.
func (p *parser) binding(br ref, sb *xmlstream.Element) (xmlstream.Name, []*xsd.Operation, *ImportError) {
	ptn, err := p.resolve(br.doc, br.el, "type")
	if err != nil {
		return ptn, nil, asImportError(err)
	}
	pt, ok := p.lookup(p.ports, ptn, br.doc, br.el)
	if !ok {
		return ptn, nil, &ImportError{File: br.doc.location, Line: br.el.Line, Reason: fmt.Sprintf("binding refers to undeclared portType %s", showName(ptn))}
	}
	ptName := xmlstream.Name{Space: pt.doc.tns, Local: attr(pt.el, "name")}
	style, _ := sb.Attr("", "style")
	mtom := p.bindingMTOM(br.el)
	addressing := p.bindingAddressing(br.el)
	var ops []*xsd.Operation
	for _, bop := range children(br.el, NSWSDL, "operation") {
		op, err := p.operation(br.doc, bop, pt, style)
		if err != nil {
			p.leaveOut(asImportError(err), "operation "+attr(bop, "name"))
			continue
		}
		if op.Input == nil {
			p.warnf("%s:%d: operation %s has no input (a notification): skipped", br.doc.location, bop.Line, op.Name)
			continue
		}
		op.MTOM = op.MTOM || mtom
		op.Addressing = op.Addressing || addressing
		ops = append(ops, op)
	}
	return ptName, ops, nil
}

// children returns the children of el named {space}local.
func children(el *xmlstream.Element, space, local string) []*xmlstream.Element {
	var out []*xmlstream.Element
	for _, ch := range el.Children {
		if ch.Name.Space == space && ch.Name.Local == local {
			out = append(out, ch)
		}
	}
	return out
}

// first returns the first child of el named {space}local.
func first(el *xmlstream.Element, space, local string) *xmlstream.Element {
	for _, ch := range el.Children {
		if ch.Name.Space == space && ch.Name.Local == local {
			return ch
		}
	}
	return nil
}

// soapChild returns the first child in either SOAP binding namespace.
func soapChild(el *xmlstream.Element, local string) *xmlstream.Element {
	if c := first(el, NSSOAP11, local); c != nil {
		return c
	}
	return first(el, NSSOAP12, local)
}

// bindingMTOM reports an MTOM policy assertion inline in the binding or
// referenced from it.
func (p *parser) bindingMTOM(b *xmlstream.Element) bool {
	found := false
	var walk func(el *xmlstream.Element, depth int)
	walk = func(el *xmlstream.Element, depth int) {
		if found || depth > 8 {
			return
		}
		switch el.Name.Local {
		case "OptimizedMimeSerialization", "MTOM":
			found = true
			return
		case "PolicyReference":
			uri, _ := el.Attr("", "URI")
			if pol, ok := p.policies[trimHash(uri)]; ok && pol != el {
				walk(pol, depth+1)
			}
		}
		for _, ch := range el.Children {
			if ch.Name.Space != NSWSDL {
				walk(ch, depth+1)
			}
		}
	}
	walk(b, 0)
	return found
}

func trimHash(s string) string {
	if len(s) > 0 && s[0] == '#' {
		return s[1:]
	}
	return s
}
