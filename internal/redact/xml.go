package redact

import "bytes"

// xmlPayload masks the content of sensitive elements, lexically: start
// tags are found by '<' and a name, content runs to the matching end tag
// of the same qualified name (nesting counted) or to the end of b.
// Comments, CDATA sections outside sensitive elements, processing
// instructions and end tags are stepped over.
func (r *Redactor) xmlPayload(b []byte) []byte {
	var spans []span
	for i := 0; i < len(b); {
		j := bytes.IndexByte(b[i:], '<')
		if j < 0 {
			break
		}
		j += i
		if j+1 >= len(b) {
			break
		}
		switch b[j+1] {
		case '/', '?':
			i = j + 2
			continue
		case '!':
			i = skipMarkup(b, j)
			continue
		}
		n := nameEnd(b, j+1)
		qname := b[j+1 : n]
		if len(qname) == 0 || !r.sensitive(localName(qname)) {
			i = n
			continue
		}
		gt, selfClosing := tagEnd(b, n)
		if gt < 0 {
			break // the start tag never ends: no content follows it
		}
		if selfClosing {
			i = gt + 1
			continue
		}
		end := matchingEnd(b, gt+1, qname)
		if end > gt+1 {
			spans = append(spans, span{gt + 1, end})
		}
		i = end
	}
	return apply(b, spans, Mask)
}

// skipMarkup returns the offset after the comment, CDATA section or
// declaration starting at b[j] ("<!"), or len(b) when it never ends.
func skipMarkup(b []byte, j int) int {
	rest := b[j:]
	var end string
	switch {
	case bytes.HasPrefix(rest, []byte("<!--")):
		end = "-->"
	case bytes.HasPrefix(rest, []byte("<![CDATA[")):
		end = "]]>"
	default:
		end = ">"
	}
	k := bytes.Index(rest[2:], []byte(end))
	if k < 0 {
		return len(b)
	}
	return j + 2 + k + len(end)
}

// nameEnd returns the offset just after the name starting at b[i].
func nameEnd(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\r', '\n', '/', '>', '<', '=', '"', '\'':
			return i
		}
		i++
	}
	return i
}

// localName is the part of a qualified name after its prefix.
func localName(qname []byte) []byte {
	if k := bytes.LastIndexByte(qname, ':'); k >= 0 {
		return qname[k+1:]
	}
	return qname
}

// tagEnd finds the '>' closing the tag whose attributes start at b[i],
// skipping quoted attribute values; -1 when there is none.
func tagEnd(b []byte, i int) (gt int, selfClosing bool) {
	var quote byte
	for ; i < len(b); i++ {
		c := b[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '>':
			return i, i > 0 && b[i-1] == '/'
		}
	}
	return -1, false
}

// matchingEnd returns the offset of the end tag closing the element named
// qname whose content starts at b[i], counting nested elements of the
// same name; len(b) when it is missing.
func matchingEnd(b []byte, i int, qname []byte) int {
	depth := 1
	for i < len(b) {
		j := bytes.IndexByte(b[i:], '<')
		if j < 0 {
			return len(b)
		}
		j += i
		if bytes.HasPrefix(b[j+1:], []byte("!")) {
			i = skipMarkup(b, j)
			continue
		}
		closing := j+1 < len(b) && b[j+1] == '/'
		start := j + 1
		if closing {
			start++
		}
		n := nameEnd(b, start)
		if !bytes.Equal(b[start:n], qname) {
			i = n
			continue
		}
		gt, selfClosing := tagEnd(b, n)
		if gt < 0 {
			return len(b)
		}
		switch {
		case closing:
			if depth--; depth == 0 {
				return j
			}
		case !selfClosing:
			depth++
		}
		i = gt + 1
	}
	return len(b)
}
