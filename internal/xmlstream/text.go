package xmlstream

import (
	"unicode/utf8"
)

// checkRune validates the multi-byte character at d[i] and returns its
// length.
func (r *Reader) checkRune(i int, where string) (int, error) {
	ru, n := utf8.DecodeRune(r.data[i:])
	if ru == utf8.RuneError && n == 1 {
		return n, r.errAt(i, "invalid UTF-8 in %s", where)
	}
	if !isXMLChar(ru) {
		return n, r.errAt(i, "character %U is not allowed in XML (in %s)", ru, where)
	}
	return n, nil
}

// readText reads character data up to the next '<'.
func (r *Reader) readText() error {
	d := r.data
	start := r.pos
	i := start
	decode := false
	for i < len(d) {
		c := d[i]
		switch textClass[c] {
		case clsPlain:
			i++
			continue
		case clsHigh:
			n, err := r.checkRune(i, "text")
			if err != nil {
				return err
			}
			i += n
			continue
		case clsControl:
			return r.errAt(i, "character %U is not allowed in XML (in text)", rune(c))
		}
		if c == '<' {
			break
		}
		if c == ']' && i+2 < len(d) && d[i+1] == ']' && d[i+2] == '>' {
			return r.errAt(i, "]]> is not allowed in text outside a CDATA section")
		}
		decode = decode || c != ']'
		i++
	}
	r.pos = i
	data := d[start:i]
	if decode {
		var err error
		if data, err = r.decode(data, start, false); err != nil {
			return err
		}
	}
	r.setData(CharData, data, false)
	return nil
}

// attrValue reads the quoted value starting at the quote d[q]; it returns
// the entity-decoded, normalized value and the offset after the quote.
func (r *Reader) attrValue(q int) ([]byte, int, error) {
	d := r.data
	quote := d[q]
	start := q + 1
	decode := false
	for i := start; i < len(d); {
		c := d[i]
		switch attrClass[c] {
		case clsPlain:
			i++
			continue
		case clsHigh:
			n, err := r.checkRune(i, "an attribute value")
			if err != nil {
				return nil, 0, err
			}
			i += n
			continue
		case clsControl:
			return nil, 0, r.errAt(i, "character %U is not allowed in XML (in an attribute value)", rune(c))
		}
		switch c {
		case quote:
			v := d[start:i]
			if decode {
				var err error
				if v, err = r.decode(v, start, true); err != nil {
					return nil, 0, err
				}
			}
			return v, i + 1, nil
		case '<':
			return nil, 0, r.errAt(i, "< is not allowed in an attribute value (write &lt;)")
		case '"', '\'':
		default:
			decode = true
		}
		i++
	}
	return nil, 0, r.errAt(len(d), "unexpected end of document in an attribute value")
}

// decode resolves references and normalizes line ends (and, in attribute
// values, white space) in b, which starts at offset off. The result lives
// in r.buf until the next call.
func (r *Reader) decode(b []byte, off int, attr bool) ([]byte, error) {
	out := r.buf[:0]
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c == '&':
			var n int
			var err error
			out, n, err = r.reference(out, b[i:], off+i)
			if err != nil {
				return nil, err
			}
			i += n
			continue
		case c == '\r':
			if i+1 < len(b) && b[i+1] == '\n' {
				i++
			}
			c = '\n'
		}
		if attr && (c == '\n' || c == '\t') {
			c = ' '
		}
		out = append(out, c)
		i++
	}
	r.buf = out
	return out, nil
}

// predefined are the only entities XML readers know without a DTD.
var predefined = map[string]byte{"lt": '<', "gt": '>', "amp": '&', "apos": '\'', "quot": '"'}

// reference decodes the reference at the start of b (b[0] == '&'),
// appending its text to out, and returns its length.
func (r *Reader) reference(out, b []byte, off int) ([]byte, int, error) {
	end := 1
	for end < len(b) && b[end] != ';' && (b[end] == '#' || b[end] < utf8.RuneSelf && nameByte[b[end]] || b[end] >= utf8.RuneSelf) {
		end++
	}
	if end >= len(b) || b[end] != ';' {
		return out, 0, r.errAt(off, "unterminated reference %q (write & as &amp;)", truncate(b, 12))
	}
	body := b[1:end]
	if len(body) > 0 && body[0] == '#' {
		ru, ok := parseCharRef(body[1:])
		if !ok {
			return out, 0, r.errAt(off, "invalid character reference &%s;", body)
		}
		if !isXMLChar(ru) {
			return out, 0, r.errAt(off, "character reference &%s; is not an allowed XML character", body)
		}
		return utf8.AppendRune(out, ru), end + 1, nil
	}
	if c, ok := predefined[string(body)]; ok {
		return append(out, c), end + 1, nil
	}
	return out, 0, r.errAt(off, "undefined entity &%s; (only the five predefined entities exist; DTD entities are never expanded)", body)
}

// parseCharRef parses the digits of &#NNN; or &#xHHH;.
func parseCharRef(b []byte) (rune, bool) {
	base := rune(10)
	if len(b) > 0 && b[0] == 'x' {
		base, b = 16, b[1:]
	}
	if len(b) == 0 {
		return 0, false
	}
	var v rune
	for _, c := range b {
		var d rune
		switch {
		case '0' <= c && c <= '9':
			d = rune(c - '0')
		case base == 16 && 'a' <= c && c <= 'f':
			d = rune(c-'a') + 10
		case base == 16 && 'A' <= c && c <= 'F':
			d = rune(c-'A') + 10
		default:
			return 0, false
		}
		v = v*base + d
		if v > utf8.MaxRune {
			return 0, false
		}
	}
	return v, true
}

func truncate(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}
