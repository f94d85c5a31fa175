package convert

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/s2r-project/s2r/internal/xmlstream"
	"github.com/s2r-project/s2r/internal/xsd"
)

// Namespaces the converter reads and writes itself.
const (
	NSXSI     = "http://www.w3.org/2001/XMLSchema-instance"
	NSXSD     = "http://www.w3.org/2001/XMLSchema"
	NSSOAPEnc = "http://schemas.xmlsoap.org/soap/encoding/"
)

// Options tune a Plan.
type Options struct {
	// Encoded writes SOAP-encoding annotations for rpc/encoded operations:
	// xsi:type on every element and soapenc:arrayType on arrays.
	Encoded bool
	// Prefixes maps namespace URIs to the prefixes to declare, for example
	// the WSDL's own; other namespaces get ns1, ns2, …
	Prefixes map[string]string
	// MaxOutput bounds the size of a conversion's output in bytes (0: no
	// bound), so that a document within the payload limit cannot expand
	// past it (absent arrays written as [], names repeated per item).
	MaxOutput int
	// OmitDeclarations makes JSON→XML declare no namespace: the caller
	// declares Plan.Namespaces on an enclosing element (the Envelope).
	OmitDeclarations bool
	// Lax makes XML→JSON tolerant: elements match by local name when their
	// namespace differs from the schema's, and elements and attributes the
	// contract does not declare are skipped instead of failing.
	Lax bool
}

// OptionsFor returns the options an operation's messages compile with:
// SOAP encoding for use="encoded".
func OptionsFor(op *xsd.Operation) Options {
	return Options{Encoded: op.Use == xsd.Encoded}
}

// Plan is the compiled conversion of one message. It is immutable and safe
// for concurrent use.
type Plan struct {
	opts    Options
	ns      []Namespace
	prefix  map[string]string // namespace URI → prefix
	root    *typePlan
	wrapper *xmlName // the wrapper element (wrapped and rpc), nil for bare
	// wrapperMember is the member XML→JSON reads the wrapper element as,
	// built once here rather than allocated by every conversion.
	wrapperMember *memberPlan
	rpc           bool
	headers       bool // a header plan: unknown header blocks are skipped
	types         map[*xsd.Type]*typePlan
}

// Namespace is one namespace declaration a plan writes.
type Namespace struct{ Prefix, URI string }

// xmlName is a qualified name with the prefix the plan writes it with.
type xmlName struct{ prefix, local, space string }

// typePlan is the compiled conversion of one type: a JSON object of
// attribute and element members, or a JSON scalar.
type typePlan struct {
	xtype   *xsd.Type
	simple  *xsd.SimpleType // simple type or simple content
	text    textHow         // howOf(simple)
	scalar  bool            // a JSON scalar: simple type without attributes
	anyType bool            // no type information: naive mapping
	attrs   []*attrPlan
	// requiredAttrs counts the required attributes in attrs.
	requiredAttrs int
	anyAttr       bool
	members       []*memberPlan
	byJSON        map[string]int // JSON member name → member or ^attr index
	byXML         map[xmlstream.Name]int
	wildcard      bool // xs:any in the content: the "$xml" member
	wildcardAt    int  // member index before which "$xml" is written
	choices       []choiceCheck
	// interleaved maps the first member of a repeated sequence to the end
	// of its members: their arrays are written interleaved by index.
	interleaved map[int]int
	derived     map[string]*typePlan // "$type" name → derived type
	abstract    bool
	hierarchy   bool        // the type has a complex base or derived types: "$type" applies
	typeName    xmlName     // QName written in xsi:type
	arrayItem   *memberPlan // SOAP-encoded array item
	mixed       bool
	// fixedOrder: no member repeats, so the content is never regrouped
	// and x2j records no spans (set by Plan.finish).
	fixedOrder bool
}

// memberPlan is one JSON member that holds child elements.
type memberPlan struct {
	json     string
	key      []byte // `"json":`, written before each value
	name     xmlName
	elem     *xsd.Element
	typ      *typePlan
	repeated bool
	required bool
	nillable bool
	abstract bool // elem.Abstract
	maxItems int  // 0: unbounded
	minItems int
	group    int // index of the member whose presence satisfies required (substitution heads), or -1
	// shadowed is set when a later member of the same XML name took its
	// byXML entry: the in-order lookup of x2j.child must not pick it.
	shadowed bool
}

// attrPlan is one "@name" member.
type attrPlan struct {
	json string
	name xmlName
	attr *xsd.Attribute
	text textHow // howOf(attr.Type)
}

// choiceCheck enforces "exactly one branch" of a non-repeated choice.
type choiceCheck struct {
	optional bool
	branches [][2]int // member index ranges [from, to)
	wildcard bool     // a branch is xs:any: "$xml" counts as that branch
}

// Compile compiles the conversion plan of msg. Callers cache the result.
func Compile(msg *xsd.Message, opts Options) (*Plan, error) {
	if msg == nil {
		return nil, errors.New("convert: nil message")
	}
	p := &Plan{opts: opts, prefix: map[string]string{}, types: map[*xsd.Type]*typePlan{}}
	switch {
	case msg.Wrapped:
		if msg.Wrapper == nil || msg.Wrapper.Type == nil {
			return nil, fmt.Errorf("convert: wrapped message %s has no wrapper type", msg.Name.Local)
		}
		p.wrapper = p.name(msg.Wrapper.Name)
		p.root = p.typePlan(msg.Wrapper.Type)
	case msg.Wrapper != nil:
		p.rpc = true
		p.wrapper = p.name(msg.Wrapper.Name)
		p.root = p.partsPlan(msg.Parts, true)
	default:
		p.root = p.partsPlan(msg.Parts, false)
	}
	if p.root.scalar || p.root.anyType || p.root.arrayItem != nil {
		return nil, fmt.Errorf("convert: message %s: the wrapper's type is not a structure (simple, anyType or SOAP array)", msg.Name.Local)
	}
	p.finish()
	return p, nil
}

