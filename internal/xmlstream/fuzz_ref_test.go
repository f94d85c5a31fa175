package xmlstream

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// This file holds the reference side of FuzzReaderDifferential:
// encoding/xml in strict mode with its namespace-aware Token loop, plus the
// XML 1.0 and Namespaces rules encoding/xml does not enforce, checked on
// its token stream. Those added checks are listed in refCheck; each is a
// rule of the XML or Namespaces specification, not a copy of Reader code.

// event is one normalized token: the comparable form of both readers'
// output.
type event string

// refEvents reads doc with encoding/xml and returns normalized events.
func refEvents(doc []byte) ([]event, error) {
	doc = bytes.TrimPrefix(doc, []byte("\xEF\xBB\xBF")) // encoding/xml reads a BOM as text
	dec := xml.NewDecoder(bytes.NewReader(doc))
	dec.Strict = true
	dec.CharsetReader = refCharset
	raw := xml.NewDecoder(bytes.NewReader(doc))
	raw.Strict = true
	raw.CharsetReader = refCharset
	c := refCheck{}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return c.finish()
		}
		if err != nil {
			return nil, err
		}
		rtok, err := raw.RawToken()
		if err != nil {
			return nil, fmt.Errorf("raw decoder out of step: %w", err)
		}
		if err := c.token(xml.CopyToken(tok), rtok); err != nil {
			return nil, err
		}
	}
}

func refCharset(label string, in io.Reader) (io.Reader, error) {
	switch strings.ToLower(label) {
	case "utf8", "us-ascii", "ascii":
		return in, nil
	case "iso-8859-1", "latin1", "iso_8859-1", "latin-1":
		b, err := io.ReadAll(in)
		var out []byte
		for _, c := range b {
			out = utf8.AppendRune(out, rune(c))
		}
		return bytes.NewReader(out), err
	}
	return nil, fmt.Errorf("unsupported charset %q", label)
}

// refCheck applies the rules encoding/xml leaves out.
type refCheck struct {
	out    []event
	depth  int
	roots  int
	tokens int
	scopes [][]string // prefixes declared per open element
	text   []byte
	inText bool
}

var errRefRejects = errors.New("reference: not well-formed")

// errRefQuirk marks documents where encoding/xml resolves names against
// the specification: it never applies the default namespace to an element
// named xmlns. Such documents are not compared.
var errRefQuirk = errors.New("reference: element named xmlns")

func (c *refCheck) token(tok, rawTok xml.Token) error {
	c.tokens++
	if cd, ok := tok.(xml.CharData); ok {
		if c.depth == 0 {
			if len(bytes.Trim(cd, " \t\r\n")) > 0 {
				return fmt.Errorf("%w: text outside the root element", errRefRejects)
			}
			return nil
		}
		c.text = append(c.text, cd...)
		c.inText = true
		return nil
	}
	c.flushText()
	switch t := tok.(type) {
	case xml.StartElement:
		return c.start(t, rawTok.(xml.StartElement))
	case xml.EndElement:
		c.depth--
		c.scopes = c.scopes[:len(c.scopes)-1]
		c.out = append(c.out, event("end "+refName(t.Name)))
	case xml.Comment:
		c.out = append(c.out, event(fmt.Sprintf("comment %q", normalizeEOL([]byte(t)))))
	case xml.ProcInst:
		if strings.EqualFold(t.Target, "xml") && (t.Target != "xml" || c.tokens != 1) {
			return fmt.Errorf("%w: misplaced XML declaration", errRefRejects)
		}
		c.out = append(c.out, event(fmt.Sprintf("pi %q %q", t.Target, normalizeEOL(t.Inst))))
	case xml.Directive:
		if c.depth > 0 || c.roots > 0 || !bytes.HasPrefix(t, []byte("DOCTYPE")) {
			return fmt.Errorf("%w: misplaced directive", errRefRejects)
		}
		c.out = append(c.out, "directive")
	}
	return nil
}

