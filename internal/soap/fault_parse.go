package soap

import (
	"strings"

	"github.com/s2r-project/s2r/internal/convert"
	"github.com/s2r-project/s2r/internal/xmlstream"
)

// fault reads a Fault element of the message's version (its start tag was
// just returned) through its end tag.
func (p *parser) fault() (*Fault, error) {
	f := &Fault{}
	v := p.m.Version
	for {
		tok, err := p.next()
		if err != nil {
			return nil, err
		}
		if tok.Kind == xmlstream.EndElement {
			return f, nil
		}
		if v == V12 {
			err = p.fault12Child(f, tok)
		} else {
			err = p.fault11Child(f, tok)
		}
		if err != nil {
			return nil, err
		}
	}
}

func (p *parser) fault11Child(f *Fault, tok xmlstream.Token) error {
	if tok.Name.Space != "" && tok.Name.Space != NS11 {
		return p.r.Skip()
	}
	var err error
	switch tok.Name.Local {
	case "faultcode":
		f.Code, f.Subcodes, err = p.code11()
	case "faultstring":
		f.Lang = xmlLang(tok)
		f.Reason, err = p.text()
	case "faultactor":
		f.Role, err = p.text()
		f.Role = trimSpace(f.Role)
	case "detail":
		f.Detail, err = p.detail()
	default:
		err = p.r.Skip()
	}
	return err
}

// code11 reads a faultcode, splitting the dotted form "Client.Auth" of the
// envelope namespace codes into code and subcodes.
func (p *parser) code11() (xmlstream.Name, []xmlstream.Name, error) {
	name, err := p.qnameText()
	if err != nil {
		return name, nil, err
	}
	if name.Space != NS11 || !strings.Contains(name.Local, ".") {
		return name, nil, nil
	}
	parts := strings.Split(name.Local, ".")
	subs := make([]xmlstream.Name, 0, len(parts)-1)
	for _, s := range parts[1:] {
		subs = append(subs, xmlstream.Name{Space: NS11, Local: s})
	}
	return xmlstream.Name{Space: NS11, Local: parts[0]}, subs, nil
}

// qnameText reads QName text content and resolves it in the scope of its
// element (declarations on the element itself included).
func (p *parser) qnameText() (xmlstream.Name, error) {
	var b []byte
	var name xmlstream.Name
	var rerr error
	for {
		tok, err := p.r.Next()
		if err != nil {
			return name, p.fail("unexpected end of envelope", err)
		}
		switch tok.Kind {
		case xmlstream.CharData:
			b = append(b, tok.Data...)
			name, rerr = p.r.ResolveQName(trimSpace(string(b)))
		case xmlstream.EndElement:
			if rerr != nil {
				return name, p.fail("fault code", rerr)
			}
			return name, nil
		case xmlstream.StartElement:
			return name, p.fail("unexpected element "+tok.Name.Local+" in fault code", nil)
		}
	}
}

func xmlLang(tok xmlstream.Token) string {
	for _, a := range tok.Attrs {
		if a.Name.Space == xmlstream.NSXML && a.Name.Local == "lang" {
			return a.Value
		}
	}
	return ""
}

// detail reads the children of a detail element as self-contained XML.
func (p *parser) detail() ([]byte, error) {
	var out []byte
	for {
		tok, err := p.r.Next()
		if err != nil {
			return nil, p.fail("unexpected end of envelope", err)
		}
		switch tok.Kind {
		case xmlstream.EndElement:
			return out, nil
		case xmlstream.CharData:
			if !blank(tok.Data) {
				w := xmlstream.NewWriter(out)
				w.TextBytes(tok.Data)
				out = w.Bytes()
			}
		case xmlstream.StartElement:
			if out, err = convert.AppendSubtree(out, p.r, tok); err != nil {
				return nil, p.fail("fault detail", err)
			}
		}
	}
}

func (p *parser) fault12Child(f *Fault, tok xmlstream.Token) error {
	if tok.Name.Space != NS12 {
		return p.r.Skip()
	}
	var err error
	switch tok.Name.Local {
	case "Code":
		err = p.code12(f, true)
	case "Reason":
		err = p.reason12(f)
	case "Node":
		f.Node, err = p.text()
		f.Node = trimSpace(f.Node)
	case "Role":
		f.Role, err = p.text()
		f.Role = trimSpace(f.Role)
	case "Detail":
		f.Detail, err = p.detail()
	default:
		err = p.r.Skip()
	}
	return err
}

// code12 reads Code (top) or Subcode: a Value and an optional Subcode.
func (p *parser) code12(f *Fault, top bool) error {
	for {
		tok, err := p.next()
		if err != nil {
			return err
		}
		if tok.Kind == xmlstream.EndElement {
			return nil
		}
		switch {
		case tok.Name == xmlstream.Name{Space: NS12, Local: "Value"}:
			name, err := p.qnameText()
			if err != nil {
				return err
			}
			if top {
				f.Code = name
			} else {
				f.Subcodes = append(f.Subcodes, name)
			}
		case tok.Name == xmlstream.Name{Space: NS12, Local: "Subcode"}:
			if err := p.code12(f, false); err != nil {
				return err
			}
		default:
			if err := p.r.Skip(); err != nil {
				return p.fail("fault code", err)
			}
		}
	}
}

// reason12 keeps the first Text of Reason.
func (p *parser) reason12(f *Fault) error {
	seen := false
	for {
		tok, err := p.next()
		if err != nil {
			return err
		}
		if tok.Kind == xmlstream.EndElement {
			return nil
		}
		if tok.Name == (xmlstream.Name{Space: NS12, Local: "Text"}) && !seen {
			seen = true
			f.Lang = xmlLang(tok)
			if f.Reason, err = p.text(); err != nil {
				return err
			}
			continue
		}
		if err := p.r.Skip(); err != nil {
			return p.fail("fault reason", err)
		}
	}
}
