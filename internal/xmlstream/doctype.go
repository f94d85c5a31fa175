package xmlstream

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// readDoctype reads a document type declaration. DOCTYPEs are reported as
// Directive tokens and never acted on: an external DTD is never fetched,
// and an internal subset that declares entities or attribute defaults is
// refused, so XML bombs and XXE payloads fail here.
func (r *Reader) readDoctype() error {
	if err := r.doctypeDecl(); err != nil {
		if se, ok := err.(*SyntaxError); ok && !strings.Contains(se.Msg, "DOCTYPE") {
			se.Msg = "in DOCTYPE: " + se.Msg
		}
		return err
	}
	return nil
}

// doctypeDecl does the work of readDoctype.
func (r *Reader) doctypeDecl() error {
	d := r.data
	start := r.pos
	if r.state != inProlog || r.doctype {
		return r.errAt(start, "DOCTYPE is only allowed once, before the root element")
	}
	r.doctype = true
	p := start + len("<!DOCTYPE")
	if p >= len(d) || !isSpace(d[p]) {
		return r.errAt(p, "expected white space after <!DOCTYPE")
	}
	p = skipSpace(d, p)
	end, err := r.scanName(p)
	if err != nil {
		return err
	}
	if end == p {
		return r.errAt(p, "expected the root element name in DOCTYPE")
	}
	if p, err = r.externalID(end); err != nil {
		return err
	}
	if p < len(d) && d[p] == '[' {
		if p, err = r.internalSubset(p + 1); err != nil {
			return err
		}
		p = skipSpace(d, p)
	}
	if p >= len(d) || d[p] != '>' {
		return r.errAt(p, "expected > to end the DOCTYPE")
	}
	data, err := r.markupData(start+2, p, "a DOCTYPE")
	if err != nil {
		return err
	}
	r.pos = p + 1
	r.setData(Directive, data, false)
	return nil
}

// externalID reads an optional SYSTEM or PUBLIC identifier at p and the
// white space after it.
func (r *Reader) externalID(p int) (int, error) {
	d := r.data
	q := skipSpace(d, p)
	rest := d[q:]
	var literals int
	switch {
	case bytes.HasPrefix(rest, []byte("SYSTEM")):
		literals, q = 1, q+len("SYSTEM")
	case bytes.HasPrefix(rest, []byte("PUBLIC")):
		literals, q = 2, q+len("PUBLIC")
	default:
		return q, nil
	}
	if q == p+len("SYSTEM") {
		return q, r.errAt(p, "expected white space before the DOCTYPE external identifier")
	}
	for range literals {
		s := skipSpace(d, q)
		if s == q || s >= len(d) || d[s] != '"' && d[s] != '\'' {
			return s, r.errAt(s, "expected a quoted literal in the DOCTYPE external identifier")
		}
		e := bytes.IndexByte(d[s+1:], d[s])
		if e < 0 {
			return s, r.errAt(s, "unterminated literal in DOCTYPE")
		}
		q = s + 1 + e + 1
	}
	return skipSpace(d, q), nil
}

// internalSubset scans the internal subset starting after '[' and returns
// the offset after the closing ']'.
func (r *Reader) internalSubset(p int) (int, error) {
	d := r.data
	for {
		p = skipSpace(d, p)
		rest := d[p:]
		switch {
		case len(rest) == 0:
			return p, r.errAt(p, "unterminated DOCTYPE internal subset")
		case rest[0] == ']':
			return p + 1, nil
		case bytes.HasPrefix(rest, []byte("<!ENTITY")):
			return p, r.errAt(p, "DOCTYPE declares entities (<!ENTITY): entity declarations are refused (XML bomb and XXE protection)")
		case bytes.HasPrefix(rest, []byte("<!ATTLIST")):
			return p, r.errAt(p, "DOCTYPE declares attribute defaults (<!ATTLIST), which this reader refuses")
		case rest[0] == '%':
			return p, r.errAt(p, "parameter entity references in DOCTYPE are refused")
		case bytes.HasPrefix(rest, []byte("<!--")):
			e := bytes.Index(rest[4:], []byte("--"))
			if e < 0 || 4+e+2 >= len(rest) || rest[4+e+2] != '>' {
				return p, r.errAt(p, "malformed comment in DOCTYPE")
			}
			p += 4 + e + 3
		case bytes.HasPrefix(rest, []byte("<?")):
			// The same rules as a processing instruction in the document,
			// and the target xml is reserved here too (readDoctype says
			// where the error is).
			nameEnd, end, err := r.scanProcInst(p)
			if err != nil {
				return p, err
			}
			if strings.EqualFold(string(d[p+2:nameEnd]), "xml") {
				return p, r.errAt(p, "processing instruction targets named xml are reserved")
			}
			p = end + 2
		case bytes.HasPrefix(rest, []byte("<!ELEMENT")), bytes.HasPrefix(rest, []byte("<!NOTATION")):
			e, err := r.declEnd(p)
			if err != nil {
				return p, err
			}
			p = e
		default:
			return p, r.errAt(p, "unexpected content in DOCTYPE internal subset")
		}
	}
}

