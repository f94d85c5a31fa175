package xsd

// DetailMessage is the message whose JSON shape is the fault's detail
// (docs/conversion.md section 13): one member per detail element, named
// by the element's local name — the name on the wire, which the naive
// mapping uses too — so a caller of an operation with several declared
// faults can tell which one came back:
//
//	<detail><x1:NoSuchCodeLit><x1:code>…</x1:code></x1:NoSuchCodeLit></detail>
//	{"NoSuchCodeLit": {"code": {…}}}
//
// The message is bare whatever the fault message is (a wrapped message
// would drop the element's name). Element parts keep their element; a type
// part (rpc) is the unqualified element named by the part. nil when f has
// no message.
func (f *Fault) DetailMessage() *Message {
	if f == nil || f.Message == nil {
		return nil
	}
	m := &Message{Name: f.Message.Name}
	for _, p := range f.Message.Parts {
		name := p.Name
		if p.Element != nil {
			name = p.Element.Name.Local
		}
		m.Parts = append(m.Parts, &Part{Name: name, Element: p.Element, Type: p.Type})
	}
	return m
}
