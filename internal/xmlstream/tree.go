package xmlstream

import (
	"fmt"
	"io"
	"strings"
)

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
	// URI ("" is the default namespace). It is nil when there are none.
	NS map[string]string
}

// Parse reads a whole document into a tree. Comments, processing
// instructions and the DOCTYPE are dropped.
func Parse(data []byte, lim Limits) (*Element, error) {
	r := NewReader(data, lim)
	var root *Element
	var open []openText // the elements being built, innermost last
	for {
		tok, err := r.Next()
		if err == io.EOF {
			return root, nil
		}
		if err != nil {
			return nil, err
		}
		switch tok.Kind {
		case StartElement:
			var parent *Element
			if len(open) > 0 {
				parent = open[len(open)-1].e
			}
			e := newElement(tok, r.Line(), parent)
			if parent == nil {
				root = e
			} else {
				parent.Children = append(parent.Children, e)
			}
			open = append(open, openText{e: e})
		case EndElement:
			top := &open[len(open)-1]
			top.e.Text = string(top.text)
			open = open[:len(open)-1]
		case CharData:
			top := &open[len(open)-1]
			top.text = append(top.text, tok.Data...)
		}
	}
}

// openText is an element under construction and its text so far (joined
// at the end, so text split by many comments stays linear).
type openText struct {
	e    *Element
	text []byte
}

func newElement(tok Token, line int, parent *Element) *Element {
	e := &Element{Name: tok.Name, Prefix: tok.Prefix, Line: line, Parent: parent}
	for _, a := range tok.Attrs {
		if a.Name.Space != NSXMLNS {
			e.Attrs = append(e.Attrs, a)
			continue
		}
		if e.NS == nil {
			e.NS = make(map[string]string, 2)
		}
		if a.Prefix == "" {
			e.NS[""] = a.Value
		} else {
			e.NS[a.Name.Local] = a.Value
		}
	}
	return e
}

// Attr returns the value of the attribute with the given namespace and
// local name.
func (e *Element) Attr(space, local string) (string, bool) {
	for _, a := range e.Attrs {
		if a.Name.Local == local && a.Name.Space == space {
			return a.Value, true
		}
	}
	return "", false
}

// LookupPrefix resolves prefix in the scope of e ("" is the default
// namespace). The prefix xml is always bound.
func (e *Element) LookupPrefix(prefix string) (string, bool) {
	if prefix == "xml" {
		return NSXML, true
	}
	for x := e; x != nil; x = x.Parent {
		if uri, ok := x.NS[prefix]; ok {
			return uri, true
		}
	}
	return "", false
}

// ResolveQName resolves a QName value ("tns:X", or "X" in the default
// namespace) in the scope of e. Surrounding white space is ignored.
func (e *Element) ResolveQName(qname string) (Name, error) {
	prefix, local, err := splitQNameValue(qname)
	if err != nil {
		return Name{}, err
	}
	uri, ok := e.LookupPrefix(prefix)
	if !ok && prefix != "" {
		return Name{}, fmt.Errorf("xmlstream: resolving %q at line %d: %w %q", qname, e.Line, ErrUndeclaredPrefix, prefix)
	}
	return Name{Space: uri, Local: local}, nil
}

// InScope returns every namespace binding visible at e, prefix to URI,
// including the always-bound prefix xml. A default namespace undeclared
// with xmlns="" is omitted.
func (e *Element) InScope() map[string]string {
	m := map[string]string{"xml": NSXML}
	var chain []*Element
	for x := e; x != nil; x = x.Parent {
		chain = append(chain, x)
	}
	for i := len(chain) - 1; i >= 0; i-- {
		for p, uri := range chain[i].NS {
			m[p] = uri
		}
	}
	if m[""] == "" {
		delete(m, "")
	}
	return m
}

// Child returns the first child element with the given name, or nil.
func (e *Element) Child(space, local string) *Element {
	for _, c := range e.Children {
		if c.Name.Local == local && c.Name.Space == space {
			return c
		}
	}
	return nil
}

// ChildrenNamed returns the child elements with the given name.
func (e *Element) ChildrenNamed(space, local string) []*Element {
	var out []*Element
	for _, c := range e.Children {
		if c.Name.Local == local && c.Name.Space == space {
			out = append(out, c)
		}
	}
	return out
}

// TrimmedText returns Text without leading and trailing XML white space.
func (e *Element) TrimmedText() string { return strings.Trim(e.Text, " \t\r\n") }