func (c *refCheck) start(t, raw xml.StartElement) error {
	if c.depth == 0 {
		if c.roots++; c.roots > 1 {
			return fmt.Errorf("%w: second root element", errRefRejects)
		}
	}
	c.depth++
	if raw.Name.Space == "" && raw.Name.Local == "xmlns" {
		return errRefQuirk
	}
	var declared []string
	for i, a := range raw.Attr {
		p, isDecl := a.Name.Local, a.Name.Space == "xmlns"
		if a.Name.Space == "" && a.Name.Local == "xmlns" {
			p, isDecl = "", true
		}
		if !isDecl {
			continue
		}
		if err := checkBinding(p, t.Attr[i].Value); err != nil {
			return err
		}
		declared = append(declared, p)
	}
	c.scopes = append(c.scopes, declared)
	if raw.Name.Space == "xmlns" || !c.prefixOK(raw.Name.Space) || !localOK(t.Name.Local) {
		return fmt.Errorf("%w: bad element name %v", errRefRejects, raw.Name)
	}
	attrs := make([]string, 0, len(t.Attr))
	seen := map[xml.Name]bool{}
	for i, a := range t.Attr {
		rn := raw.Attr[i].Name
		if rn.Space != "xmlns" && !c.prefixOK(rn.Space) || !localOK(a.Name.Local) {
			return fmt.Errorf("%w: bad attribute name %v", errRefRejects, rn)
		}
		n := a.Name
		switch {
		case n.Space == "xmlns":
			n.Space = NSXMLNS
		case n.Space == "" && n.Local == "xmlns":
			n.Space = NSXMLNS
		}
		if seen[n] {
			return fmt.Errorf("%w: duplicate attribute %v", errRefRejects, n)
		}
		seen[n] = true
		attrs = append(attrs, fmt.Sprintf(" %s=%q", refName(n), attrNorm(a.Value)))
	}
	c.out = append(c.out, event("start "+refName(t.Name)+strings.Join(attrs, "")))
	return nil
}

// checkBinding applies the Namespaces in XML 1.0 rules on declarations.
func checkBinding(prefix, uri string) error {
	bad := prefix == "xmlns" ||
		prefix == "xml" && uri != NSXML ||
		prefix != "xml" && uri == NSXML ||
		uri == NSXMLNS ||
		prefix != "" && uri == ""
	if bad {
		return fmt.Errorf("%w: forbidden namespace declaration of %q", errRefRejects, prefix)
	}
	return nil
}

// prefixOK reports whether a prefix is declared in scope (or needs none).
func (c *refCheck) prefixOK(prefix string) bool {
	if prefix == "" || prefix == "xml" {
		return true
	}
	for _, s := range c.scopes {
		for _, p := range s {
			if p == prefix {
				return true
			}
		}
	}
	return false
}

// localOK rejects what encoding/xml lets through as a local name: colons
// (from ":a" or "a:") and a first character that cannot start a name
// ("p:1").
func localOK(local string) bool {
	r, _ := utf8.DecodeRuneInString(local)
	return !strings.Contains(local, ":") && isNameStartRune(r)
}

func (c *refCheck) flushText() {
	if c.inText {
		c.out = append(c.out, event(fmt.Sprintf("text %q", c.text)))
		c.text, c.inText = c.text[:0], false
	}
}

func (c *refCheck) finish() ([]event, error) {
	if c.roots == 0 {
		return nil, fmt.Errorf("%w: no root element", errRefRejects)
	}
	return c.out, nil
}

// refName formats a name; its namespace is a declaration's attribute
// value, so it is compared in attrNorm's form too (Reader normalizes
// xmlns="\t" to the namespace " ", encoding/xml keeps the tab).
func refName(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return "{" + attrNorm(n.Space) + "}" + n.Local
}

// attrNorm maps tab, LF and CR to spaces: Reader applies attribute value
// normalization to literal white space (as XML requires) while keeping
// character references, and encoding/xml keeps both as they are, so only
// the normalized forms are comparable.
func attrNorm(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, s)
}

// normalizeEOL applies XML line-end normalization, which encoding/xml
// skips in comments and processing instructions.
func normalizeEOL[S string | []byte](s S) string {
	return strings.ReplaceAll(strings.ReplaceAll(string(s), "\r\n", "\n"), "\r", "\n")
}

// readerEvents reads doc with Reader and returns normalized events.
func readerEvents(doc []byte) ([]event, error) {
	r := NewReader(doc, Limits{})
	var out []event
	var text []byte
	inText := false
	for {
		tok, err := r.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if tok.Kind == CharData {
			text, inText = append(text, tok.Data...), true
			continue
		}
		if inText {
			out = append(out, event(fmt.Sprintf("text %q", text)))
			text, inText = text[:0], false
		}
		out = append(out, readerEvent(tok))
	}
}

func readerEvent(tok Token) event {
	name := func(n Name) string { return refName(xml.Name{Space: n.Space, Local: n.Local}) }
	switch tok.Kind {
	case StartElement:
		s := "start " + name(tok.Name)
		for _, a := range tok.Attrs {
			s += fmt.Sprintf(" %s=%q", name(a.Name), attrNorm(a.Value))
		}
		return event(s)
	case EndElement:
		return event("end " + name(tok.Name))
	case Comment:
		return event(fmt.Sprintf("comment %q", tok.Data))
	case ProcInst:
		i := bytes.IndexAny(tok.Data, " \t\r\n")
		if i < 0 {
			i = len(tok.Data)
		}
		inst := bytes.TrimLeft(tok.Data[i:], " \t\r\n")
		return event(fmt.Sprintf("pi %q %q", tok.Data[:i], inst))
	case Directive:
		return "directive"
	}
	return "?"
}
