package soap

import (
	"errors"
	"fmt"
	"io"

	"github.com/s2r-project/s2r/internal/xmlstream"
)

// Message is a parsed envelope. Offsets point into the data it was parsed
// from; header blocks and the body content are not self-contained (the
// namespaces they use may be declared on the Envelope).
type Message struct {
	Version    Version
	Headers    []HeaderBlock
	Addressing Addressing
	// BodyStart and BodyEnd delimit the content of the Body element.
	BodyStart, BodyEnd int
	// First is the name of the first element in the Body (zero when the
	// Body is empty) and FirstStart, FirstEnd its byte range.
	First                xmlstream.Name
	FirstStart, FirstEnd int
	// Fault is set when the first Body element is a Fault of the version.
	Fault *Fault

	data []byte
	lim  xmlstream.Limits
}

// HeaderBlock is one child of the Header element.
type HeaderBlock struct {
	Name           xmlstream.Name
	Start, End     int // byte range in the parsed data
	MustUnderstand bool
	Role           string // role (1.2) or actor (1.1)
}

// ParseError reports an envelope that is malformed XML or not a SOAP
// envelope.
type ParseError struct {
	Line int
	Msg  string
	Err  error
}

// Error renders the reason with its line when known.
func (e *ParseError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("soap: line %d: %s", e.Line, e.Msg)
	}
	return "soap: " + e.Msg
}

// Unwrap returns the underlying error.
func (e *ParseError) Unwrap() error { return e.Err }

// Body returns the content of the Body element.
func (m *Message) Body() []byte { return m.data[m.BodyStart:m.BodyEnd] }

// Raw returns the bytes of a header block.
func (m *Message) Raw(h HeaderBlock) []byte { return m.data[h.Start:h.End] }

// parser is the state of one Parse.
type parser struct {
	r        *xmlstream.Reader
	m        *Message
	pre      int  // offset before the last token
	headOnly bool // stop just inside the Body (ParseHead)
}

// Parse parses a SOAP 1.1 or 1.2 envelope without building a tree.
func Parse(data []byte, lim xmlstream.Limits) (*Message, error) {
	p := &parser{r: xmlstream.NewReader(data, lim), m: &Message{data: data, lim: lim}}
	if err := p.envelope(); err != nil {
		return nil, err
	}
	return p.m, nil
}

func (p *parser) fail(msg string, err error) error {
	var se *xmlstream.SyntaxError
	if errors.As(err, &se) {
		return &ParseError{Line: se.Line, Msg: "malformed XML: " + se.Msg, Err: err}
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return &ParseError{Line: p.r.Line(), Msg: msg + ": " + err.Error(), Err: err}
	}
	return &ParseError{Line: p.r.Line(), Msg: msg, Err: err}
}

// next returns the next start or end tag; text other than white space is
// an error.
func (p *parser) next() (xmlstream.Token, error) {
	for {
		p.pre = p.r.Offset()
		tok, err := p.r.Next()
		if err != nil {
			return tok, p.fail("unexpected end of envelope", err)
		}
		switch tok.Kind {
		case xmlstream.StartElement, xmlstream.EndElement:
			return tok, nil
		case xmlstream.CharData:
			if !blank(tok.Data) {
				return tok, p.fail("unexpected text in envelope", nil)
			}
		}
	}
}

func blank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return false
		}
	}
	return true
}

func (p *parser) envelope() error {
	tok, err := p.next()
	if err != nil {
		return err
	}
	if tok.Kind != xmlstream.StartElement || tok.Name.Local != "Envelope" {
		return p.fail("root element is not a SOAP Envelope", nil)
	}
	v, ok := VersionFromNamespace(tok.Name.Space)
	if !ok {
		return p.fail("Envelope namespace "+quoteNS(tok.Name.Space)+" is neither SOAP 1.1 nor 1.2", ErrUnknownVersion)
	}
	p.m.Version = v
	ns := v.Namespace()
	seenBody := false
	for {
		tok, err := p.next()
		if err != nil {
			return err
		}
		if tok.Kind == xmlstream.EndElement {
			break
		}
		switch {
		case tok.Name == xmlstream.Name{Space: ns, Local: "Header"} && !seenBody && p.m.Headers == nil:
			if err := p.header(); err != nil {
				return err
			}
		case tok.Name == xmlstream.Name{Space: ns, Local: "Body"} && !seenBody:
			seenBody = true
			if p.headOnly {
				p.m.BodyStart = p.r.Offset()
				return nil
			}
			if err := p.body(); err != nil {
				return err
			}
		default:
			return p.fail("unexpected element "+tok.Name.Local+" in Envelope", nil)
		}
	}
	if !seenBody {
		return p.fail("Envelope has no Body", nil)
	}
	if _, err := p.r.Next(); !errors.Is(err, io.EOF) {
		return p.fail("content after the Envelope", err)
	}
	return nil
}

func quoteNS(s string) string { return `"` + s + `"` }

