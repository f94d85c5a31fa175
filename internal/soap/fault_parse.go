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

// fault11Child reads one child of a SOAP 1.1 Fault. The children are
// unqualified (SOAP 1.1 section 4.4); they are matched by local name in
// any namespace, since stacks that put a default namespace on the Fault
// qualify them by accident.
func (p *parser) fault11Child(f *Fault, tok xmlstream.Token) error {
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
// envelope codes into code and subcodes (see envelopeCode).
func (p *parser) code11() (xmlstream.Name, []xmlstream.Name, error) {
	name, err := p.qnameText()
	if err != nil {
		return name, nil, err
	}
	name = envelopeCode(name)
	head, _, dotted := strings.Cut(name.Local, ".")
	switch {
	case !dotted:
		return name, nil, nil
	case name.Space == NS11:
	case (name.Space == "" || name.Space == NS12) && codeClass(xmlstream.Name{Local: head}) != "":
	default:
		return name, nil, nil // a custom code keeps its dots
	}
	parts := strings.Split(name.Local, ".")
	subs := make([]xmlstream.Name, 0, len(parts)-1)
	for _, s := range parts[1:] {
		subs = append(subs, xmlstream.Name{Space: name.Space, Local: s})
	}
	return xmlstream.Name{Space: name.Space, Local: parts[0]}, subs, nil
}

// envelopeCode returns a fault code whose local name begins with a SOAP
// code ("Client", "Server.Busy", "Sender", …) as that code, with no
// namespace (which Class reads like the envelope's), whatever namespace it
// resolved to: PHP's ext/soap qualifies it with the service's namespace
// (ns1:Client.CardDeclined), and an unprefixed one takes whatever default
// namespace is in scope, though their writers meant the envelope's code.
// Any other code is returned as it is.
func envelopeCode(name xmlstream.Name) xmlstream.Name {
	if name.Space == NS11 || name.Space == NS12 || name.Space == "" {
		return name
	}
	head, _, _ := strings.Cut(name.Local, ".")
	if codeClass(xmlstream.Name{Local: head}) == "" {
		return name
	}
	return xmlstream.Name{Local: name.Local}
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
				f.Code = envelopeCode(name)
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
