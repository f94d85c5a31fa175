package transform

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/go-json-experiment/json/jsontext"
)

// node is one JSON value. Objects keep their members in document order and
// numbers keep their exact source text, so a document that goes through
// Apply loses neither key order nor numeric precision.
type node struct {
	kind    jsontext.Kind // '{', '[', '"', '0', 't', 'f' or 'n'
	text    string        // string value, or the literal text of a number
	members []member      // object members, in order
	items   []*node       // array elements
}

type member struct {
	name string
	val  *node
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

// lookup returns the index of the member called name, or -1.
func (n *node) lookup(name string) int {
	for i, m := range n.members {
		if m.name == name {
			return i
		}
	}
	return -1
}

// clone returns a deep copy.
func (n *node) clone() *node {
	c := &node{kind: n.kind, text: n.text}
	if n.members != nil {
		c.members = make([]member, len(n.members))
		for i, m := range n.members {
			c.members[i] = member{name: m.name, val: m.val.clone()}
		}
	}
	if n.items != nil {
		c.items = make([]*node, len(n.items))
		for i, it := range n.items {
			c.items[i] = it.clone()
		}
	}
	return c
}

// parseJSON reads exactly one JSON value. Duplicate member names and
// invalid UTF-8 are errors (jsontext defaults).
func parseJSON(doc []byte) (*node, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(doc))
	n, err := readValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.ReadToken(); !errors.Is(err, io.EOF) {
		return nil, errors.New("unexpected data after the JSON value")
	}
	return n, nil
}

func readValue(dec *jsontext.Decoder) (*node, error) {
	tok, err := dec.ReadToken()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, io.ErrUnexpectedEOF
		}
		return nil, err
	}
	switch k := tok.Kind(); k {
	case '{':
		return readObject(dec)
	case '[':
		return readArray(dec)
	case '"', '0':
		return &node{kind: k, text: tok.String()}, nil
	case 't', 'f', 'n':
		return &node{kind: k}, nil
	default:
		return nil, fmt.Errorf("unexpected %v", k)
	}
}

func readObject(dec *jsontext.Decoder) (*node, error) {
	n := &node{kind: '{', members: []member{}}
	for dec.PeekKind() != '}' {
		tok, err := dec.ReadToken()
		if err != nil {
			return nil, err
		}
		name := tok.String() // before the next read voids tok
		val, err := readValue(dec)
		if err != nil {
			return nil, err
		}
		n.members = append(n.members, member{name: name, val: val})
	}
	if _, err := dec.ReadToken(); err != nil {
		return nil, err
	}
	return n, nil
}

func readArray(dec *jsontext.Decoder) (*node, error) {
	n := &node{kind: '[', items: []*node{}}
	for dec.PeekKind() != ']' {
		val, err := readValue(dec)
		if err != nil {
			return nil, err
		}
		n.items = append(n.items, val)
	}
	if _, err := dec.ReadToken(); err != nil {
		return nil, err
	}
	return n, nil
}

// appendJSON writes n compactly.
func appendJSON(dst []byte, n *node) []byte {
	switch n.kind {
	case '{':
		dst = append(dst, '{')
		for i, m := range n.members {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendString(dst, m.name)
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
	case '"':
		return appendString(dst, n.text)
	case '0':
		return append(dst, n.text...)
	case 't':
		return append(dst, "true"...)
	case 'f':
		return append(dst, "false"...)
	}
	return append(dst, "null"...)
}

// appendString quotes s. Strings in the tree are valid UTF-8 (the decoder
// and the rules only produce such), so quoting cannot fail.
func appendString(dst []byte, s string) []byte {
	out, err := jsontext.AppendQuote(dst, s)
	if err != nil {
		// Unreachable for valid UTF-8; keep the output well-formed anyway.
		out, _ = jsontext.AppendQuote(dst, []byte(string([]rune(s))))
	}
	return out
}
