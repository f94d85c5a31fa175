package convert

import (
	"errors"
	"io"
	"sync"

	"github.com/s2r-project/s2r/internal/xmlstream"
)

// XMLToJSON converts the body content read from r to JSON appended to dst.
// r must be positioned just after the start tag of the container (the SOAP
// Body); XMLToJSON reads through the container's end tag. path is the XML
// path of the container, used in error messages (e.g. "/Envelope/Body").
func (p *Plan) XMLToJSON(dst []byte, r *xmlstream.Reader, path string) ([]byte, error) {
	x := x2jPool.Get().(*x2j)
	defer x.release()
	x.p, x.r, x.out, x.base = p, r, dst, path
	if x.members == nil {
		x.members = new(memberCache) // kept with x in the pool
	}
	if err := x.container(); err != nil {
		return dst, err
	}
	return x.out, nil
}

var x2jPool = sync.Pool{New: func() any { return &x2j{} }}

// release returns x to the pool, keeping its scratch buffers.
func (x *x2j) release() {
	x.p, x.r, x.out, x.refs, x.pending, x.refCount, x.dev = nil, nil, nil, nil, x.pending[:0], nil, nil
	x.path, x.counts, x.spans, x.text = x.path[:0], x.counts[:0], x.spans[:0], x.text[:0]
	x.textChild = xmlstream.Token{}
	x2jPool.Put(x)
}

// XMLToJSONBytes converts doc, whose root element is the container of the
// body content (for example a soap:Body element), to JSON appended to dst.
func (p *Plan) XMLToJSONBytes(dst, doc []byte, lim xmlstream.Limits) ([]byte, error) {
	r := xmlstream.NewReader(doc, lim)
	root, err := firstStart(r)
	if err != nil {
		return dst, &Error{Path: "/", Reason: "malformed XML: " + err.Error(), Err: err}
	}
	return p.XMLToJSON(dst, r, "/"+root.Name.Local)
}

// firstStart reads up to the root start tag.
func firstStart(r *xmlstream.Reader) (xmlstream.Token, error) {
	for {
		tok, err := r.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return tok, errors.New("no root element")
			}
			return tok, err
		}
		if tok.Kind == xmlstream.StartElement {
			return tok, nil
		}
	}
}

func isEOF(err error) bool { return errors.Is(err, io.EOF) }

// x2j is the state of one XML→JSON conversion.
type x2j struct {
	p      *Plan
	r      *xmlstream.Reader
	out    []byte
	base   string
	path   []pathSeg
	counts []int32
	spans  []span
	text   []byte
	// attrText is scratch for attribute values.
	attrText []byte
	// textChild receives a child element found in simple content.
	textChild xmlstream.Token
	// members caches name → member matches (tojson_names.go); nil for
	// the naive mapping, which matches no members.
	members *memberCache
	// refs holds SOAP-encoded multi-reference values by id; pending are
	// the href references waiting for them (rpc/encoded only).
	refs     map[string][]byte
	pending  []pendingRef
	refDepth int
	refCount *int // resolutions so far, shared with nested conversions
	// dev receives what a Lax conversion steps over (XMLToJSONNoting);
	// nil otherwise.
	dev *Deviations
}

// span is the output range of one child element's JSON value.
type span struct{ member, start, end int32 }

func (x *x2j) fail(reason string) error {
	return &Error{Path: xmlPathOf(x.base, x.path), Reason: reason}
}

// failChild reports an error about a child named local of the current node.
func (x *x2j) failChild(local, reason string) error {
	x.path = append(x.path, pathSeg{name: local})
	return x.fail(reason)
}

func (x *x2j) readErr(err error) error {
	if isEOF(err) {
		return x.fail("unexpected end of document")
	}
	return &Error{Path: xmlPathOf(x.base, x.path), Reason: "malformed XML: " + err.Error(), Err: err}
}

