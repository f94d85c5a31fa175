package wssec

import (
	"fmt"
	"io"

	"github.com/s2r-project/s2r/internal/xmlstream"
)

// reference is one element to canonicalize, found by its Id.
type reference struct {
	id        string
	inclusive []string
	canonical []byte
	found     bool
}

// idAttr reports whether a is an Id attribute a reference can point at:
// wsu:Id, an unqualified Id or ID, or xml:id.
func idAttr(a xmlstream.Attr) bool {
	switch a.Name {
	case xmlstream.Name{Space: NSWSU, Local: "Id"}, xmlstream.Name{Local: "Id"},
		xmlstream.Name{Local: "ID"}, xmlstream.Name{Space: xmlstream.NSXML, Local: "id"}:
		return true
	}
	return false
}

// canonicalizeRefs canonicalizes the element each reference names, reading
// doc once per level of nesting among the targets (once when no target
// holds another). The caller has made sure Id values are unique.
func canonicalizeRefs(doc []byte, lim xmlstream.Limits, refs []*reference) error {
	for left := len(refs); left > 0; {
		n, err := canonicalizePass(doc, lim, refs)
		if err != nil {
			return err
		}
		if n == 0 {
			for _, ref := range refs {
				if !ref.found {
					return fmt.Errorf("wssec: no element has the Id %q", ref.id)
				}
			}
		}
		left -= n
	}
	return nil
}

// canonicalizePass reads doc once and canonicalizes every target not
// found yet that is not inside another one canonicalized in this pass.
func canonicalizePass(doc []byte, lim xmlstream.Limits, refs []*reference) (int, error) {
	r := xmlstream.NewReader(doc, lim)
	n := 0
	var tok xmlstream.Token
	for {
		if err := r.ReadToken(&tok); err != nil {
			if err == io.EOF {
				return n, nil
			}
			return n, err
		}
		if tok.Kind != xmlstream.StartElement {
			continue
		}
		ref := matchRef(tok.Attrs, refs)
		if ref == nil {
			continue
		}
		out, err := AppendCanonical(ref.canonical[:0], r, tok, ref.inclusive)
		if err != nil {
			return n, err
		}
		ref.canonical, ref.found = out, true
		n++
	}
}

func matchRef(attrs []xmlstream.Attr, refs []*reference) *reference {
	for _, a := range attrs {
		if !idAttr(a) {
			continue
		}
		for _, ref := range refs {
			if !ref.found && ref.id == a.Value {
				return ref
			}
		}
	}
	return nil
}
