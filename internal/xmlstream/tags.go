package xmlstream

import (
	"bytes"
	"unicode/utf8"
)

// qname is a split, validated qualified name; prefix and local share raw's
// memory.
type qname struct{ raw, prefix, local string }

// rawAttr is an attribute before namespace resolution.
type rawAttr struct {
	q     *qname
	value string
	off   int
}

// scanName returns the end of the name starting at i.
func (r *Reader) scanName(i int) (int, error) {
	end, _, err := r.scanNameHash(i)
	return end, err
}

// scanNameHash returns the end of the name starting at i and its hash.
func (r *Reader) scanNameHash(i int) (int, uint32, error) {
	d := r.data
	start := i
	h := uint32(hashInit)
	for i < len(d) {
		c := d[i]
		if c < utf8.RuneSelf {
			if !nameByte[c] || i == start && !nameStartByte[c] {
				break
			}
			h = (h ^ uint32(c)) * hashPrime
			i++
			continue
		}
		ru, n := utf8.DecodeRune(d[i:])
		if ru == utf8.RuneError && n == 1 {
			return i, 0, r.errAt(i, "invalid UTF-8 in a name")
		}
		if !isNameRune(ru) || i == start && !isNameStartRune(ru) {
			return i, 0, r.errAt(i, "invalid name character %q", ru)
		}
		for _, c := range d[i : i+n] {
			h = (h ^ uint32(c)) * hashPrime
		}
		i += n
	}
	if i-start > r.lim.MaxNameLen {
		return i, 0, r.errAt(start, "name length limit %d exceeded", r.lim.MaxNameLen)
	}
	return i, h, nil
}

// nameContinuesAt reports whether a name character is at d[i].
func nameContinuesAt(d []byte, i int) bool {
	if i >= len(d) {
		return false
	}
	if c := d[i]; c < utf8.RuneSelf {
		return nameByte[c]
	}
	ru, _ := utf8.DecodeRune(d[i:])
	return isNameRune(ru)
}

// splitQName splits and interns a qualified name found at offset off.
func (r *Reader) splitQName(b []byte, h uint32, off int) (*qname, error) {
	if q := r.lookupQName(b, h); q != nil {
		return q, nil
	}
	i := bytes.IndexByte(b, ':')
	if i >= 0 {
		if i == 0 || i == len(b)-1 || bytes.IndexByte(b[i+1:], ':') >= 0 {
			return nil, r.errAt(off, "invalid QName %q: a name has at most one colon, between a prefix and a local name", b)
		}
		if ru, _ := utf8.DecodeRune(b[i+1:]); !isNameStartRune(ru) {
			return nil, r.errAt(off, "invalid QName %q: the local name cannot start with %q", b, ru)
		}
	}
	return r.storeQName(b, h, i), nil
}

// readStartTag reads <name attr="value" ...> or <name .../>.
func (r *Reader) readStartTag() error {
	d := r.data
	start := r.pos
	end, h, err := r.scanNameHash(start + 1)
	if err != nil {
		return err
	}
	if end == start+1 {
		return r.errAt(start, "expected an element name after <")
	}
	if len(r.stack) >= r.lim.MaxDepth {
		return r.errAt(start, "depth limit %d exceeded", r.lim.MaxDepth)
	}
	rawName := d[start+1 : end]
	q, err := r.splitQName(rawName, h, start)
	if err != nil {
		return err
	}
	nsMark := len(r.ns)
	r.raw = r.raw[:0]
	p := end
	selfClose := false
	for {
		sp := p
		p = skipSpace(d, p)
		if p >= len(d) {
			return r.errAt(p, "unexpected end of document in the start tag of <%s>", rawName)
		}
		if d[p] == '>' {
			p++
			break
		}
		if d[p] == '/' {
			if p+1 >= len(d) || d[p+1] != '>' {
				return r.errAt(p, "expected /> in the start tag of <%s>", rawName)
			}
			p += 2
			selfClose = true
			break
		}
		if p == sp {
			return r.errAt(p, "expected white space, > or /> after <%s ... but found %q", rawName, d[p])
		}
		if p, err = r.readAttr(p, rawName); err != nil {
			return err
		}
	}
	r.pos = p
	return r.openElement(rawName, q, nsMark, selfClose)
}

// readAttr reads name="value" at p, declaring namespaces as it goes.
func (r *Reader) readAttr(p int, elem []byte) (int, error) {
	d := r.data
	nameEnd, h, err := r.scanNameHash(p)
	if err != nil {
		return p, err
	}
	if nameEnd == p {
		return p, r.errAt(p, "invalid character %q in the start tag of <%s>", d[p], elem)
	}
	q, err := r.splitQName(d[p:nameEnd], h, p)
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
		a.value = r.internURI(val)
		if err := r.declare(a); err != nil {
			return p, err
		}
	} else {
		a.value = r.valueString(val)
	}
	r.raw = append(r.raw, a)
	return next, nil
}

// openElement resolves names, checks attribute uniqueness and pushes the
// element.
func (r *Reader) openElement(rawName []byte, q *qname, nsMark int, selfClose bool) error {
	start := r.tokStart
	space, err := r.resolveElem(q, start)
	if err != nil {
		return err
	}
	r.attrs = r.attrs[:0]
	for _, a := range r.raw {
		n, err := r.resolveAttr(a)
		if err != nil {
			return err
		}
		r.attrs = append(r.attrs, Attr{Name: n, Prefix: a.q.prefix, Value: a.value})
	}
	if err := r.checkUnique(rawName); err != nil {
		return err
	}
	r.stack = append(r.stack, openElem{q: q, space: space, nsMark: nsMark})
	r.state = inRoot
	r.pendingEnd = selfClose
	r.kind = StartElement
	return nil
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
func (r *Reader) readEndTag() error {
	d := r.data
	start := r.pos
	end := start + 2
	if n := len(r.stack); n > 0 {
		top := r.stack[n-1].q.raw
		if len(d)-end >= len(top) && string(d[end:end+len(top)]) == top && !nameContinuesAt(d, end+len(top)) {
			end += len(top)
		} else if err := r.badEndTag(start); err != nil {
			return err
		}
	} else if err := r.badEndTag(start); err != nil {
		return err
	}
	p := skipSpace(d, end)
	if p >= len(d) || d[p] != '>' {
		return r.errAt(p, "expected > to end </%s", d[start+2:end])
	}
	r.pos = p + 1
	r.popElement()
	return nil
}

// badEndTag explains an end tag that does not close the open element.
func (r *Reader) badEndTag(start int) error {
	end, err := r.scanName(start + 2)
	if err != nil {
		return err
	}
	name := r.data[start+2 : end]
	switch {
	case len(name) == 0:
		return r.errAt(start, "expected an element name after </")
	case len(r.stack) == 0:
		return r.errAt(start, "unexpected end tag </%s>", name)
	}
	return r.errAt(start, "end tag </%s> does not match start tag <%s>", name, r.stack[len(r.stack)-1].q.raw)
}

// popElement closes the innermost element and makes its end the token.
func (r *Reader) popElement() {
	top := r.stack[len(r.stack)-1]
	r.stack = r.stack[:len(r.stack)-1]
	r.popBindings(top.nsMark)
	if len(r.stack) == 0 {
		r.state = inEpilog
	}
	r.kind = EndElement
}
