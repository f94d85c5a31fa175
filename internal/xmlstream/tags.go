package xmlstream

import (
	"bytes"
	"unicode/utf8"
)

// qname is a split, validated qualified name.
type qname struct{ prefix, local string }

// rawAttr is an attribute before namespace resolution.
type rawAttr struct {
	q     qname
	value string
	off   int
}

// maxInterned bounds each intern map so hostile documents with many
// distinct names cannot grow them without limit.
const maxInterned = 4096

// maxInternedValue is the longest attribute value that is interned.
const maxInternedValue = 64

// scanName returns the end of the name starting at i.
func (r *Reader) scanName(i int) (int, error) {
	d := r.data
	start := i
	for i < len(d) {
		c := d[i]
		if c < utf8.RuneSelf {
			if !nameByte[c] || i == start && !nameStartByte[c] {
				break
			}
			i++
			continue
		}
		ru, n := utf8.DecodeRune(d[i:])
		if ru == utf8.RuneError && n == 1 {
			return i, r.errAt(i, "invalid UTF-8")
		}
		if !isNameRune(ru) || i == start && !isNameStartRune(ru) {
			return i, r.errAt(i, "invalid name character %q", ru)
		}
		i += n
	}
	if i-start > r.lim.MaxNameLen {
		return i, r.errAt(start, "name length limit %d exceeded", r.lim.MaxNameLen)
	}
	return i, nil
}

// splitQName splits and interns a qualified name found at offset off.
func (r *Reader) splitQName(b []byte, off int) (qname, error) {
	if q, ok := r.qnames[string(b)]; ok {
		return q, nil
	}
	var q qname
	switch i := bytes.IndexByte(b, ':'); {
	case i < 0:
		q.local = string(b)
	case i == 0 || i == len(b)-1 || bytes.IndexByte(b[i+1:], ':') >= 0:
		return q, r.errAt(off, "invalid QName %q: a name has at most one colon, between a prefix and a local name", b)
	default:
		ru, _ := utf8.DecodeRune(b[i+1:])
		if !isNameStartRune(ru) {
			return q, r.errAt(off, "invalid QName %q: the local name cannot start with %q", b, ru)
		}
		q.prefix, q.local = string(b[:i]), string(b[i+1:])
	}
	if len(r.qnames) < maxInterned {
		r.qnames[string(b)] = q
	}
	return q, nil
}

