package xmlstream

import (
	"bytes"
	"fmt"
	"io"
)

// Reader reads tokens from an in-memory XML document.
//
// The reader works on the document bytes directly: names are interned,
// character data is a sub-slice of the document unless it holds references
// or carriage returns, attribute values share append-only blocks, and the
// attribute slice is reused, so reading a document takes a handful of
// allocations whatever its size.
//
// Documents are UTF-8 (a byte order mark is skipped). A declaration of
// encoding US-ASCII is read as UTF-8; ISO-8859-1 (or latin1) is transcoded
// to UTF-8 up front, in which case Offset counts bytes of the transcoded
// document. Every other encoding, and UTF-16, is refused.
type Reader struct {
	data []byte
	pos  int
	lim  Limits

	tokStart int // offset of the last returned token
	lineOff  int // line counting has covered data[:lineOff]
	line     int // line number at lineOff

	stack []openElem
	ns    []binding
	attrs []Attr
	raw   []rawAttr
	buf   []byte

	// The last token, turned into a Token by Next: its kind, the element
	// (for StartElement, the top of stack; for EndElement, the entry just
	// above it, which popElement leaves in place) or the data.
	kind  Kind
	text  []byte
	cdata bool

	c     *caches // nil before the first token and after the last
	arena []byte

	stackBuf [8]openElem
	nsBuf    [8]binding
	attrBuf  [8]Attr
	rawBuf   [8]rawAttr

	state         docState
	begun         bool
	pendingEnd    bool
	doctype       bool
	err           error
	undeclared    []string
	undeclaredSet map[string]string // prefix → placeholder namespace
	nsIndex       map[string]int    // see nsLinearMax
}

type docState uint8

const (
	inProlog docState = iota
	inRoot
	inEpilog
)

// openElem is an element whose end tag has not been read yet.
type openElem struct {
	q      *qname // as written, for matching the end tag
	space  string // resolved namespace
	nsMark int    // len(Reader.ns) before this element's declarations
}

// NewReader returns a Reader over data with the given limits. Zero fields
// of lim take their DefaultLimits values. The reader never modifies data;
// the caller must not modify it while reading.
func NewReader(data []byte, lim Limits) *Reader {
	r := &Reader{}
	r.Reset(data, lim)
	return r
}

// Reset makes r read data from the start with the given limits, keeping
// its buffers so that reading many documents with one Reader allocates
// almost nothing. Strings from earlier documents stay valid.
func (r *Reader) Reset(data []byte, lim Limits) {
	r.data, r.pos, r.lim = data, 0, withDefaults(lim)
	r.tokStart, r.lineOff, r.line = 0, 0, 1
	if r.stack == nil {
		r.stack, r.ns, r.attrs, r.raw = r.stackBuf[:0], r.nsBuf[:0], r.attrBuf[:0], r.rawBuf[:0]
	}
	r.stack, r.ns, r.attrs, r.raw = r.stack[:0], r.ns[:0], r.attrs[:0], r.raw[:0]
	r.state, r.begun, r.pendingEnd, r.doctype, r.err = inProlog, false, false, false, nil
	r.kind, r.text, r.cdata = 0, nil, false
	r.undeclared, r.undeclaredSet, r.nsIndex = nil, nil, nil
}

func withDefaults(lim Limits) Limits {
	if lim.MaxDepth <= 0 {
		lim.MaxDepth = DefaultLimits.MaxDepth
	}
	if lim.MaxAttrs <= 0 {
		lim.MaxAttrs = DefaultLimits.MaxAttrs
	}
	if lim.MaxNameLen <= 0 {
		lim.MaxNameLen = DefaultLimits.MaxNameLen
	}
	if lim.MaxSize <= 0 {
		lim.MaxSize = DefaultLimits.MaxSize
	}
	return lim
}

func syntaxErrorString(e *SyntaxError) string {
	return fmt.Sprintf("xml: line %d: %s", e.Line, e.Msg)
}

// errAt builds the error for a problem at byte offset off and makes the
// reader fail from now on.
func (r *Reader) errAt(off int, format string, args ...any) error {
	if off > len(r.data) {
		off = len(r.data)
	}
	r.err = &SyntaxError{Line: r.lineAt(off), Offset: off, Msg: fmt.Sprintf(format, args...)}
	r.releaseCaches()
	return r.err
}

