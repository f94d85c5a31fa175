package wssec

import (
	"bytes"
	"errors"
	"slices"
	"strings"

	"github.com/s2r-project/s2r/internal/xmlstream"
)

// canonicalizer writes Exclusive XML Canonicalization 1.0 (without
// comments) of one element subtree read from an xmlstream.Reader. rendered
// holds the namespace declarations written by output ancestors, marks the
// start of each element's share of it.
type canonicalizer struct {
	r         *xmlstream.Reader
	inclusive []string // InclusiveNamespaces PrefixList; "" is #default
	rendered  []nsDecl
	marks     []int
	attrs     []xmlstream.Attr
	decls     []nsDecl
}

type nsDecl struct{ prefix, uri string }

// errNotStart is returned when the token handed to AppendCanonical is not a
// start element.
var errNotStart = errors.New("wssec: canonicalization must start at an element")

// AppendCanonical appends the exclusive canonical form (without comments)
// of the element whose start tag r just returned as start, and consumes
// the element from r up to its end tag. inclusive is the InclusiveNamespaces
// PrefixList, with "#default" for the default namespace. Namespace
// declarations come from r's scope, so the element's ancestors in the
// document count as they must.
func AppendCanonical(dst []byte, r *xmlstream.Reader, start xmlstream.Token, inclusive []string) ([]byte, error) {
	if start.Kind != xmlstream.StartElement {
		return dst, errNotStart
	}
	c := &canonicalizer{r: r, inclusive: normalizePrefixList(inclusive)}
	dst = c.startTag(dst, start)
	depth := 1
	var tok xmlstream.Token
	for depth > 0 {
		if err := r.ReadToken(&tok); err != nil {
			return dst, err
		}
		switch tok.Kind {
		case xmlstream.StartElement:
			dst = c.startTag(dst, tok)
			depth++
		case xmlstream.EndElement:
			dst = c.endTag(dst, tok)
			depth--
		case xmlstream.CharData:
			dst = appendC14NText(dst, tok.Data)
		case xmlstream.ProcInst:
			dst = appendProcInst(dst, tok.Data)
		}
	}
	return dst, nil
}

func normalizePrefixList(list []string) []string {
	out := make([]string, 0, len(list))
	for _, p := range list {
		if p == "#default" {
			p = ""
		}
		out = append(out, p)
	}
	return out
}

// startTag writes a start tag with the namespace declarations exclusive
// canonicalization renders and the sorted attributes.
func (c *canonicalizer) startTag(dst []byte, tok xmlstream.Token) []byte {
	c.marks = append(c.marks, len(c.rendered))
	c.decls = c.decls[:0]
	c.attrs = c.attrs[:0]
	c.need(tok.Prefix)
	for _, a := range tok.Attrs {
		if a.Name.Space == xmlstream.NSXMLNS {
			continue
		}
		if a.Prefix != "" {
			c.need(a.Prefix)
		}
		c.attrs = append(c.attrs, a)
	}
	for _, p := range c.inclusive {
		c.need(p)
	}
	slices.SortFunc(c.decls, func(a, b nsDecl) int { return strings.Compare(a.prefix, b.prefix) })
	slices.SortFunc(c.attrs, compareAttrs)
	dst = append(dst, '<')
	dst = appendQName(dst, tok.Prefix, tok.Name.Local)
	for _, d := range c.decls {
		dst = append(dst, " xmlns"...)
		if d.prefix != "" {
			dst = append(dst, ':')
			dst = append(dst, d.prefix...)
		}
		dst = append(dst, '=', '"')
		dst = appendC14NAttr(dst, d.uri)
		dst = append(dst, '"')
		c.rendered = append(c.rendered, d)
	}
	for _, a := range c.attrs {
		dst = append(dst, ' ')
		dst = appendQName(dst, a.Prefix, a.Name.Local)
		dst = append(dst, '=', '"')
		dst = appendC14NAttr(dst, a.Value)
		dst = append(dst, '"')
	}
	return append(dst, '>')
}

// need adds the declaration of prefix to this element's output unless an
// output ancestor already rendered the same binding (or it is xml, or an
// unused empty default).
func (c *canonicalizer) need(prefix string) {
	if prefix == "xml" {
		return
	}
	for _, d := range c.decls {
		if d.prefix == prefix {
			return
		}
	}
	uri, ok := c.r.LookupPrefix(prefix)
	if !ok && prefix != "" {
		return // an inclusive prefix not in scope
	}
	if r, found := c.renderedURI(prefix); found && r == uri || !found && prefix == "" && uri == "" {
		return
	}
	c.decls = append(c.decls, nsDecl{prefix, uri})
}

func (c *canonicalizer) renderedURI(prefix string) (string, bool) {
	for i := len(c.rendered) - 1; i >= 0; i-- {
		if c.rendered[i].prefix == prefix {
			return c.rendered[i].uri, true
		}
	}
	return "", false
}

func (c *canonicalizer) endTag(dst []byte, tok xmlstream.Token) []byte {
	c.rendered = c.rendered[:c.marks[len(c.marks)-1]]
	c.marks = c.marks[:len(c.marks)-1]
	dst = append(dst, '<', '/')
	dst = appendQName(dst, tok.Prefix, tok.Name.Local)
	return append(dst, '>')
}

// compareAttrs orders attributes by namespace URI, then local name; those
// without a namespace come first.
func compareAttrs(a, b xmlstream.Attr) int {
	if n := strings.Compare(a.Name.Space, b.Name.Space); n != 0 {
		return n
	}
	return strings.Compare(a.Name.Local, b.Name.Local)
}

func appendQName(dst []byte, prefix, local string) []byte {
	if prefix != "" {
		dst = append(dst, prefix...)
		dst = append(dst, ':')
	}
	return append(dst, local...)
}

// appendC14NText escapes character data as canonical XML requires.
func appendC14NText(dst, s []byte) []byte {
	for _, ch := range s {
		switch ch {
		case '&':
			dst = append(dst, "&amp;"...)
		case '<':
			dst = append(dst, "&lt;"...)
		case '>':
			dst = append(dst, "&gt;"...)
		case '\r':
			dst = append(dst, "&#xD;"...)
		default:
			dst = append(dst, ch)
		}
	}
	return dst
}

// appendC14NAttr escapes an attribute value as canonical XML requires.
func appendC14NAttr(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; ch {
		case '&':
			dst = append(dst, "&amp;"...)
		case '<':
			dst = append(dst, "&lt;"...)
		case '"':
			dst = append(dst, "&quot;"...)
		case '\t':
			dst = append(dst, "&#x9;"...)
		case '\n':
			dst = append(dst, "&#xA;"...)
		case '\r':
			dst = append(dst, "&#xD;"...)
		default:
			dst = append(dst, ch)
		}
	}
	return dst
}

// appendProcInst writes a processing instruction: its target, then one
// space and its data when there is any.
func appendProcInst(dst, data []byte) []byte {
	target, rest := data, []byte(nil)
	if i := bytes.IndexAny(data, " \t\n\r"); i >= 0 {
		target, rest = data[:i], bytes.TrimLeft(data[i:], " \t\n\r")
	}
	dst = append(dst, "<?"...)
	dst = append(dst, target...)
	if len(rest) > 0 {
		dst = append(dst, ' ')
		dst = append(dst, rest...)
	}
	return append(dst, "?>"...)
}
