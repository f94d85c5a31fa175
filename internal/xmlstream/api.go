// Package xmlstream is a fast, secure, namespace-aware XML reader over an
// in-memory document, a small tree built on it, and an append-style writer.
//
// # Reading
//
// Reader checks well-formedness (XML 1.0 fifth edition) and namespace
// well-formedness (Namespaces in XML 1.0) as it goes: one root element,
// matching end tags, valid names and QNames, unique attributes after
// namespace resolution, no < in attribute values, no ]]> in text, valid
// UTF-8 and XML characters, declared prefixes (xml is predeclared;
// xmlns:p="" is an error). It decodes the five predefined entities and
// character references (range-checked); every other entity reference is
// an error. Depth, attributes per element, name length and document size
// are capped by Limits; errors are *SyntaxError with a line number.
//
// It never expands DTD entities and never fetches anything: a DOCTYPE whose
// internal subset declares entities (XML bombs, XXE) or attribute defaults
// is refused; a DOCTYPE with only a name, an external identifier, element
// declarations, comments or PIs is reported as a Directive token.
//
// Documents are UTF-8; a UTF-8 byte order mark is skipped. The XML
// declaration may name UTF-8 or US-ASCII (read as UTF-8) or ISO-8859-1
// (latin1), which is transcoded to UTF-8 up front; any other encoding, and
// UTF-16, is refused with a clear error. The XML declaration is reported
// as a ProcInst token. White space outside the root element is not
// reported. Line ends are normalized (CR LF and CR become LF) in all data,
// and literal tab, LF and CR in attribute values become spaces, as XML
// requires; lines are counted by LF.
//
// Token strings (names, prefixes, namespaces, attribute values) are
// immutable and may be kept; the Token's Data and Attrs slices are reused
// by the next call to Next. Names and namespace URIs are interned in a
// bounded process-wide table; attribute values never are.
//
// Compared with encoding/xml, Reader refuses what XML forbids and
// encoding/xml lets through (several roots, text outside the root,
// duplicate attributes, undeclared prefixes, QNames such as "a:" or "p:1",
// forbidden namespace bindings, misplaced XML declarations or DOCTYPEs,
// character references to surrogates, invalid characters in comments and
// PIs, missing white space between attributes) and uses the fifth edition
// name characters. FuzzReaderDifferential lists these differences.
//
// # Writing
//
// Writer appends escaped XML to a buffer; see its documentation for the
// escaping rules and the U+FFFD replacement of invalid characters.
package xmlstream

import "strconv"

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
// to Reader.Next; copy them to keep them. The strings they hold are
// immutable and may be kept.
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
	// AllowUndeclaredPrefixes makes an undeclared prefix resolve to its
	// placeholder namespace (UndeclaredSpace) instead of failing; the
	// prefixes are reported by Reader.UndeclaredPrefixes. Used by WSDL and
	// XSD import and namespace repair only, never for messages.
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

// String returns the name of the kind.
func (k Kind) String() string {
	switch k {
	case StartElement:
		return "StartElement"
	case EndElement:
		return "EndElement"
	case CharData:
		return "CharData"
	case Comment:
		return "Comment"
	case ProcInst:
		return "ProcInst"
	case Directive:
		return "Directive"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}