// lineAt returns the line of byte offset off. Offsets usually grow, so
// newlines are counted incrementally.
func (r *Reader) lineAt(off int) int {
	if off < r.lineOff {
		r.lineOff, r.line = 0, 1
	}
	r.line += bytes.Count(r.data[r.lineOff:off], []byte{'\n'})
	r.lineOff = off
	return r.line
}

// Next returns the next token, or io.EOF after the root element has ended
// and only white space, comments and processing instructions followed.
// White space outside the root element is not reported. After an error,
// Next keeps returning that error, and after io.EOF, io.EOF.
func (r *Reader) Next() (Token, error) {
	if err := r.next(); err != nil {
		return Token{}, err
	}
	switch r.kind {
	case StartElement:
		e := &r.stack[len(r.stack)-1]
		return Token{Kind: StartElement, Name: Name{Space: e.space, Local: e.q.local}, Prefix: e.q.prefix, Attrs: r.attrs}, nil
	case EndElement:
		e := &r.stack[:len(r.stack)+1][len(r.stack)]
		return Token{Kind: EndElement, Name: Name{Space: e.space, Local: e.q.local}, Prefix: e.q.prefix}, nil
	}
	return Token{Kind: r.kind, Data: r.text, CDATA: r.cdata}, nil
}

// ReadToken is Next storing the token in *t instead of returning it: a
// loop reusing one Token does not copy the whole struct for every token.
// On an error *t is the zero Token.
func (r *Reader) ReadToken(t *Token) error {
	if err := r.next(); err != nil {
		*t = Token{}
		return err
	}
	switch r.kind {
	case StartElement:
		e := &r.stack[len(r.stack)-1]
		*t = Token{Kind: StartElement, Name: Name{Space: e.space, Local: e.q.local}, Prefix: e.q.prefix, Attrs: r.attrs}
	case EndElement:
		e := &r.stack[:len(r.stack)+1][len(r.stack)]
		*t = Token{Kind: EndElement, Name: Name{Space: e.space, Local: e.q.local}, Prefix: e.q.prefix}
	default:
		*t = Token{Kind: r.kind, Data: r.text, CDATA: r.cdata}
	}
	return nil
}

// setData records a token made of data.
func (r *Reader) setData(k Kind, data []byte, cdata bool) {
	r.kind, r.text, r.cdata = k, data, cdata
}

// next reads the next token.
func (r *Reader) next() error {
	if r.err != nil {
		return r.err
	}
	if r.pendingEnd {
		r.pendingEnd = false
		r.popElement()
		return nil
	}
	if !r.begun {
		if err := r.begin(); err != nil {
			return err
		}
	}
	for {
		r.tokStart = r.pos
		if r.pos >= len(r.data) {
			return r.atEOF()
		}
		if r.data[r.pos] != '<' {
			if r.state == inRoot {
				return r.readText()
			}
			if err := r.skipOuterSpace(); err != nil {
				return err
			}
			continue
		}
		return r.readMarkup()
	}
}

// begin checks the size limit and the byte order mark.
func (r *Reader) begin() error {
	r.begun = true
	if r.c == nil {
		r.c = cachePool.Get().(*caches)
	}
	if int64(len(r.data)) > r.lim.MaxSize {
		return r.errAt(0, "document size %d exceeds the size limit %d", len(r.data), r.lim.MaxSize)
	}
	d := r.data
	switch {
	case bytes.HasPrefix(d, []byte("\xEF\xBB\xBF")):
		r.pos = 3
	case bytes.HasPrefix(d, []byte("\xFE\xFF")), bytes.HasPrefix(d, []byte("\xFF\xFE")),
		len(d) >= 2 && (d[0] == 0 || d[1] == 0):
		return r.errAt(0, "UTF-16 and other non-ASCII-compatible encodings are not supported; send UTF-8")
	}
	return nil
}

func (r *Reader) atEOF() error {
	switch r.state {
	case inProlog:
		return r.errAt(r.pos, "no root element")
	case inRoot:
		top := r.stack[len(r.stack)-1]
		return r.errAt(r.pos, "unexpected end of document: element <%s> is not closed", top.q.raw)
	}
	r.err = io.EOF
	r.releaseCaches()
	return io.EOF
}

