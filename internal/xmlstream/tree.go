package xmlstream

import (
	"fmt"
	"io"
	"strings"
	"unsafe"
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
//
// Elements, attribute lists, child lists and texts are carved out of a few
// shared blocks, so a tree costs a handful of allocations per hundred
// elements; slices in the tree have no spare capacity, so appending to
// them never overwrites a neighbour.
func Parse(data []byte, lim Limits) (*Element, error) {
	root, _, err := parseTree(data, lim)
	return root, err
}

// ParseAllowUndeclared reads a whole document like Parse with
// Limits.AllowUndeclaredPrefixes set: a prefix used without declaration
// in an element or attribute name resolves to its placeholder namespace
// (UndeclaredSpace). It also returns those prefixes, each once, in order
// of first use. Undeclared prefixes in QName values are not seen here:
// Element.ResolveQName still reports them.
func ParseAllowUndeclared(data []byte, lim Limits) (*Element, []string, error) {
	lim.AllowUndeclaredPrefixes = true
	return parseTree(data, lim)
}

func parseTree(data []byte, lim Limits) (*Element, []string, error) {
	b := treeBuilder{r: NewReader(data, lim)}
	for {
		tok, err := b.r.Next()
		if err == io.EOF {
			return b.root, b.r.UndeclaredPrefixes(), nil
		}
		if err != nil {
			return nil, nil, err
		}
		switch tok.Kind {
		case StartElement:
			b.start(tok)
		case EndElement:
			b.end()
		case CharData:
			b.text = append(b.text, tok.Data...)
		}
	}
}

// treeBuilder builds a tree from tokens.
type treeBuilder struct {
	r    *Reader
	root *Element
	open []openElement // innermost last
	kids []*Element    // children of the open elements, in order
	text []byte        // text of the open elements, innermost last

	elems     []Element  // free part of the current element block
	elemBlock int        // size of the last element block (doubling to 256)
	attrs     []Attr     // free part of the current attribute block
	ptrs      []*Element // free part of the current child-list block
	chars     []byte     // free part of the current text block
}

// openElement is an element under construction: where its children and
// text start in treeBuilder.kids and treeBuilder.text.
type openElement struct {
	e                    *Element
	kidsStart, textStart int
}

func (b *treeBuilder) start(tok Token) {
	e := b.newElement()
	*e = Element{Name: tok.Name, Prefix: tok.Prefix, Line: b.r.Line()}
	if n := len(b.open); n > 0 {
		e.Parent = b.open[n-1].e
		b.kids = append(b.kids, e)
	} else {
		b.root = e
	}
	b.setAttrs(e, tok.Attrs)
	b.open = append(b.open, openElement{e: e, kidsStart: len(b.kids), textStart: len(b.text)})
}

func (b *treeBuilder) end() {
	top := b.open[len(b.open)-1]
	b.open = b.open[:len(b.open)-1]
	if kids := b.kids[top.kidsStart:]; len(kids) > 0 {
		top.e.Children = b.childList(kids)
		b.kids = b.kids[:top.kidsStart]
	}
	if text := b.text[top.textStart:]; len(text) > 0 {
		top.e.Text = b.textString(text)
		b.text = b.text[:top.textStart]
	}
}

// newElement returns a zero element from the current block.
func (b *treeBuilder) newElement() *Element {
	if len(b.elems) == 0 {
		b.elemBlock = min(max(2*b.elemBlock, 16), 256)
		b.elems = make([]Element, b.elemBlock)
	}
	e := &b.elems[0]
	b.elems = b.elems[1:]
	return e
}

// setAttrs copies the attributes (namespace declarations go to NS).
func (b *treeBuilder) setAttrs(e *Element, attrs []Attr) {
	n := 0
	for _, a := range attrs {
		if a.Name.Space != NSXMLNS {
			n++
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
	if n == 0 {
		return
	}
	if len(b.attrs) < n {
		b.attrs = make([]Attr, max(n, 128))
	}
	list := b.attrs[:0:n]
	b.attrs = b.attrs[n:]
	for _, a := range attrs {
		if a.Name.Space != NSXMLNS {
			list = append(list, a)
		}
	}
	e.Attrs = list
}

// childList copies kids into the current child-list block.
func (b *treeBuilder) childList(kids []*Element) []*Element {
	if len(b.ptrs) < len(kids) {
		b.ptrs = make([]*Element, max(len(kids), 256))
	}
	list := b.ptrs[:len(kids):len(kids)]
	b.ptrs = b.ptrs[len(kids):]
	copy(list, kids)
	return list
}

// textString copies text into the current text block, which is never
// written again, and returns a string viewing it.
func (b *treeBuilder) textString(text []byte) string {
	if len(text) > arenaChunk/4 {
		return string(text)
	}
	if cap(b.chars)-len(b.chars) < len(text) {
		b.chars = make([]byte, 0, arenaChunk)
	}
	start := len(b.chars)
	b.chars = append(b.chars, text...)
	return unsafe.String(&b.chars[start], len(text))
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
