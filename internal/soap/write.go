package soap

import (
	"bytes"

	"github.com/s2r-project/s2r/internal/xmlstream"
)

// NSDecl is a namespace declaration.
type NSDecl struct{ Prefix, URI string }

// Envelope describes an envelope to write.
type Envelope struct {
	Version Version
	// Namespaces are declared on the Envelope element, for example the
	// namespaces of a conversion plan, so that the body declares none.
	Namespaces []NSDecl
	// Addressing, when set, is written as WS-Addressing header blocks.
	Addressing *Addressing
	// Headers are header blocks written as is; each must be well-formed
	// and declare the namespaces it uses.
	Headers [][]byte
	// HeaderFunc, when set, writes further header blocks.
	HeaderFunc func(w *xmlstream.Writer) error
	// EncodingStyle, when set, is written as the envelope's encodingStyle
	// attribute (rpc/encoded: EncodingSOAP11).
	EncodingStyle string
}

// EncodingSOAP11 is the SOAP 1.1 encoding style URI.
const EncodingSOAP11 = "http://schemas.xmlsoap.org/soap/encoding/"

// Write writes the envelope to w; body writes the body content into the
// same writer, between the Body tags.
func Write(w *xmlstream.Writer, env Envelope, body func(w *xmlstream.Writer) error) error {
	v := env.Version
	if v != V12 {
		v = V11
	}
	pre := v.prefix()
	w.Start(pre, "Envelope")
	w.NSDecl(pre, v.Namespace())
	for _, d := range env.Namespaces {
		if d.Prefix != pre {
			w.NSDecl(d.Prefix, d.URI)
		}
	}
	if env.EncodingStyle != "" {
		w.Attr(pre, "encodingStyle", env.EncodingStyle)
	}
	if env.Addressing != nil || len(env.Headers) > 0 || env.HeaderFunc != nil {
		w.Start(pre, "Header")
		if env.Addressing != nil {
			env.Addressing.write(w)
		}
		for _, h := range env.Headers {
			w.Raw(h)
		}
		if env.HeaderFunc != nil {
			if err := env.HeaderFunc(w); err != nil {
				return err
			}
		}
		w.End(pre, "Header")
	}
	w.Start(pre, "Body")
	if body != nil {
		if err := body(w); err != nil {
			return err
		}
	}
	w.End(pre, "Body")
	w.End(pre, "Envelope")
	return w.Err()
}

// Addressing holds the WS-Addressing 1.0 message headers s2r uses.
type Addressing struct {
	MessageID string
	RelatesTo string
	ReplyTo   string // the ReplyTo/Address
	Action    string
	To        string
}

// write writes one header block per set field.
func (a *Addressing) write(w *xmlstream.Writer) {
	// Each block declares wsa itself so that it can be copied alone.
	block := func(local, value string) {
		if value == "" {
			return
		}
		w.Start("wsa", local)
		w.NSDecl("wsa", NSAddressing)
		w.Text(value)
		w.End("wsa", local)
	}
	block("Action", a.Action)
	block("MessageID", a.MessageID)
	block("RelatesTo", a.RelatesTo)
	if a.To != "" {
		writeTo(w, a.To)
	}
	if a.ReplyTo != "" {
		w.Start("wsa", "ReplyTo")
		w.NSDecl("wsa", NSAddressing)
		w.Start("wsa", "Address")
		w.Text(a.ReplyTo)
		w.End("wsa", "Address")
		w.End("wsa", "ReplyTo")
	}
}

// writeTo writes the wsa:To header block.
func writeTo(w *xmlstream.Writer, to string) {
	w.Start("wsa", "To")
	w.NSDecl("wsa", NSAddressing)
	w.Text(to)
	w.End("wsa", "To")
}

// ReplaceTo returns envelope, written by Write with Addressing.To from,
// with that wsa:To block addressed to to instead, so that a call that
// goes to another backend than the one it was built for names its own
// endpoint. An envelope without that block is returned unchanged.
func ReplaceTo(envelope []byte, from, to string) []byte {
	if from == to || from == "" {
		return envelope
	}
	old := xmlstream.NewWriter(nil)
	writeTo(old, from)
	i := bytes.Index(envelope, old.Bytes())
	if i < 0 {
		return envelope
	}
	nw := xmlstream.NewWriter(make([]byte, 0, len(envelope)+len(to)))
	nw.Raw(envelope[:i])
	writeTo(nw, to)
	nw.Raw(envelope[i+len(old.Bytes()):])
	return nw.Bytes()
}
