package convert

import (
	"strings"

	"github.com/s2r-project/s2r/internal/xmlstream"
)

// capture appends the XML of the element tok just started, and its
// subtree, to frag as a self-contained fragment: every namespace it uses is
// declared inside it. It reads through the element's end tag.
func (x *x2j) capture(frag []byte, tok xmlstream.Token) ([]byte, error) {
	out, err := AppendSubtree(frag, x.r, tok)
	if err != nil {
		return frag, x.readErr(err)
	}
	return out, nil
}

// AppendSubtree appends the XML of the element start (just returned by r)
// and its subtree to dst as a self-contained fragment: every namespace the
// fragment uses is declared inside it. It reads through the element's end
// tag.
func AppendSubtree(dst []byte, r *xmlstream.Reader, start xmlstream.Token) ([]byte, error) {
	c := fragWriter{w: xmlstream.NewWriter(dst), r: r}
	c.start(start)
	for depth := 1; depth > 0; {
		t, err := r.Next()
		if err != nil {
			return dst, err
		}
		switch t.Kind {
		case xmlstream.StartElement:
			depth++
			c.start(t)
		case xmlstream.EndElement:
			depth--
			c.end(t)
		case xmlstream.CharData:
			c.w.TextBytes(t.Data)
		}
	}
	return c.w.Bytes(), nil
}

// fragWriter re-serializes a subtree, declaring namespaces where the
// fragment first needs them.
type fragWriter struct {
	w     *xmlstream.Writer
	r     *xmlstream.Reader
	scope []Namespace
	marks []int
}

func (c *fragWriter) start(t xmlstream.Token) {
	c.w.Start(t.Prefix, t.Name.Local)
	c.marks = append(c.marks, len(c.scope))
	c.ensure(t.Prefix, t.Name.Space)
	for _, a := range t.Attrs {
		if a.Name.Space == xmlstream.NSXMLNS || (a.Name.Space == "" && a.Name.Local == "xmlns") {
			continue
		}
		if a.Prefix != "" {
			c.ensure(a.Prefix, a.Name.Space)
		}
		if a.Name.Space == NSXSI && a.Name.Local == "type" {
			if pre, _, ok := strings.Cut(a.Value, ":"); ok {
				if uri, ok := c.r.LookupPrefix(pre); ok {
					c.ensure(pre, uri)
				}
			}
		}
		c.w.Attr(a.Prefix, a.Name.Local, a.Value)
	}
}

func (c *fragWriter) end(t xmlstream.Token) {
	c.w.End(t.Prefix, t.Name.Local)
	c.scope = c.scope[:c.marks[len(c.marks)-1]]
	c.marks = c.marks[:len(c.marks)-1]
}

// ensure declares prefix → uri unless the fragment already binds it so.
func (c *fragWriter) ensure(prefix, uri string) {
	if prefix == "xml" {
		return
	}
	for i := len(c.scope) - 1; i >= 0; i-- {
		if c.scope[i].Prefix == prefix {
			if c.scope[i].URI == uri {
				return
			}
			break
		}
		if i == 0 && prefix == "" && uri == "" {
			return
		}
	}
	if len(c.scope) == 0 && prefix == "" && uri == "" {
		return
	}
	c.w.NSDecl(prefix, uri)
	c.scope = append(c.scope, Namespace{Prefix: prefix, URI: uri})
}