// internValue returns b as a string, sharing short repeated values.
func (r *Reader) internValue(b []byte) string {
	if len(b) > maxInternedValue {
		return string(b)
	}
	if s, ok := r.values[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(r.values) < maxInterned {
		r.values[s] = s
	}
	return s
}

// readStartTag reads <name attr="value" ...> or <name .../>.
func (r *Reader) readStartTag() (Token, error) {
	d := r.data
	start := r.pos
	end, err := r.scanName(start + 1)
	if err != nil {
		return Token{}, err
	}
	if end == start+1 {
		return Token{}, r.errAt(start, "expected an element name after <")
	}
	if len(r.stack) >= r.lim.MaxDepth {
		return Token{}, r.errAt(start, "depth limit %d exceeded", r.lim.MaxDepth)
	}
	rawName := d[start+1 : end]
	q, err := r.splitQName(rawName, start)
	if err != nil {
		return Token{}, err
	}
	nsMark := len(r.ns)
	r.raw = r.raw[:0]
	p := end
	selfClose := false
	for {
		sp := p
		p = skipSpace(d, p)
		if p >= len(d) {
			return Token{}, r.errAt(p, "unexpected end of document in the start tag of <%s>", rawName)
		}
		if d[p] == '>' {
			p++
			break
		}
		if d[p] == '/' {
			if p+1 >= len(d) || d[p+1] != '>' {
				return Token{}, r.errAt(p, "expected /> in the start tag of <%s>", rawName)
			}
			p += 2
			selfClose = true
			break
		}
		if p == sp {
			return Token{}, r.errAt(p, "expected white space, > or /> after <%s ... but found %q", rawName, d[p])
		}
		if p, err = r.readAttr(p, rawName); err != nil {
			return Token{}, err
		}
	}
	r.pos = p
	return r.openElement(rawName, q, nsMark, selfClose)
}

// readAttr reads name="value" at p, declaring namespaces as it goes.
func (r *Reader) readAttr(p int, elem []byte) (int, error) {
	d := r.data
	nameEnd, err := r.scanName(p)
	if err != nil {
		return p, err
	}
	if nameEnd == p {
		return p, r.errAt(p, "invalid character %q in the start tag of <%s>", d[p], elem)
	}
	q, err := r.splitQName(d[p:nameEnd], p)
	if err != nil {
		return p, err
	}
	if len(r.raw) >= r.lim.MaxAttrs {
		return p, r.errAt(p, "attribute limit %d exceeded on <%s>", r.lim.MaxAttrs, elem)
	}
	i := skipSpace(d, nameEnd)
	if i >= len(d) || d[i] != '=' {
		return p, r.errAt(i, "attribute %s of <%s> has no value (expected =)", d[p:nameEnd], elem)
	}
	i = skipSpace(d, i+1)
	if i >= len(d) || d[i] != '"' && d[i] != '\'' {
		return p, r.errAt(i, "value of attribute %s of <%s> is not quoted", d[p:nameEnd], elem)
	}
	val, next, err := r.attrValue(i)
	if err != nil {
		return p, err
	}
	a := rawAttr{q: q, off: p}
	if q.prefix == "xmlns" || q.prefix == "" && q.local == "xmlns" {
		a.value = r.internNS(val)
		if err := r.declare(a); err != nil {
			return p, err
		}
	} else {
		a.value = r.internValue(val)
	}
	r.raw = append(r.raw, a)
	return next, nil
}

// internNS interns a namespace URI (those repeat all over documents).
func (r *Reader) internNS(b []byte) string {
	if s, ok := r.values[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(r.values) < maxInterned {
		r.values[s] = s
	}
	return s
}

// openElement resolves names, checks attribute uniqueness and pushes the
// element.
func (r *Reader) openElement(rawName []byte, q qname, nsMark int, selfClose bool) (Token, error) {
	start := r.tokStart
	space, err := r.resolveElem(q, start)
	if err != nil {
		return Token{}, err
	}
	r.attrs = r.attrs[:0]
	for _, a := range r.raw {
		n, err := r.resolveAttr(a)
		if err != nil {
			return Token{}, err
		}
		r.attrs = append(r.attrs, Attr{Name: n, Prefix: a.q.prefix, Value: a.value})
	}
	if err := r.checkUnique(rawName); err != nil {
		return Token{}, err
	}
	name := Name{Space: space, Local: q.local}
	r.stack = append(r.stack, openElem{qname: rawName, name: name, prefix: q.prefix, nsMark: nsMark})
	r.state = inRoot
	r.pendingEnd = selfClose
	return Token{Kind: StartElement, Name: name, Prefix: q.prefix, Attrs: r.attrs}, nil
}

// checkUnique rejects two attributes with the same expanded name.
func (r *Reader) checkUnique(elem []byte) error {
	as := r.attrs
	if len(as) < 2 {
		return nil
	}
	if len(as) <= 16 {
		for i := 1; i < len(as); i++ {
			for j := 0; j < i; j++ {
				if as[i].Name == as[j].Name {
					return r.dupAttr(elem, i)
				}
			}
		}
		return nil
	}
	seen := make(map[Name]struct{}, len(as))
	for i, a := range as {
		if _, dup := seen[a.Name]; dup {
			return r.dupAttr(elem, i)
		}
		seen[a.Name] = struct{}{}
	}
	return nil
}

func (r *Reader) dupAttr(elem []byte, i int) error {
	a := r.raw[i]
	name := a.q.local
	if a.q.prefix != "" {
		name = a.q.prefix + ":" + name
	}
	return r.errAt(a.off, "duplicate attribute %s on <%s> (attribute names must be unique after namespace resolution)", name, elem)
}

// readEndTag reads </name>.
func (r *Reader) readEndTag() (Token, error) {
	d := r.data
	start := r.pos
	end, err := r.scanName(start + 2)
	if err != nil {
		return Token{}, err
	}
	name := d[start+2 : end]
	if len(name) == 0 {
		return Token{}, r.errAt(start, "expected an element name after </")
	}
	p := skipSpace(d, end)
	if p >= len(d) || d[p] != '>' {
		return Token{}, r.errAt(p, "expected > to end </%s", name)
	}
	if len(r.stack) == 0 {
		return Token{}, r.errAt(start, "unexpected end tag </%s>", name)
	}
	top := r.stack[len(r.stack)-1]
	if !bytes.Equal(top.qname, name) {
		return Token{}, r.errAt(start, "end tag </%s> does not match start tag <%s>", name, top.qname)
	}
	r.pos = p + 1
	return r.popElement(), nil
}

// popElement closes the innermost element and returns its end token.
func (r *Reader) popElement() Token {
	top := r.stack[len(r.stack)-1]
	r.stack = r.stack[:len(r.stack)-1]
	r.ns = r.ns[:top.nsMark]
	if len(r.stack) == 0 {
		r.state = inEpilog
	}
	return Token{Kind: EndElement, Name: top.name, Prefix: top.prefix}
}
