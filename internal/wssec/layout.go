package wssec

import (
	"errors"
	"fmt"

	"github.com/s2r-project/s2r/internal/soap"
	"github.com/s2r-project/s2r/internal/xmlstream"
)

// layout is where Sign splices into an envelope, found by one pass of
// xmlstream.Reader: byte offsets into the original document.
type layout struct {
	version   soap.Version
	envPrefix string // prefix of the Envelope element ("" for a default namespace)
	envTagEnd int    // just after the Envelope start tag
	// Header: hdrStart is the '<' of its start tag, hdrTagEnd just after
	// it; hdrStart is -1 without a Header. hdrEmpty marks <Header/>.
	hdrStart, hdrTagEnd int
	hdrEmpty            bool
	hdrPrefix           string
	bodyAttrAt          int    // where attributes can be added to the Body start tag
	bodyID              string // the Body's wsu:Id, when it has one
	bodyWSU             string // the namespace the Body binds to prefix wsu itself, if any
}

// errNotEnvelope reports a document that is not a SOAP 1.1 or 1.2 envelope.
var errNotEnvelope = errors.New("wssec: not a SOAP 1.1 or 1.2 envelope")

// scanLayout reads the envelope's structure up to the Body start tag.
func scanLayout(doc []byte, lim xmlstream.Limits) (*layout, error) {
	r := xmlstream.NewReader(doc, lim)
	l := &layout{hdrStart: -1}
	var tok xmlstream.Token
	if err := r.ReadToken(&tok); err != nil {
		return nil, err
	}
	for tok.Kind != xmlstream.StartElement {
		if err := r.ReadToken(&tok); err != nil {
			return nil, err
		}
	}
	switch tok.Name {
	case xmlstream.Name{Space: soap.NS11, Local: "Envelope"}:
		l.version = soap.V11
	case xmlstream.Name{Space: soap.NS12, Local: "Envelope"}:
		l.version = soap.V12
	default:
		return nil, errNotEnvelope
	}
	l.envPrefix, l.envTagEnd = tok.Prefix, r.Offset()
	ns := tok.Name.Space
	for {
		pre := r.Offset()
		if err := r.ReadToken(&tok); err != nil {
			return nil, err
		}
		switch {
		case tok.Kind == xmlstream.EndElement:
			return nil, fmt.Errorf("wssec: the envelope has no Body")
		case tok.Kind != xmlstream.StartElement:
			continue
		case tok.Name == xmlstream.Name{Space: ns, Local: "Header"} && l.hdrStart < 0:
			l.hdrStart, l.hdrTagEnd, l.hdrPrefix = pre, r.Offset(), tok.Prefix
			l.hdrEmpty = doc[r.Offset()-2] == '/'
			if err := skipHeader(r); err != nil {
				return nil, err
			}
		case tok.Name == xmlstream.Name{Space: ns, Local: "Body"}:
			l.bodyAttrAt = r.Offset() - 1
			if doc[l.bodyAttrAt-1] == '/' {
				l.bodyAttrAt--
			}
			l.readBodyAttrs(tok.Attrs)
			return l, nil
		default:
			return nil, fmt.Errorf("wssec: unexpected <%s> in the envelope", tok.Name.Local)
		}
	}
}

func (l *layout) readBodyAttrs(attrs []xmlstream.Attr) {
	for _, a := range attrs {
		switch {
		case a.Name == xmlstream.Name{Space: NSWSU, Local: "Id"}:
			l.bodyID = a.Value
		case a.Name.Space == xmlstream.NSXMLNS && a.Prefix == "xmlns" && a.Name.Local == "wsu":
			l.bodyWSU = a.Value
		}
	}
}

// errHasSecurity reports an envelope that already carries a Security
// header: a second one would make receivers refuse the message.
var errHasSecurity = errors.New("wssec: the envelope already has a wsse:Security header")

// skipHeader consumes the Header just started, refusing a wsse:Security
// block in it.
func skipHeader(r *xmlstream.Reader) error {
	depth := r.Depth()
	var tok xmlstream.Token
	for r.Depth() >= depth {
		if err := r.ReadToken(&tok); err != nil {
			return err
		}
		if tok.Kind != xmlstream.StartElement {
			continue
		}
		if tok.Name == (xmlstream.Name{Space: NSWSSE, Local: "Security"}) {
			return errHasSecurity
		}
		if err := r.Skip(); err != nil {
			return err
		}
	}
	return nil
}
