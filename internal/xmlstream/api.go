// Package xmlstream is a fast, secure, namespace-aware XML reader over an
// in-memory document, a small tree built on it, and an append-style writer.
//
// It never expands DTD entities: a DOCTYPE that declares entities is
// rejected. Depth, attribute count, name length and total size are capped.
package xmlstream

// Name is a namespace-resolved XML name. Space is the namespace URI, empty
// for unqualified names.
type Name struct {
	Space string
	Local string
}

// Kind is the kind of a Token.
type Kind uint8

// Token kinds.
const (
	StartElement Kind = iota + 1
	EndElement
	CharData // text and CDATA sections, with entities decoded
	Comment
	ProcInst
	Directive // a DOCTYPE without entity declarations
)

// Attr is one attribute of a start element. Namespace declarations
// (xmlns, xmlns:p) are reported as attributes too, with Name.Space set to
// "http://www.w3.org/2000/xmlns/".
type Attr struct {
	Name   Name
	Prefix string
	Value  string // entity-decoded
}

// Token is one XML token. Data and Attrs are only valid until the next call
// to Reader.Next; copy them to keep them.
type Token struct {
	Kind   Kind
	Name   Name   // StartElement and EndElement
	Prefix string // StartElement and EndElement
	Attrs  []Attr // StartElement
	Data   []byte // CharData, Comment, ProcInst (target and body), Directive
	// CDATA reports whether a CharData token came from a CDATA section.
	CDATA bool
}

// Limits bound what a Reader accepts. Zero fields take DefaultLimits values.
type Limits struct {
	MaxDepth   int
	MaxAttrs   int // per element
	MaxNameLen int
	MaxSize    int64 // total document bytes
	// AllowUndeclaredPrefixes makes an undeclared prefix resolve to an empty
	// namespace instead of failing; the prefixes are reported by
	// Reader.UndeclaredPrefixes. Used by namespace repair only.
	AllowUndeclaredPrefixes bool
}

// DefaultLimits are the limits used for zero fields of Limits.
var DefaultLimits = Limits{MaxDepth: 256, MaxAttrs: 256, MaxNameLen: 1024, MaxSize: 64 << 20}

// NSXMLNS is the namespace of namespace declaration attributes.
const NSXMLNS = "http://www.w3.org/2000/xmlns/"

// NSXML is the namespace bound to the reserved prefix xml.
const NSXML = "http://www.w3.org/XML/1998/namespace"

// SyntaxError reports malformed or refused input with its position.
type SyntaxError struct {
	Line   int // 1-based
	Offset int // byte offset into the document
	Msg    string
}

func (e *SyntaxError) Error() string { return syntaxErrorString(e) }
