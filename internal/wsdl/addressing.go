package wsdl

import (
	"github.com/s2r-project/s2r/internal/xmlstream"
	"github.com/s2r-project/s2r/internal/xsd"
)

// Namespaces of the WS-Addressing WSDL binding (2006) and metadata (2007)
// specifications, and of the 2004 member submission's policy assertion.
const (
	NSWSAW     = "http://www.w3.org/2006/05/addressing/wsdl"
	NSWSAM     = "http://www.w3.org/2007/05/addressing/metadata"
	nsWSAP2004 = "http://schemas.xmlsoap.org/ws/2004/08/addressing/policy"
	// nsWSAW2005 is the 2005 draft of the WSDL binding, still in CXF's
	// and older WSDLs.
	nsWSAW2005 = "http://www.w3.org/2005/02/addressing/wsdl"
)

// bindingAddressing reports a WS-Addressing declaration in a binding or a
// port (DESIGN 10.3): a wsaw:UsingAddressing element, or a wsam:Addressing
// (or the 2004 UsingAddressing) policy assertion inline or referenced
// from it.
func (p *parser) bindingAddressing(b *xmlstream.Element) bool {
	found := false
	var walk func(el *xmlstream.Element, depth int)
	walk = func(el *xmlstream.Element, depth int) {
		if found || depth > 8 {
			return
		}
		switch el.Name {
		case xmlstream.Name{Space: NSWSAW, Local: "UsingAddressing"},
			xmlstream.Name{Space: nsWSAW2005, Local: "UsingAddressing"},
			xmlstream.Name{Space: NSWSAM, Local: "Addressing"},
			xmlstream.Name{Space: nsWSAP2004, Local: "UsingAddressing"}:
			found = true
			return
		}
		if el.Name.Local == "PolicyReference" {
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

// inputAction reads the wsam:Action (or wsaw:Action) of a portType
// operation's input into op, which then uses WS-Addressing.
func inputAction(op *xsd.Operation, pin *xmlstream.Element) {
	if pin == nil {
		return
	}
	for _, ns := range []string{NSWSAM, NSWSAW} {
		if a, ok := pin.Attr(ns, "Action"); ok && a != "" {
			op.InputAction, op.Addressing = a, true
			return
		}
	}
}

// portAddressing marks the operations of a port that declares
// WS-Addressing itself; the binding's operations are shared by its other
// ports, so the port gets its own copies.
func (p *parser) portAddressing(port *Port, pe *xmlstream.Element) {
	if len(port.Operations) == 0 || !p.bindingAddressing(pe) {
		return
	}
	ops := make([]*xsd.Operation, len(port.Operations))
	for i, op := range port.Operations {
		c := *op
		c.Addressing = true
		ops[i] = &c
	}
	port.Operations = ops
}
