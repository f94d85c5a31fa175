package soap

import (
	"github.com/s2r-project/s2r/internal/xmlstream"
)

// Roles (1.2) and actors (1.1) that address the node receiving a message.
const (
	ActorNext11        = "http://schemas.xmlsoap.org/soap/actor/next"
	RoleNext12         = "http://www.w3.org/2003/05/soap-envelope/role/next"
	RoleNone12         = "http://www.w3.org/2003/05/soap-envelope/role/none"
	RoleUltimateRecv12 = "http://www.w3.org/2003/05/soap-envelope/role/ultimateReceiver"
)

// NotUnderstood returns the header blocks marked mustUnderstand, targeted
// at this node (no role, "next", or the ultimate receiver), that
// understood does not accept. A SOAP node must not process the message
// when there are any and answers with MustUnderstandFault instead.
func (m *Message) NotUnderstood(understood func(xmlstream.Name) bool) []HeaderBlock {
	var out []HeaderBlock
	for _, h := range m.Headers {
		if !h.MustUnderstand || !targeted(h.Role) {
			continue
		}
		if understood == nil || !understood(h.Name) {
			out = append(out, h)
		}
	}
	return out
}

func targeted(role string) bool {
	switch role {
	case "", ActorNext11, RoleNext12, RoleUltimateRecv12:
		return true
	}
	return false
}

// MustUnderstandFault is the fault answering blocks not understood.
func MustUnderstandFault(blocks []HeaderBlock) *Fault {
	reason := "header block not understood"
	if len(blocks) > 0 {
		n := blocks[0].Name
		reason = "header block {" + n.Space + "}" + n.Local + " not understood"
	}
	return &Fault{Code: xmlstream.Name{Local: MustUnderstand}, Reason: reason}
}

// WS-Security secext namespaces: 1.0 (the Security header block) and 1.1
// (whose elements may also appear as header blocks).
const (
	NSWSSecurity10 = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd"
	NSWSSecurity11 = "http://docs.oasis-open.org/wss/oasis-wss-wssecurity-secext-1.1.xsd"
)

// IsWSSecurity reports whether n is a WS-Security header block. s2r
// understands it whatever the service's inbound policy (DESIGN 10.2): with
// mode off it is accepted unchecked, otherwise it is verified, so a
// mustUnderstand="1" Security header is never refused as not understood.
func IsWSSecurity(n xmlstream.Name) bool {
	return n.Space == NSWSSecurity10 || n.Space == NSWSSecurity11
}
