package soap

import (
	"bytes"
	"errors"
	"io"

	"github.com/s2r-project/s2r/internal/xmlstream"
)

// ParseHead reads an envelope through the Body start tag, for converting
// the body while tokenizing it once: Version, Headers, Addressing and
// BodyStart are set (BodyEnd, First and Fault are not), and r is positioned
// just inside the Body. Check FaultAhead before choosing how to read the
// body, and call FinishBody after reading it.
func ParseHead(data []byte, lim xmlstream.Limits) (*Message, *xmlstream.Reader, error) {
	r := xmlstream.NewReader(data, lim)
	m, err := ParseHeadWith(r, data, lim)
	if err != nil {
		return nil, nil, err
	}
	return m, r, nil
}

// ParseHeadWith is ParseHead reading with r (reset to data), so that a
// caller can reuse pooled readers and their buffers.
func ParseHeadWith(r *xmlstream.Reader, data []byte, lim xmlstream.Limits) (*Message, error) {
	r.Reset(data, lim)
	p := parser{r: r, m: &Message{data: data, lim: lim}, headOnly: true}
	if err := p.envelope(); err != nil {
		return nil, err
	}
	return p.m, nil
}

// FaultAhead reports whether the first element of the Body is a Fault of
// the message's version, looking at the bytes after the Body start tag in
// the reader's namespace scope. It consumes nothing.
func (m *Message) FaultAhead(r *xmlstream.Reader) bool {
	rest := m.data[m.BodyStart:]
	for {
		rest = bytes.TrimLeft(rest, " \t\r\n")
		if !bytes.HasPrefix(rest, []byte("<!--")) {
			break
		}
		end := bytes.Index(rest, []byte("-->"))
		if end < 0 {
			return false
		}
		rest = rest[end+3:]
	}
	if len(rest) < 2 || rest[0] != '<' {
		return false
	}
	n := 1
	for n < len(rest) && !bytes.ContainsRune([]byte(" \t\r\n/>"), rune(rest[n])) {
		n++
	}
	name := string(rest[1:n])
	prefix, local := "", name
	if i := bytes.IndexByte(rest[1:n], ':'); i >= 0 {
		prefix, local = name[:i], name[i+1:]
	}
	if local != "Fault" {
		return false
	}
	ns, ok := r.LookupPrefix(prefix)
	if !ok && prefix == "" {
		// A default namespace declared on the Fault element itself.
		return bytes.Contains(rest[:min(len(rest), 200)], []byte(`xmlns="`+m.Version.Namespace()+`"`))
	}
	return ns == m.Version.Namespace()
}

// ReadFault reads the Fault whose start tag is next in r (FaultAhead was
// true), through the Body end tag and the end of the envelope.
func (m *Message) ReadFault(r *xmlstream.Reader) (*Fault, error) {
	p := &parser{r: r, m: m}
	tok, err := p.next()
	if err != nil {
		return nil, err
	}
	if tok.Kind != xmlstream.StartElement || tok.Name != (xmlstream.Name{Space: m.Version.Namespace(), Local: "Fault"}) {
		return nil, p.fail("the Body does not start with a Fault", nil)
	}
	m.First, m.FirstStart = tok.Name, p.pre
	f, err := p.fault()
	if err != nil {
		return nil, err
	}
	m.FirstEnd, m.Fault = p.r.Offset(), f
	for {
		tok, err := p.next()
		if err != nil {
			return nil, err
		}
		if tok.Kind == xmlstream.EndElement {
			m.BodyEnd = p.pre
			break
		}
		if err := r.Skip(); err != nil {
			return nil, p.fail("body", err)
		}
	}
	return f, FinishBody(r)
}

// FinishBody checks what follows the Body end tag (already read by the
// body's reader): the Envelope end tag and the end of the document.
func FinishBody(r *xmlstream.Reader) error {
	p := &parser{r: r}
	tok, err := p.next()
	if err != nil {
		return err
	}
	if tok.Kind != xmlstream.EndElement {
		return p.fail("unexpected element "+tok.Name.Local+" after the Body", nil)
	}
	if _, err := r.Next(); !errors.Is(err, io.EOF) {
		return p.fail("content after the Envelope", err)
	}
	return nil
}