func (x *x2j) container() error {
	p := x.p
	if p.wrapper == nil {
		x.out = append(x.out, '{')
		if err := x.objectContent(p.root, false); err != nil {
			return err
		}
		x.out = append(x.out, '}')
		return nil
	}
	tok, err := x.nextStart()
	if err != nil {
		return err
	}
	if tok.Kind != xmlstream.StartElement {
		return x.fail("missing element " + p.wrapper.local)
	}
	if tok.Name.Local != p.wrapper.local || (!p.rpc && tok.Name.Space != p.wrapper.space && !p.opts.Lax) {
		return x.failChild(tok.Name.Local, "expected element "+expanded(p.wrapper.space, p.wrapper.local)+", found "+expanded(tok.Name.Space, tok.Name.Local))
	}
	if !p.rpc && tok.Name.Space != p.wrapper.space && x.deviates() {
		x.noteChild(tok.Name.Local, namespaceReason(tok.Name, *p.wrapper))
	}
	x.path = append(x.path, pathSeg{name: tok.Name.Local})
	if err := x.element(p.wrapperMember, &tok); err != nil {
		return err
	}
	x.path = x.path[:0]
	for {
		tok, err := x.nextStart()
		if err != nil {
			return err
		}
		if tok.Kind == xmlstream.EndElement {
			return x.resolvePending()
		}
		if id := attrValue(tok, "", "id"); id != "" && p.opts.Encoded {
			if err := x.captureRef(id, tok); err != nil {
				return err
			}
			continue
		}
		if !p.opts.Lax {
			return x.failChild(tok.Name.Local, "unexpected element "+expanded(tok.Name.Space, tok.Name.Local)+" after "+p.wrapper.local)
		}
		if x.deviates() {
			x.noteChild(tok.Name.Local, "unexpected element "+expanded(tok.Name.Space, tok.Name.Local)+" after "+p.wrapper.local)
		}
		if err := x.r.Skip(); err != nil {
			return x.readErr(err)
		}
	}
}

func expanded(space, local string) string {
	if space == "" {
		return local
	}
	return "{" + space + "}" + local
}

// nextStart returns the next start or end tag, skipping whitespace,
// comments and processing instructions; text is an error.
func (x *x2j) nextStart() (xmlstream.Token, error) {
	for {
		tok, err := x.r.Next()
		if err != nil {
			return tok, x.readErr(err)
		}
		switch tok.Kind {
		case xmlstream.StartElement, xmlstream.EndElement:
			return tok, nil
		case xmlstream.CharData:
			if !isBlank(tok.Data) {
				return tok, x.fail("unexpected text " + quote(clip(tok.Data)))
			}
		}
	}
}

func isBlank(b []byte) bool {
	for _, c := range b {
		if !isXMLSpace(c) {
			return false
		}
	}
	return true
}

func clip(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "…"
	}
	return string(b)
}

// collectText reads the text content of the element just started, through
// its end tag. The text is valid until the next read; it may be a view of
// the document, so it is never appended to.
func (x *x2j) collectText() ([]byte, error) {
	text, ended, err := x.r.ElementText(&x.text, &x.textChild)
	return x.textRest(text, ended, err)
}

// textRest finishes collectText after ElementText: it skips child
// elements (Lax) or refuses them, and reports read errors.
func (x *x2j) textRest(text []byte, ended bool, err error) ([]byte, error) {
	for {
		switch {
		case err != nil:
			return nil, x.readErr(err)
		case ended:
			return text, nil
		case !x.p.opts.Lax:
			return nil, x.failChild(x.textChild.Name.Local, "unexpected element in simple content")
		case x.deviates():
			x.noteChild(x.textChild.Name.Local, "unexpected element in simple content")
		}
		if err := x.r.Skip(); err != nil {
			return nil, x.readErr(err)
		}
		x.text, ended, err = x.r.AppendText(x.text, &x.textChild)
		text = x.text
	}
}

// ignoredAttr reports attributes that never become JSON members.
func ignoredAttr(a xmlstream.Attr) bool {
	switch a.Name.Space {
	case xmlstream.NSXMLNS, NSXSI, NSSOAPEnc, nsSOAP12Enc, nsSOAP11, nsSOAP12:
		return true
	}
	return a.Name.Space == "" && a.Name.Local == "xmlns"
}

const (
	nsSOAP12Enc = "http://www.w3.org/2003/05/soap-encoding"
	nsSOAP12RPC = "http://www.w3.org/2003/05/soap-rpc"
	nsSOAP11    = "http://schemas.xmlsoap.org/soap/envelope/"
	nsSOAP12    = "http://www.w3.org/2003/05/soap-envelope"
)
