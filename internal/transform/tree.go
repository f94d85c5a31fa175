package transform

import (
	"bytes"
	"errors"
	"io"

	"github.com/go-json-experiment/json/jsontext"
)

// node is one JSON value in a lazily expanded tree. The document is
// validated once as a whole; after that a value stays the raw bytes it was
// in the input until a rule needs to look inside it, and raw values are
// written back byte for byte. Objects therefore keep their member order
// and numbers their exact text, and untouched parts cost one copy.
type node struct {
	// raw is the JSON text of a scalar (source bytes, or the encoding of a
	// value a rule set) or of a container not expanded yet; it is nil for
	// an expanded container. Raw bytes are never modified in place.
	raw     []byte
	members []member // object members, in order, once expanded
	items   []*node  // array elements, once expanded
	kind    jsontext.Kind
}

// member is one object member; rawName is its quoted JSON name.
type member struct {
	rawName []byte
	val     *node
}

// kindName names a node kind for error messages.
func (n *node) kindName() string {
	switch n.kind {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case '0':
		return "number"
	case 't', 'f':
		return "boolean"
	}
	return "null"
}

// str returns the value of a string node.
func (n *node) str() string { return unquote(n.raw) }

// setString makes n the string s.
func (n *node) setString(s string) {
	*n = node{kind: '"', raw: appendString(nil, s)}
}

// unquote decodes a quoted JSON string that is known to be valid.
func unquote(q []byte) string {
	inner := q[1 : len(q)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		return string(inner)
	}
	out, err := jsontext.AppendUnquote(nil, q)
	if err != nil {
		return string(inner) // unreachable: the document was validated
	}
	return string(out)
}

// is reports whether the member is called name.
func (m *member) is(name string) bool {
	inner := m.rawName[1 : len(m.rawName)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		return string(inner) == name
	}
	return unquote(m.rawName) == name
}

// lookup returns the index of the member called name, or -1.
func (n *node) lookup(name string) int {
	n.expand()
	for i := range n.members {
		if n.members[i].is(name) {
			return i
		}
	}
	return -1
}

// clone returns a copy that can be changed without touching n. Raw bytes
// are never modified in place, so they are shared.
func (n *node) clone() *node {
	c := *n
	if n.members != nil {
		c.members = make([]member, len(n.members))
		for i, m := range n.members {
			c.members[i] = member{rawName: m.rawName, val: m.val.clone()}
		}
	}
	if n.items != nil {
		c.items = make([]*node, len(n.items))
		for i, it := range n.items {
			c.items[i] = it.clone()
		}
	}
	return &c
}

// parseJSON validates doc as exactly one JSON value (RFC 7493: valid UTF-8,
// no duplicate member names) and returns its unexpanded root.
func parseJSON(doc []byte) (*node, error) {
	if !jsontext.Value(doc).IsValid() {
		return nil, invalidReason(doc)
	}
	doc = bytes.Trim(doc, " \t\r\n")
	return rawNode(doc), nil
}

// invalidReason explains why doc is not valid.
func invalidReason(doc []byte) error {
	dec := jsontext.NewDecoder(bytes.NewReader(doc))
	if _, err := dec.ReadValue(); err != nil {
		if errors.Is(err, io.EOF) {
			return io.ErrUnexpectedEOF
		}
		return err
	}
	return errors.New("unexpected data after the JSON value")
}

// rawNode wraps the bytes of one valid value.
func rawNode(b []byte) *node {
	n := &node{}
	n.setRaw(b)
	return n
}

func (n *node) setRaw(b []byte) {
	k := jsontext.Kind(b[0])
	switch k {
	case '{', '[', '"', 't', 'f', 'n':
	default:
		k = '0'
	}
	*n = node{kind: k, raw: b}
}

// span is the source of one member or element found by expand.
type span struct{ name, val []byte }

// expand splits a raw object or array into its members or elements, with
// one allocation for all the child nodes.
func (n *node) expand() {
	if n.raw == nil || (n.kind != '{' && n.kind != '[') {
		return
	}
	var buf [32]span
	spans := splitValue(n.raw, n.kind == '{', buf[:0])
	nodes := make([]node, len(spans))
	for i, sp := range spans {
		nodes[i].setRaw(sp.val)
	}
	if n.kind == '{' {
		n.members = make([]member, len(spans))
		for i, sp := range spans {
			n.members[i] = member{rawName: sp.name, val: &nodes[i]}
		}
	} else {
		n.items = make([]*node, len(spans))
		for i := range nodes {
			n.items[i] = &nodes[i]
		}
	}
	n.raw = nil
}

// splitValue finds the members (object) or elements of a valid raw value.
func splitValue(b []byte, object bool, spans []span) []span {
	i := skipSpace(b, 1)
	for b[i] != '}' && b[i] != ']' {
		var name []byte
		if object {
			end := valueEnd(b, i)
			name = b[i:end]
			i = skipSpace(b, skipSpace(b, end)+1) // past ':'
		}
		end := valueEnd(b, i)
		spans = append(spans, span{name: name, val: b[i:end]})
		i = skipSpace(b, end)
		if b[i] == ',' {
			i = skipSpace(b, i+1)
		}
	}
	return spans
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// valueEnd returns the end of the valid value starting at b[i].
func valueEnd(b []byte, i int) int {
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				i = stringEnd(b, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return i
	}
	for ; i < len(b); i++ {
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return i
		}
	}
	return i
}

// stringEnd returns the index just past the string starting at b[i]: the
// first quote not escaped by an odd run of backslashes.
func stringEnd(b []byte, i int) int {
	for i++; i < len(b); {
		q := bytes.IndexByte(b[i:], '"')
		if q < 0 {
			return len(b)
		}
		i += q
		backslashes := 0
		for j := i - 1; j >= 0 && b[j] == '\\'; j-- {
			backslashes++
		}
		if backslashes%2 == 0 {
			return i + 1
		}
		i++
	}
	return len(b)
}

// appendJSON writes n: raw values as they were, changed ones compactly.
func appendJSON(dst []byte, n *node) []byte {
	if n.raw != nil {
		return append(dst, n.raw...)
	}
	switch n.kind {
	case '{':
		dst = append(dst, '{')
		for i, m := range n.members {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, m.rawName...)
			dst = append(dst, ':')
			dst = appendJSON(dst, m.val)
		}
		return append(dst, '}')
	case '[':
		dst = append(dst, '[')
		for i, it := range n.items {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendJSON(dst, it)
		}
		return append(dst, ']')
	}
	// Unreachable: scalars always have their JSON text in raw.
	return append(dst, "null"...)
}

// appendString quotes s. Strings in the tree are valid UTF-8 (the document
// was validated and the rules only produce such), so quoting cannot fail.
func appendString(dst []byte, s string) []byte {
	out, err := jsontext.AppendQuote(dst, s)
	if err != nil {
		// Unreachable for valid UTF-8; keep the output well-formed anyway.
		out, _ = jsontext.AppendQuote(dst, []byte(string([]rune(s))))
	}
	return out
}
