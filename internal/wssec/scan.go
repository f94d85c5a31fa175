package wssec

import (
	"errors"
	"io"

	"github.com/s2r-project/s2r/internal/soap"
	"github.com/s2r-project/s2r/internal/xmlstream"
)

// Size caps of what an inbound header may hold.
const (
	maxTokenText   = 64 << 10 // a BinarySecurityToken's base64 text
	maxShortText   = 4 << 10  // usernames, passwords, nonces, times, digests
	maxSigValue    = 4 << 10  // a SignatureValue's base64 text
	maxReferences  = 16
	maxSignedInfo  = 64 << 10
	maxSecurityIDs = 1 << 16 // distinct Id values in one envelope
)

// Namespaces of the SAML assertions refused as unsupported.
const (
	nsSAML1 = "urn:oasis:names:tc:SAML:1.0:assertion"
	nsSAML2 = "urn:oasis:names:tc:SAML:2.0:assertion"
)

// message is what one pass over an inbound envelope finds.
type message struct {
	version soap.Version
	ids     map[string]int // every Id value → how many elements carry it
	bodyIDs []string       // Id values of the Body element of the Envelope
	sec     *security      // the Security header for this node, if any
}

// scanner reads an envelope once, recording every Id value (a duplicate is
// refused) and the ordinal of every start element.
type scanner struct {
	r       *xmlstream.Reader
	tok     xmlstream.Token
	m       *message
	ordinal int      // of the last start element
	idStack []string // first Id of each open element ("" for none)
}

// next reads the next token into s.tok.
func (s *scanner) next() error {
	if err := s.r.ReadToken(&s.tok); err != nil {
		if err == io.EOF {
			return invalid("the envelope ends early")
		}
		return invalid("the envelope is not well-formed XML: %v", err)
	}
	switch s.tok.Kind {
	case xmlstream.StartElement:
		return s.start()
	case xmlstream.EndElement:
		s.idStack = s.idStack[:len(s.idStack)-1]
	}
	return nil
}

// start records a start element's Id values and refuses encrypted content.
// A wsu:Id value used twice is refused at once; other Id attributes (Id,
// ID, xml:id) are common in business payloads, so their duplicates are
// refused only when a signature references them.
func (s *scanner) start() error {
	s.ordinal++
	first := ""
	for _, a := range s.tok.Attrs {
		if !idAttr(a) {
			continue
		}
		n, seen := s.m.ids[a.Value]
		if seen && a.Name.Space == NSWSU {
			return invalid("the wsu:Id %q appears more than once in the envelope", truncateString(a.Value, 100))
		}
		if !seen && len(s.m.ids) >= maxSecurityIDs {
			return invalid("too many Id attributes")
		}
		s.m.ids[a.Value] = n + 1
		if first == "" {
			first = a.Value
		}
	}
	s.idStack = append(s.idStack, first)
	switch s.tok.Name.Space {
	case NSXEnc:
		return invalid("XML encryption (%s) is not supported", s.tok.Name.Local)
	case nsSAML1, nsSAML2:
		return invalid("SAML tokens are not supported")
	}
	return nil
}

// skip consumes the element whose start tag was just read.
func (s *scanner) skip() error {
	depth := s.r.Depth()
	for s.r.Depth() >= depth {
		if err := s.next(); err != nil {
			return err
		}
	}
	return nil
}

// children calls fn for each child element of the element just started;
// fn must consume the child. Text between children is ignored.
func (s *scanner) children(fn func() error) error {
	depth := s.r.Depth()
	for {
		if err := s.next(); err != nil {
			return err
		}
		switch {
		case s.tok.Kind == xmlstream.EndElement && s.r.Depth() < depth:
			return nil
		case s.tok.Kind == xmlstream.StartElement:
			if err := fn(); err != nil {
				return err
			}
		}
	}
}

// text reads the text content of the element just started, up to max
// bytes; a child element is refused.
func (s *scanner) text(what string, max int) (string, error) {
	var b []byte
	for {
		if err := s.next(); err != nil {
			return "", err
		}
		switch s.tok.Kind {
		case xmlstream.CharData:
			if len(b)+len(s.tok.Data) > max {
				return "", invalid("%s is longer than %d bytes", what, max)
			}
			b = append(b, s.tok.Data...)
		case xmlstream.StartElement:
			return "", invalid("%s holds an element", what)
		case xmlstream.EndElement:
			return string(b), nil
		}
	}
}

// scanMessage reads the envelope: its Header blocks, the Security header
// addressed to this node, and the Body.
func scanMessage(doc []byte, lim xmlstream.Limits) (*message, error) {
	s := &scanner{r: xmlstream.NewReader(doc, lim), m: &message{ids: map[string]int{}}}
	for s.tok.Kind != xmlstream.StartElement {
		if err := s.next(); err != nil {
			return nil, err
		}
	}
	switch s.tok.Name {
	case xmlstream.Name{Space: soap.NS11, Local: "Envelope"}:
		s.m.version = soap.V11
	case xmlstream.Name{Space: soap.NS12, Local: "Envelope"}:
		s.m.version = soap.V12
	default:
		return nil, invalid("not a SOAP 1.1 or 1.2 envelope")
	}
	ns := s.tok.Name.Space
	if err := s.children(func() error { return s.envelopeChild(ns) }); err != nil {
		return nil, err
	}
	if s.m.bodyIDs == nil {
		return nil, invalid("the envelope has no Body")
	}
	for {
		if err := s.r.ReadToken(&s.tok); err != nil {
			if errors.Is(err, io.EOF) {
				return s.m, nil
			}
			return nil, invalid("the envelope is not well-formed XML: %v", err)
		}
	}
}

func (s *scanner) envelopeChild(ns string) error {
	switch s.tok.Name {
	case xmlstream.Name{Space: ns, Local: "Header"}:
		return s.children(func() error { return s.headerBlock(ns) })
	case xmlstream.Name{Space: ns, Local: "Body"}:
		if s.m.bodyIDs != nil {
			return invalid("the envelope has more than one Body")
		}
		s.m.bodyIDs = append([]string{}, idValues(s.tok.Attrs)...)
	}
	return s.skip()
}

func (s *scanner) headerBlock(ns string) error {
	if s.tok.Name != (xmlstream.Name{Space: NSWSSE, Local: "Security"}) || !forUs(s.tok.Attrs, ns) {
		return s.skip()
	}
	if s.m.sec != nil {
		return invalid("more than one wsse:Security header is addressed to this node")
	}
	s.m.sec = &security{bsts: map[string]*binaryToken{}}
	return s.children(s.securityChild)
}

// forUs reports whether a header block's actor (SOAP 1.1) or role (1.2)
// addresses the ultimate receiver.
func forUs(attrs []xmlstream.Attr, ns string) bool {
	for _, a := range attrs {
		if a.Name.Space != ns || a.Name.Local != "actor" && a.Name.Local != "role" {
			continue
		}
		switch a.Value {
		case "", "http://schemas.xmlsoap.org/soap/actor/next",
			"http://www.w3.org/2003/05/soap-envelope/role/next",
			"http://www.w3.org/2003/05/soap-envelope/role/ultimateReceiver":
			return true
		}
		return false
	}
	return true
}