// skipOuterSpace skips white space outside the root element.
func (r *Reader) skipOuterSpace() error {
	i := skipSpace(r.data, r.pos)
	if i < len(r.data) && r.data[i] != '<' {
		if r.state == inProlog {
			return r.errAt(i, "text before the root element")
		}
		return r.errAt(i, "text after the root element")
	}
	r.pos = i
	return nil
}

// readMarkup reads the construct starting with '<' at r.pos.
func (r *Reader) readMarkup() error {
	d := r.data
	if r.pos+1 >= len(d) {
		return r.errAt(r.pos, "unexpected end of document after <")
	}
	switch c := d[r.pos+1]; {
	case c == '/':
		return r.readEndTag()
	case c == '?':
		return r.readProcInst()
	case c == '!':
		return r.readBang()
	default:
		if r.state == inEpilog {
			return r.errAt(r.pos, "content after the root element")
		}
		return r.readStartTag()
	}
}

// Depth is the number of open elements (1 right after the root start).
func (r *Reader) Depth() int { return len(r.stack) }

// Line is the 1-based line of the last returned token.
func (r *Reader) Line() int { return r.lineAt(r.tokStart) }

// Offset is the byte offset just after the last returned token.
func (r *Reader) Offset() int { return r.pos }

// Skip skips to the end of the element whose start was just returned; the
// skipped content is still checked. The next token is the one after the
// element's end tag.
func (r *Reader) Skip() error {
	depth := len(r.stack)
	if depth == 0 {
		return nil
	}
	for len(r.stack) >= depth {
		if err := r.next(); err != nil {
			return err
		}
	}
	return nil
}

// UndeclaredPrefixes lists prefixes used without declaration (only with
// Limits.AllowUndeclaredPrefixes), each once, in order of first use.
func (r *Reader) UndeclaredPrefixes() []string { return r.undeclared }

// AppendText appends the character data of the current element up to its
// end tag to dst, skipping comments and processing instructions, and
// consumes the end tag (ok true): what a loop over Next collecting CharData
// does, without building a Token per step. When a child element starts
// first it stops there (ok false) and stores that start element in *start
// as Next would have returned it; the caller goes on with Next or Skip.
func (r *Reader) AppendText(dst []byte, start *Token) (out []byte, ok bool, err error) {
	if err := r.next(); err != nil {
		return dst, false, err
	}
	return r.appendText(dst, start)
}

// ElementText is AppendText without the copy in the common case: when the
// element's content is one run of character data that needed no decoding
// (no reference, no CR) followed by the end tag, text views the document
// itself. Otherwise the text is collected in *buf, which keeps its grown
// capacity, and text is *buf. Never append to text: it may be the
// document. It is valid until the Reader is reset or *buf reused; after
// an error it is nil or partial.
func (r *Reader) ElementText(buf *[]byte, start *Token) (text []byte, ok bool, err error) {
	if err := r.next(); err != nil {
		return nil, false, err
	}
	dst := (*buf)[:0]
	if r.kind == CharData && !r.textDecoded() {
		view := r.text[:len(r.text):len(r.text)]
		if err := r.next(); err != nil {
			return nil, false, err
		}
		if r.kind == EndElement {
			return view, true, nil
		}
		dst = append(dst, view...)
	}
	dst, ok, err = r.appendText(dst, start)
	*buf = dst
	return dst, ok, err
}

// textDecoded reports whether the current CharData lives in r.buf (it
// was decoded) rather than in the document: the next token may reuse it.
func (r *Reader) textDecoded() bool {
	return len(r.text) > 0 && len(r.buf) > 0 && &r.text[0] == &r.buf[0]
}

// appendText is AppendText from the token just read.
func (r *Reader) appendText(dst []byte, start *Token) ([]byte, bool, error) {
	for {
		switch r.kind {
		case CharData:
			dst = append(dst, r.text...)
		case EndElement:
			return dst, true, nil
		case StartElement:
			e := &r.stack[len(r.stack)-1]
			*start = Token{Kind: StartElement, Name: Name{Space: e.space, Local: e.q.local}, Prefix: e.q.prefix, Attrs: r.attrs}
			return dst, false, nil
		}
		if err := r.next(); err != nil {
			return dst, false, err
		}
	}
}
