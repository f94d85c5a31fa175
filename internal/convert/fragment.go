package convert

import (
	"github.com/s2r-project/s2r/internal/xmlstream"
	"github.com/s2r-project/s2r/internal/xsd"
)

// FragmentJSON converts self-contained XML content — a sequence of
// elements declaring their own namespaces, such as soap.Fault.Detail — to
// JSON appended to dst: by plan p (for example the compiled fault message
// of an operation), or by the naive mapping when p is nil. path names the
// content's parent in error messages (e.g. "/Envelope/Body/Fault/detail").
func FragmentJSON(dst, content []byte, p *Plan, path string, lim xmlstream.Limits) ([]byte, error) {
	doc := make([]byte, 0, len(content)+7)
	doc = append(doc, "<x>"...)
	doc = append(doc, content...)
	doc = append(doc, "</x>"...)
	r := xmlstream.NewReader(doc, lim)
	if _, err := r.Next(); err != nil {
		return dst, &Error{Path: path, Reason: "malformed XML: " + err.Error(), Err: err}
	}
	var out []byte
	var err error
	if p == nil {
		out, err = NaiveXMLToJSON(dst, r, path)
	} else {
		out, err = p.XMLToJSON(dst, r, path)
	}
	if err != nil {
		return dst, err
	}
	if _, err := r.Next(); !isEOF(err) {
		return dst, &Error{Path: path, Reason: "content after the fragment"}
	}
	return out, nil
}

// DetailElement returns the name of the first element of self-contained
// content such as a fault detail, to pick the declared fault it carries.
func DetailElement(content []byte) (xmlstream.Name, bool) {
	doc := make([]byte, 0, len(content)+7)
	doc = append(doc, "<x>"...)
	doc = append(doc, content...)
	doc = append(doc, "</x>"...)
	r := xmlstream.NewReader(doc, xmlstream.Limits{})
	if _, err := r.Next(); err != nil {
		return xmlstream.Name{}, false
	}
	for {
		tok, err := r.Next()
		if err != nil {
			return xmlstream.Name{}, false
		}
		if tok.Kind == xmlstream.StartElement {
			return tok.Name, true
		}
	}
}

// MatchFault returns the declared fault of an operation whose message
// carries the element name (its first element part), or nil.
func MatchFault(faults []*xsd.Fault, name xmlstream.Name) *xsd.Fault {
	for _, f := range faults {
		if f.Message == nil {
			continue
		}
		for _, p := range f.Message.Parts {
			if p.Element != nil && p.Element.Name == name {
				return f
			}
		}
		if f.Message.Wrapper != nil && f.Message.Wrapped && f.Message.Wrapper.Name == name {
			return f
		}
	}
	return nil
}
