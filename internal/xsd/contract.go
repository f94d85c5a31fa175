// Package xsd models XML Schema and compiles it into the contracts the
// converter follows: per-operation input, output and fault messages made of
// elements, types and particles, plus a JSON Schema of their JSON shape.
package xsd

import "github.com/s2r-project/s2r/internal/xmlstream"

// Unbounded is the MaxOccurs of maxOccurs="unbounded".
const Unbounded = -1

// JSONKind is the JSON type a simple value takes.
type JSONKind uint8

// JSON kinds of simple values.
const (
	JSONString  JSONKind = iota // strings, dates, base64, anything else
	JSONInteger                 // every xs:integer-derived type, written exactly
	JSONNumber                  // xs:decimal, xs:float, xs:double (INF/NaN stay strings)
	JSONBoolean
)

// SimpleType is a compiled simple type: its primitive, the JSON kind it maps
// to and its facets.
type SimpleType struct {
	Name xmlstream.Name // zero for anonymous types
	// Builtin is the local name of the built-in XSD type it derives from,
	// e.g. "int", "decimal", "boolean", "dateTime", "base64Binary", "QName".
	Builtin string
	Kind    JSONKind
	// Variety: exactly one of List and Union is set for list and union types.
	List  *SimpleType   // item type of an xs:list (JSON: array of items)
	Union []*SimpleType // member types of an xs:union (JSON: first member that accepts)
	Facets
	// Unresolved is set on the xs:anySimpleType stand-in of a reference a
	// lenient import could not resolve (and on restrictions of it).
	Unresolved *Unresolved
}

// Facets are the restriction facets of a simple type; absent numeric facets
// are nil. Bounds are kept as lexical strings so decimals stay exact.
type Facets struct {
	Enumeration    []string
	Patterns       []string
	Length         *int
	MinLength      *int
	MaxLength      *int
	MinInclusive   string
	MaxInclusive   string
	MinExclusive   string
	MaxExclusive   string
	TotalDigits    *int
	FractionDigits *int
	WhiteSpace     string // preserve, replace, collapse
}

// Type is a compiled complex type (or the wrapper of a simple type when an
// element has a simple type: then Simple is set and nothing else).
type Type struct {
	Name xmlstream.Name // zero for anonymous types
	// Simple is set for simple types and for complex types with simple
	// content (then the text is the "$value" member of the JSON object).
	Simple     *SimpleType
	Attributes []*Attribute // including inherited ones, in declaration order
	// AnyAttribute allows attributes not declared ("@name" members).
	AnyAttribute bool
	// Content is the content model (a Sequence, Choice or All particle), nil
	// for empty or simple content. It includes the base type's content for
	// extensions, so the converter never walks Base.
	Content  *Particle
	Mixed    bool
	Abstract bool
	// Base is the type this one derives from, nil for none; Derived lists
	// the named types derived from it anywhere in the schema set, for
	// xsi:type resolution.
	Base    *Type
	Derived []*Type
	// ArrayItem is set for SOAP-encoded arrays (soapenc:Array restrictions):
	// the element every item is written as.
	ArrayItem *Element
	// Unresolved is set on the xs:anyType stand-in of a reference a
	// lenient import could not resolve (Set.SetLenient).
	Unresolved *Unresolved
}

// IsSimple reports whether t has no element content and no attributes.
func (t *Type) IsSimple() bool { return t.Simple != nil && len(t.Attributes) == 0 && !t.AnyAttribute }

// ParticleKind is the kind of a Particle.
type ParticleKind uint8

// Particle kinds.
const (
	ParticleElement ParticleKind = iota + 1
	ParticleSequence
	ParticleChoice
	ParticleAll
	ParticleAny // xs:any wildcard
)

// Particle is a term with occurrence bounds. Groups (xs:group) are inlined.
type Particle struct {
	Kind      ParticleKind
	MinOccurs int
	MaxOccurs int         // Unbounded for "unbounded"
	Element   *Element    // ParticleElement
	Children  []*Particle // ParticleSequence, ParticleChoice, ParticleAll
	Wildcard  *Wildcard   // ParticleAny
}

// Repeated reports whether the particle can occur more than once.
func (p *Particle) Repeated() bool { return p.MaxOccurs == Unbounded || p.MaxOccurs > 1 }

// Wildcard is an xs:any or xs:anyAttribute.
type Wildcard struct {
	// Namespace is the raw namespace constraint ("##any", "##other", a list).
	Namespace       string
	ProcessContents string // strict, lax, skip
	// Unresolved is set on the stand-in of a model group reference a
	// lenient import could not resolve.
	Unresolved *Unresolved
}

// Element is a compiled element declaration. Name.Space is empty when the
// element is unqualified (elementFormDefault/form).
type Element struct {
	Name     xmlstream.Name
	Type     *Type
	Nillable bool
	Abstract bool
	Default  string
	Fixed    string
	// Substitutes lists the members of this element's substitution group
	// (excluding itself), each of which may appear in its place.
	Substitutes []*Element
}

// Attribute is a compiled attribute declaration. Name.Space is empty when
// unqualified (attributeFormDefault/form).
type Attribute struct {
	Name     xmlstream.Name
	Type     *SimpleType
	Required bool
	Default  string
	Fixed    string
}

// Style is the WSDL binding style of an operation.
type Style uint8

// Binding styles and uses.
const (
	Document Style = iota + 1
	RPC
)

// Use is the WSDL body use of an operation.
type Use uint8

// Body uses.
const (
	Literal Use = iota + 1
	Encoded
)

// Part is one WSDL message part: either an element part or a type part.
type Part struct {
	Name    string
	Element *Element // element="…" parts
	Type    *Type    // type="…" parts (rpc style)
}

// Message is the compiled body (and headers) of one direction of an
// operation.
//
// JSON shape (DESIGN 5): document/literal wrapped (one element part whose
// element has a complex type) → the JSON object is the content of that
// element, Wrapped is true and Wrapper is that element. Bare document (any
// other element-part message) and rpc → a JSON object with one member per
// part, named by part name. For rpc, Wrapper is the synthesized operation
// element (operation name, or name+"Response", in Namespace) and parts are
// unqualified children of it.
type Message struct {
	Name      xmlstream.Name // the WSDL message name
	Parts     []*Part
	Wrapped   bool
	Wrapper   *Element
	Namespace string // soap:body namespace (rpc)
	Headers   []*Part
}

// Fault is one declared fault of an operation.
type Fault struct {
	Name    string
	Message *Message
}

// Operation is the compiled contract of one bound operation.
type Operation struct {
	Name       string
	SOAPAction string
	Style      Style
	Use        Use
	// EncodingStyle is the soap:body encodingStyle for Encoded operations.
	EncodingStyle string
	Input         *Message
	Output        *Message // nil for one-way operations
	Faults        []*Fault
	// MTOM is true when the binding or policy hints at MTOM/XOP.
	MTOM bool
	// Addressing is true when the binding declares WS-Addressing or the
	// input names its action (DESIGN 10.3); InputAction is that
	// wsam:Action or wsaw:Action, "" when not declared.
	Addressing  bool
	InputAction string
	// Unresolved lists what the input and output bodies need but a lenient
	// import could not resolve, each replaced by xs:anyType: such an
	// operation needs a person's review (MANUAL_REQUIRED).
	Unresolved []*Unresolved
}