func (p *parser) header() error {
	p.m.Headers = []HeaderBlock{}
	ns := p.m.Version.Namespace()
	for {
		tok, err := p.next()
		if err != nil {
			return err
		}
		if tok.Kind == xmlstream.EndElement {
			return nil
		}
		h := HeaderBlock{Name: tok.Name, Start: p.pre}
		for _, a := range tok.Attrs {
			if a.Name.Space != ns {
				continue
			}
			switch a.Name.Local {
			case "mustUnderstand":
				h.MustUnderstand = a.Value == "1" || a.Value == "true"
			case "actor", "role":
				h.Role = a.Value
			}
		}
		if IsAddressing(tok.Name.Space) {
			err = p.addressing(tok.Name)
		} else {
			err = p.r.Skip()
		}
		if err != nil {
			return p.fail("header "+tok.Name.Local, err)
		}
		h.End = p.r.Offset()
		p.m.Headers = append(p.m.Headers, h)
	}
}

func (p *parser) body() error {
	p.m.BodyStart = p.r.Offset()
	first := true
	for {
		tok, err := p.next()
		if err != nil {
			return err
		}
		if tok.Kind == xmlstream.EndElement {
			p.m.BodyEnd = p.pre
			return nil
		}
		if !first {
			if err := p.r.Skip(); err != nil {
				return p.fail("body", err)
			}
			continue
		}
		first = false
		p.m.First, p.m.FirstStart = tok.Name, p.pre
		if tok.Name == (xmlstream.Name{Space: p.m.Version.Namespace(), Local: "Fault"}) {
			f, err := p.fault()
			if err != nil {
				return err
			}
			p.m.Fault = f
		} else if err := p.r.Skip(); err != nil {
			return p.fail("body", err)
		}
		p.m.FirstEnd = p.r.Offset()
	}
}

// text reads the text content of the element just started through its end
// tag; child elements are an error.
func (p *parser) text() (string, error) {
	var b []byte
	for {
		tok, err := p.r.Next()
		if err != nil {
			return "", p.fail("unexpected end of envelope", err)
		}
		switch tok.Kind {
		case xmlstream.CharData:
			b = append(b, tok.Data...)
		case xmlstream.EndElement:
			return string(b), nil
		case xmlstream.StartElement:
			return "", p.fail("unexpected element "+tok.Name.Local+" in text content", nil)
		}
	}
}

// addressing reads one WS-Addressing header block.
func (p *parser) addressing(name xmlstream.Name) error {
	a := &p.m.Addressing
	var dst *string
	switch name.Local {
	case "MessageID":
		dst = &a.MessageID
	case "RelatesTo":
		dst = &a.RelatesTo
	case "Action":
		dst = &a.Action
	case "To":
		dst = &a.To
	case "ReplyTo":
		return p.replyTo(name.Space)
	default:
		return p.r.Skip()
	}
	s, err := p.text()
	*dst = trimSpace(s)
	return err
}

// replyTo reads the Address of a ReplyTo in namespace ns.
func (p *parser) replyTo(ns string) error {
	for {
		tok, err := p.next()
		if err != nil {
			return err
		}
		if tok.Kind == xmlstream.EndElement {
			return nil
		}
		if tok.Name == (xmlstream.Name{Space: ns, Local: "Address"}) {
			s, err := p.text()
			if err != nil {
				return err
			}
			p.m.Addressing.ReplyTo = trimSpace(s)
			continue
		}
		if err := p.r.Skip(); err != nil {
			return err
		}
	}
}

func trimSpace(s string) string {
	i, j := 0, len(s)
	for i < j && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	for j > i && (s[j-1] == ' ' || s[j-1] == '\t' || s[j-1] == '\n' || s[j-1] == '\r') {
		j--
	}
	return s[i:j]
}

// HeaderReader returns a reader positioned just after the Header start
// tag, for converting header blocks; nil when the envelope has no Header.
func (m *Message) HeaderReader() (*xmlstream.Reader, error) {
	if m.Headers == nil {
		return nil, nil
	}
	r := xmlstream.NewReader(m.data, m.lim)
	for {
		tok, err := r.Next()
		if err != nil {
			return nil, err
		}
		if tok.Kind == xmlstream.StartElement && r.Depth() == 2 {
			return r, nil
		}
	}
}

// BodyReader returns a reader over the message positioned just after the
// Body start tag, with the envelope's namespace scope in force, for
// streaming conversion of the body content.
func (m *Message) BodyReader() (*xmlstream.Reader, error) {
	r := xmlstream.NewReader(m.data, m.lim)
	for r.Offset() < m.BodyStart {
		tok, err := r.Next()
		if err != nil {
			return nil, err
		}
		if tok.Kind == xmlstream.StartElement && r.Depth() == 2 && tok.Name.Local == "Header" {
			if err := r.Skip(); err != nil {
				return nil, err
			}
		}
	}
	return r, nil
}