// declEnd returns the offset after the '>' ending the markup declaration
// at p, skipping quoted literals.
func (r *Reader) declEnd(p int) (int, error) {
	d := r.data
	var quote byte
	for i := p + 2; i < len(d); i++ {
		switch c := d[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '<':
			return i, r.errAt(i, "unexpected < in a DOCTYPE declaration")
		case c == '>':
			return i + 1, nil
		}
	}
	return len(d), r.errAt(p, "unterminated declaration in DOCTYPE")
}

// declaration checks the XML declaration body d[p:end] (after "<?xml") and
// transcodes ISO-8859-1 documents to UTF-8.
func (r *Reader) declaration(p, end int) error {
	rest := r.data[p:end]
	name, value, rest, ok := declField(rest)
	if !ok || string(name) != "version" {
		return r.errAt(r.pos, "malformed XML declaration (expected version=\"1.0\" first)")
	}
	if string(value) != "1.0" {
		return r.errAt(r.pos, "unsupported XML version %q (only 1.0)", value)
	}
	var enc []byte
	name, value, rest, ok = declField(rest)
	if ok && string(name) == "encoding" {
		enc = value
		name, value, rest, ok = declField(rest)
	}
	if ok && string(name) == "standalone" && (string(value) == "yes" || string(value) == "no") {
		name, _, rest, ok = declField(rest)
	}
	if ok || len(bytes.TrimLeft(rest, " \t\r\n")) > 0 {
		return r.errAt(r.pos, "malformed XML declaration near %q", name)
	}
	return r.encoding(enc, end)
}

// encoding accepts the declared encoding enc.
func (r *Reader) encoding(enc []byte, end int) error {
	for _, e := range []string{"", "utf-8", "utf8", "us-ascii", "ascii"} {
		if bytes.EqualFold(enc, []byte(e)) {
			return nil
		}
	}
	for _, e := range []string{"iso-8859-1", "latin1", "iso_8859-1", "latin-1"} {
		if bytes.EqualFold(enc, []byte(e)) {
			r.transcodeLatin1(end)
			return nil
		}
	}
	return r.errAt(r.pos, "unsupported encoding %q: only UTF-8, US-ASCII and ISO-8859-1 are accepted", enc)
}

// declField reads one pseudo-attribute (white space, name, =, quoted
// value) of an XML declaration. ok is false at the end of s or on a
// malformed field, in which case rest is s.
func declField(s []byte) (name, value, rest []byte, ok bool) {
	t := bytes.TrimLeft(s, " \t\r\n")
	if len(t) == len(s) || len(t) == 0 {
		return nil, nil, s, false
	}
	eq := bytes.IndexByte(t, '=')
	if eq <= 0 {
		return nil, nil, s, false
	}
	name = bytes.TrimRight(t[:eq], " \t\r\n")
	v := bytes.TrimLeft(t[eq+1:], " \t\r\n")
	if len(v) == 0 || v[0] != '"' && v[0] != '\'' {
		return nil, nil, s, false
	}
	e := bytes.IndexByte(v[1:], v[0])
	if e < 0 {
		return nil, nil, s, false
	}
	return name, v[1 : 1+e], v[e+2:], true
}

// transcodeLatin1 replaces the document after offset from with its UTF-8
// form when it holds bytes above 0x7F.
func (r *Reader) transcodeLatin1(from int) {
	rest := r.data[from:]
	high := 0
	for _, c := range rest {
		if c >= utf8.RuneSelf {
			high++
		}
	}
	if high == 0 {
		return
	}
	out := make([]byte, 0, len(r.data)+high)
	out = append(out, r.data[:from]...)
	for _, c := range rest {
		out = utf8.AppendRune(out, rune(c))
	}
	r.data = out
}