// finish marks the types whose content cannot need regrouping: XML→JSON
// then records no output spans for their children. It also builds the
// wrapper's member.
func (p *Plan) finish() {
	if p.wrapper != nil {
		p.wrapperMember = &memberPlan{json: p.wrapper.local, name: *p.wrapper, typ: p.root, group: -1}
	}
	for _, tp := range p.types {
		tp.finish()
	}
	p.root.finish()
}

// finish sets fixedOrder: only a repeated member can reappear after
// another one (a second non-repeated element is an error).
func (tp *typePlan) finish() {
	for _, m := range tp.members {
		if m.repeated {
			return
		}
	}
	tp.fixedOrder = true
}

// HeadersMember is the reserved top-level member of a publish request or
// response object that holds the header parts' object (docs/conversion.md
// section 12). "$" cannot start an XML name, so no body member can take it.
const HeadersMember = "$headers"

// CompileHeaders compiles the SOAP header parts of msg: a JSON object with
// one optional member per header part, named by the part name. JSON→XML
// writes the part elements (for the Header element); XML→JSON reads the
// Header content and skips header blocks that are not parts (WS-Addressing,
// security, …). It returns nil when msg has no header parts.
func CompileHeaders(msg *xsd.Message, opts Options) (*Plan, error) {
	if msg == nil || len(msg.Headers) == 0 {
		return nil, nil
	}
	p := &Plan{opts: opts, prefix: map[string]string{}, types: map[*xsd.Type]*typePlan{}, headers: true}
	p.root = p.partsPlan(msg.Headers, false)
	for _, m := range p.root.members {
		m.required, m.minItems = false, 0
	}
	p.finish()
	return p, nil
}

// Namespaces returns the declarations the plan writes at the top, so that a
// caller can declare them on the envelope instead.
func (p *Plan) Namespaces() []Namespace { return append([]Namespace(nil), p.ns...) }

// name assigns (once) the prefix of n's namespace.
func (p *Plan) name(n xmlstream.Name) *xmlName {
	return &xmlName{prefix: p.prefixFor(n.Space), local: n.Local, space: n.Space}
}

func (p *Plan) prefixFor(uri string) string {
	if uri == "" {
		return ""
	}
	if pre, ok := p.prefix[uri]; ok {
		return pre
	}
	pre := p.opts.Prefixes[uri]
	if pre == "xsi" || pre == "xsd" || pre == "soapenc" {
		pre = "" // reserved: the writer uses them for their namespaces
	}
	switch uri {
	case NSXSI:
		pre = "xsi"
	case NSXSD:
		pre = "xsd"
	case NSSOAPEnc:
		pre = "soapenc"
	}
	if pre == "" || p.prefixUsed(pre) {
		for i := len(p.ns) + 1; ; i++ {
			pre = "ns" + strconv.Itoa(i)
			if !p.prefixUsed(pre) {
				break
			}
		}
	}
	p.prefix[uri] = pre
	p.ns = append(p.ns, Namespace{Prefix: pre, URI: uri})
	return pre
}

func (p *Plan) prefixUsed(pre string) bool {
	for _, b := range p.ns {
		if b.Prefix == pre {
			return true
		}
	}
	return false
}

// partsPlan builds the JSON object of a bare or rpc message: one member per
// part, named by the part name.
func (p *Plan) partsPlan(parts []*xsd.Part, rpc bool) *typePlan {
	tp := &typePlan{byJSON: map[string]int{}, byXML: map[xmlstream.Name]int{}}
	for _, part := range parts {
		el := part.Element
		if el == nil {
			el = &xsd.Element{Name: xmlstream.Name{Local: part.Name}, Type: part.Type}
		}
		m := p.member(el, 1, 1)
		m.json, m.key = part.Name, memberKey(part.Name)
		if rpc && part.Element == nil {
			m.nillable = true // rpc parts may be sent as xsi:nil
			p.prefixFor(NSXSI)
		}
		tp.addMember(m)
	}
	return tp
}

// member compiles one element occurrence.
func (p *Plan) member(el *xsd.Element, minOcc, maxOcc int) *memberPlan {
	m := &memberPlan{json: el.Name.Local, name: *p.name(el.Name), elem: el, nillable: el.Nillable, abstract: el.Abstract, group: -1}
	m.key = memberKey(m.json)
	m.repeated = maxOcc == xsd.Unbounded || maxOcc > 1
	m.required = minOcc > 0
	m.minItems = minOcc
	if maxOcc > 0 {
		m.maxItems = maxOcc
	}
	if el.Nillable {
		p.prefixFor(NSXSI)
	}
	m.typ = p.typePlan(el.Type)
	return m
}

// addMember appends m, merging it into an earlier member of the same JSON
// name (which then becomes repeated).
func (tp *typePlan) addMember(m *memberPlan) int {
	if i, ok := tp.byJSON[m.json]; ok && i >= 0 {
		old := tp.members[i]
		old.repeated, old.maxItems = true, 0
		return i
	}
	tp.members = append(tp.members, m)
	i := len(tp.members) - 1
	tp.byJSON[m.json] = i
	xn := xmlstream.Name{Space: m.name.space, Local: m.name.local}
	if j, ok := tp.byXML[xn]; ok {
		tp.members[j].shadowed = true
	}
	tp.byXML[xn] = i
	return i
}

// memberKey is the JSON text `"name":`.
func memberKey(name string) []byte {
	return append(appendQuotedString(nil, name), ':')
}
