package xmlstream

import (
	"errors"
	"unicode/utf8"
)

// Writer appends XML to a byte buffer. It escapes all text and attribute
// values and never checks what the caller declares: declaring namespaces is
// the caller's job (the converter declares each one once, at the top).
// Names are written as given; callers supply valid names.
//
// Whatever string a value holds, the output stays well-formed: invalid
// UTF-8 and characters XML forbids (most C0 controls, U+FFFE, U+FFFF) are
// replaced by U+FFFD. In attribute values tab, LF and CR are written as
// character references so they survive attribute value normalization; in
// text CR is written as &#xD; so it survives line-end normalization.
type Writer struct {
	buf  []byte
	open bool // a start tag is open: attributes may still follow
	err  error
}

// errAttrAfterContent is recorded when Attr or NSDecl come too late.
var errAttrAfterContent = errors.New("xmlstream: attribute written after element content; dropped")

// NewWriter returns a writer appending to buf (which may be nil).
func NewWriter(buf []byte) *Writer { return &Writer{buf: buf} }

// Bytes returns the written document.
func (w *Writer) Bytes() []byte { return w.buf }

// Len returns the number of bytes written.
func (w *Writer) Len() int { return len(w.buf) }

// Grow makes room for n more bytes.
func (w *Writer) Grow(n int) {
	if cap(w.buf)-len(w.buf) < n {
		nb := make([]byte, len(w.buf), 2*cap(w.buf)+n)
		copy(nb, w.buf)
		w.buf = nb
	}
}

// Reset empties the buffer, keeping its capacity.
func (w *Writer) Reset() { w.buf, w.open, w.err = w.buf[:0], false, nil }

// Err reports the first misuse (an attribute after content), if any. The
// output is well-formed even then; the misplaced attribute is dropped.
func (w *Writer) Err() error { return w.err }

// Declaration writes <?xml version="1.0" encoding="UTF-8"?>.
func (w *Writer) Declaration() {
	w.closeStart()
	w.buf = append(w.buf, `<?xml version="1.0" encoding="UTF-8"?>`...)
}

// Start opens <prefix:local; attributes may follow until the next content
// call, which closes the start tag.
//
// Each method appends to a local slice and stores w.buf once: storing the
// slice pointer into the heap-allocated Writer costs a GC write barrier
// while a collection runs, and an append of a string always stores it.
func (w *Writer) Start(prefix, local string) {
	b := w.buf
	if w.open {
		b = append(b, '>')
	}
	b = append(b, '<')
	w.buf = appendName(b, prefix, local)
	w.open = true
}

// Attr writes an attribute of the element just opened.
func (w *Writer) Attr(prefix, local, value string) {
	if !w.open {
		w.misuse()
		return
	}
	b := append(w.buf, ' ')
	b = appendName(b, prefix, local)
	b = append(b, '=', '"')
	b = appendEscaped(b, value, &attrEscapes)
	w.buf = append(b, '"')
}

// NSDecl writes xmlns:prefix="uri" (or xmlns="uri" for an empty prefix).
func (w *Writer) NSDecl(prefix, uri string) {
	if prefix == "" {
		w.Attr("", "xmlns", uri)
		return
	}
	w.Attr("xmlns", prefix, uri)
}

// Text writes escaped character data. Empty text writes nothing.
func (w *Writer) Text(s string) {
	if s == "" {
		return
	}
	w.closeStart()
	w.buf = appendEscaped(w.buf, s, &textEscapes)
}

// TextBytes writes escaped character data.
func (w *Writer) TextBytes(b []byte) {
	if len(b) == 0 {
		return
	}
	w.closeStart()
	w.buf = appendEscaped(w.buf, b, &textEscapes)
}

// Raw appends already well-formed XML as is.
func (w *Writer) Raw(b []byte) {
	w.closeStart()
	w.buf = append(w.buf, b...)
}

// End closes the element opened by the matching Start (as <x/> when empty).
func (w *Writer) End(prefix, local string) {
	if w.open {
		w.buf = append(w.buf, '/', '>')
		w.open = false
		return
	}
	b := append(w.buf, '<', '/')
	b = appendName(b, prefix, local)
	w.buf = append(b, '>')
}

func appendName(b []byte, prefix, local string) []byte {
	if prefix != "" {
		b = append(b, prefix...)
		b = append(b, ':')
	}
	return append(b, local...)
}

func (w *Writer) closeStart() {
	if w.open {
		w.buf = append(w.buf, '>')
		w.open = false
	}
}

func (w *Writer) misuse() {
	if w.err == nil {
		w.err = errAttrAfterContent
	}
}

// Escape tables: the replacement for each ASCII byte that needs one.
var textEscapes, attrEscapes [utf8.RuneSelf]string

func init() {
	for c := range 0x20 {
		textEscapes[c] = "\uFFFD"
	}
	textEscapes['\t'], textEscapes['\n'] = "", ""
	textEscapes['&'], textEscapes['<'], textEscapes['>'] = "&amp;", "&lt;", "&gt;"
	textEscapes['\r'] = "&#xD;"
	attrEscapes = textEscapes
	attrEscapes['"'], attrEscapes['\''] = "&quot;", "&apos;"
	attrEscapes['\t'], attrEscapes['\n'], attrEscapes['\r'] = "&#x9;", "&#xA;", "&#xD;"
}

// appendEscaped appends s escaped with the table esc.
func appendEscaped[S string | []byte](buf []byte, s S, esc *[utf8.RuneSelf]string) []byte {
	last := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if esc[c] == "" {
				i++
				continue
			}
			buf = append(buf, s[last:i]...)
			buf = append(buf, esc[c]...)
			i++
			last = i
			continue
		}
		r, n := decodeRune(s[i:])
		if r == utf8.RuneError && n == 1 || !isXMLChar(r) {
			buf = append(buf, s[last:i]...)
			buf = append(buf, "\uFFFD"...)
			i += n
			last = i
			continue
		}
		i += n
	}
	return append(buf, s[last:]...)
}

func decodeRune[S string | []byte](s S) (rune, int) {
	switch v := any(s).(type) {
	case string:
		return utf8.DecodeRuneInString(v)
	case []byte:
		return utf8.DecodeRune(v)
	}
	return utf8.RuneError, 1
}
