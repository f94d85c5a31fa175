package xmlstream

// THIS FILE IS A PLACEHOLDER holding the exported API; the xmlstream owner
// replaces it with the real implementation (reader.go, tree.go, writer.go).

import (
	"errors"
	"fmt"
)

var errUnimplemented = errors.New("xmlstream: not implemented yet")

func syntaxErrorString(e *SyntaxError) string {
	return fmt.Sprintf("xml: line %d: %s", e.Line, e.Msg)
}

// Reader reads tokens from an in-memory XML document.
type Reader struct{}

// NewReader returns a Reader over data with the given limits.
func NewReader(data []byte, lim Limits) *Reader { return &Reader{} }

// Next returns the next token, or io.EOF after the root element has ended
// and only whitespace, comments and processing instructions followed.
func (r *Reader) Next() (Token, error) { return Token{}, errUnimplemented }

// Depth is the number of open elements (1 right after the root start).
func (r *Reader) Depth() int { return 0 }

// Line is the 1-based line of the last returned token.
func (r *Reader) Line() int { return 0 }

// Offset is the byte offset just after the last returned token.
func (r *Reader) Offset() int { return 0 }

// LookupPrefix returns the namespace bound to prefix in the current scope
// ("" is the default namespace).
func (r *Reader) LookupPrefix(prefix string) (string, bool) { return "", false }

// ResolveQName resolves a QName-valued attribute or text ("tns:X", or "X"
// in the default namespace) in the current scope.
func (r *Reader) ResolveQName(qname string) (Name, error) { return Name{}, errUnimplemented }

// Skip skips to the end of the element whose start was just returned.
func (r *Reader) Skip() error { return errUnimplemented }

// UndeclaredPrefixes lists prefixes used without declaration (only with
// Limits.AllowUndeclaredPrefixes).
func (r *Reader) UndeclaredPrefixes() []string { return nil }

// Element is a node of a parsed tree (elements only; text is collected).
type Element struct {
	Name     Name
	Prefix   string
	Attrs    []Attr // namespace declarations excluded
	Children []*Element
	Text     string // concatenated character data directly inside this element
	Line     int
	Parent   *Element
	// NS holds the namespace declarations made on this element, prefix to
	// URI ("" is the default namespace).
	NS map[string]string
}

// Parse reads a whole document into a tree.
func Parse(data []byte, lim Limits) (*Element, error) { return nil, errUnimplemented }

// Attr returns the value of the attribute with the given namespace and
// local name.
func (e *Element) Attr(space, local string) (string, bool) { return "", false }

// LookupPrefix resolves prefix in the scope of e.
func (e *Element) LookupPrefix(prefix string) (string, bool) { return "", false }

// ResolveQName resolves a QName value in the scope of e.
func (e *Element) ResolveQName(qname string) (Name, error) { return Name{}, errUnimplemented }

// InScope returns every namespace binding visible at e, prefix to URI.
func (e *Element) InScope() map[string]string { return nil }

// Writer appends XML to a byte buffer. It escapes all text and attribute
// values and never checks what the caller declares: declaring namespaces is
// the caller's job (the converter declares each one once, at the top).
type Writer struct{ buf []byte }

// NewWriter returns a writer appending to buf (which may be nil).
func NewWriter(buf []byte) *Writer { return &Writer{buf: buf} }

// Bytes returns the written document.
func (w *Writer) Bytes() []byte { return w.buf }

// Reset empties the buffer, keeping its capacity.
func (w *Writer) Reset() { w.buf = w.buf[:0] }

// Start opens <prefix:local; attributes may follow until the next content
// call, which closes the start tag.
func (w *Writer) Start(prefix, local string) {}

// Attr writes an attribute of the element just opened.
func (w *Writer) Attr(prefix, local, value string) {}

// NSDecl writes xmlns:prefix="uri" (or xmlns="uri" for an empty prefix).
func (w *Writer) NSDecl(prefix, uri string) {}

// Text writes escaped character data.
func (w *Writer) Text(s string) {}

// TextBytes writes escaped character data.
func (w *Writer) TextBytes(b []byte) {}

// Raw appends already well-formed XML as is.
func (w *Writer) Raw(b []byte) {}

// End closes the element opened by the matching Start (as <x/> when empty).
func (w *Writer) End(prefix, local string) {}
