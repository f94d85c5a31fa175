package convert

import (
	"github.com/s2r-project/s2r/internal/xmlstream"
)

// NaiveXMLToJSON converts the children of the container r is positioned in
// (just after its start tag) to a JSON object by the generic mapping of
// docs/conversion.md: element → member by local name, repeated siblings →
// array, attributes → "@name", text → string or "$value", namespaces
// dropped.
func NaiveXMLToJSON(dst []byte, r *xmlstream.Reader, path string) ([]byte, error) {
	x := &x2j{p: &Plan{}, r: r, out: dst, base: path}
	x.out = append(x.out, '{')
	if _, err := x.naiveContent(false); err != nil {
		return dst, err
	}
	return append(x.out, '}'), nil
}

// NaiveXMLToJSONBytes converts a whole document: {"Root": value}.
func NaiveXMLToJSONBytes(dst, doc []byte, lim xmlstream.Limits) ([]byte, error) {
	r := xmlstream.NewReader(doc, lim)
	root, err := firstStart(r)
	if err != nil {
		return dst, &Error{Path: "/", Reason: "malformed XML: " + err.Error(), Err: err}
	}
	x := &x2j{p: &Plan{}, r: r, out: dst}
	x.out = append(x.out, '{')
	x.out = appendQuotedString(x.out, root.Name.Local)
	x.out = append(x.out, ':')
	x.path = append(x.path, pathSeg{name: root.Name.Local})
	if err := x.naiveElement(root); err != nil {
		return dst, err
	}
	for {
		_, err := r.Next()
		if isEOF(err) {
			break
		}
		if err != nil {
			return dst, x.readErr(err)
		}
	}
	return append(x.out, '}'), nil
}

// naiveSpan is the output range of one naive child member.
type naiveSpan struct {
	name       string
	start, end int
}

// naiveElement writes the value of the element tok just started.
func (x *x2j) naiveElement(tok xmlstream.Token) error {
	if v := attrValue(tok, NSXSI, "nil"); v == "true" || v == "1" {
		x.out = append(x.out, "null"...)
		if err := x.r.Skip(); err != nil {
			return x.readErr(err)
		}
		return nil
	}
	start := len(x.out)
	x.out = append(x.out, '{')
	hasAttrs := false
	for _, a := range tok.Attrs {
		if ignoredAttr(a) {
			continue
		}
		if hasAttrs {
			x.out = append(x.out, ',')
		}
		hasAttrs = true
		x.out = append(x.out, `"@`...)
		x.out = append(x.out, a.Name.Local...)
		x.out = append(x.out, `":`...)
		x.out = appendQuotedString(x.out, a.Value)
	}
	textBase := len(x.text)
	children, err := x.naiveContent(hasAttrs)
	if err != nil {
		return err
	}
	text := x.text[textBase:]
	switch {
	case children == 0 && !hasAttrs:
		x.out = appendQuoted(x.out[:start], text)
		x.text = x.text[:textBase]
		return nil
	case children == 0 && len(text) > 0, children > 0 && !isBlank(text):
		if hasAttrs || children > 0 {
			x.out = append(x.out, ',')
		}
		x.out = append(x.out, `"$value":`...)
		if children > 0 {
			text = trimXML(text)
		}
		x.out = appendQuoted(x.out, text)
	}
	x.text = x.text[:textBase]
	x.out = append(x.out, '}')
	return nil
}

// naiveContent writes the children of the current element as members,
// collecting its text in x.text, and returns how many children it had.
func (x *x2j) naiveContent(prev bool) (int, error) {
	var spans []naiveSpan
	contentStart := len(x.out)
	for {
		tok, err := x.r.Next()
		if err != nil {
			return 0, x.readErr(err)
		}
		switch tok.Kind {
		case xmlstream.EndElement:
			if dupNames(spans) {
				x.naiveRegroup(spans, contentStart, prev)
			}
			return len(spans), nil
		case xmlstream.CharData:
			x.text = append(x.text, tok.Data...)
		case xmlstream.StartElement:
			if prev || len(spans) > 0 {
				x.out = append(x.out, ',')
			}
			x.out = appendQuotedString(x.out, tok.Name.Local)
			x.out = append(x.out, ':')
			s := naiveSpan{name: tok.Name.Local, start: len(x.out)}
			x.path = append(x.path, pathSeg{name: tok.Name.Local})
			textBase := len(x.text)
			if err := x.naiveElement(tok); err != nil {
				return 0, err
			}
			x.text = x.text[:textBase]
			x.path = x.path[:len(x.path)-1]
			s.end = len(x.out)
			spans = append(spans, s)
		}
	}
}

func dupNames(spans []naiveSpan) bool {
	if len(spans) > 16 {
		seen := make(map[string]bool, len(spans))
		for _, s := range spans {
			if seen[s.name] {
				return true
			}
			seen[s.name] = true
		}
		return false
	}
	for i := range spans {
		for k := 0; k < i; k++ {
			if spans[k].name == spans[i].name {
				return true
			}
		}
	}
	return false
}

// naiveRegroup rewrites the children members so that repeated names
// become arrays, in order of first appearance.
func (x *x2j) naiveRegroup(spans []naiveSpan, contentStart int, prev bool) {
	region := append([]byte(nil), x.out[contentStart:]...)
	x.out = x.out[:contentStart]
	order := make([]string, 0, len(spans))
	groups := make(map[string][]naiveSpan, len(spans))
	for _, s := range spans {
		if _, ok := groups[s.name]; !ok {
			order = append(order, s.name)
		}
		groups[s.name] = append(groups[s.name], s)
	}
	for i, name := range order {
		if prev || i > 0 {
			x.out = append(x.out, ',')
		}
		x.out = appendQuotedString(x.out, name)
		x.out = append(x.out, ':')
		g := groups[name]
		if len(g) > 1 {
			x.out = append(x.out, '[')
		}
		for k, s := range g {
			if k > 0 {
				x.out = append(x.out, ',')
			}
			x.out = append(x.out, region[s.start-contentStart:s.end-contentStart]...)
		}
		if len(g) > 1 {
			x.out = append(x.out, ']')
		}
	}
}
