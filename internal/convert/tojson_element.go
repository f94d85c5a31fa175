package convert

import (
	"strings"

	"github.com/s2r-project/s2r/internal/xmlstream"
	"github.com/s2r-project/s2r/internal/xsd"
)

// element writes the JSON value of the element tok just started, of member
// mp, and reads through its end tag.
func (x *x2j) element(mp *memberPlan, tok *xmlstream.Token) error {
	tp := mp.typ
	if len(tok.Attrs) == 0 && tp.scalar && tp.text.kind != textGeneric {
		return x.leaf(mp, tp) // no xsi:nil, xsi:type or href to look at
	}
	nilled, xsiType := false, ""
	for _, a := range tok.Attrs {
		if a.Name.Space == NSXSI {
			switch a.Name.Local {
			case "nil":
				nilled = a.Value == "true" || a.Value == "1"
			case "type":
				xsiType = a.Value
			}
		}
	}
	if x.p.opts.Encoded {
		if href := attrValue(*tok, "", "href"); len(href) > 1 && href[0] == '#' {
			return x.reference(mp, href[1:])
		}
	}
	if nilled {
		if !mp.nillable {
			if !x.p.opts.Lax {
				return x.fail("xsi:nil on an element that is not nillable")
			}
			if x.deviates() {
				x.note("xsi:nil on an element that is not nillable")
			}
		}
		x.out = append(x.out, "null"...)
		if err := x.r.Skip(); err != nil {
			return x.readErr(err)
		}
		return nil
	}
	derived := ""
	if xsiType != "" && !tp.anyType {
		d, name, err := x.resolveType(tp, xsiType)
		if err != nil {
			return err
		}
		tp, derived = d, name
	}
	switch {
	case tp.anyType:
		return x.naiveElement(*tok)
	case tp.arrayItem != nil:
		return x.encodedArray(tp)
	case tp.scalar && tp.text.kind == textGeneric && isQName(tp.simple):
		name, err := x.collectQName(mp)
		if err != nil {
			return err
		}
		x.out = appendQuotedString(x.out, name)
		return nil
	case tp.scalar:
		return x.leaf(mp, tp)
	}
	return x.object(tp, tok, derived)
}

// leafChild is leaf for a child element whose path segment is seg: the
// path only matters in errors, so seg is pushed only to make one.
func (x *x2j) leafChild(mp *memberPlan, seg pathSeg) error {
	tp := mp.typ
	text, ended, err := x.r.ElementText(&x.text, &x.textChild)
	if err != nil || !ended {
		x.path = append(x.path, seg)
		if text, err = x.textRest(text, ended, err); err != nil {
			return err
		}
		x.path = x.path[:len(x.path)-1]
	}
	n := len(x.out)
	var reason string
	if x.out, reason = appendTextJSON(x.out, tp.simple, &tp.text, elementDefault(mp, text)); reason != "" {
		x.path = append(x.path, seg)
		if err := x.badValue(n, reason); err != nil {
			return err
		}
		x.path = x.path[:len(x.path)-1]
	}
	return nil
}

// leaf writes the JSON scalar of an element of simple type tp.
func (x *x2j) leaf(mp *memberPlan, tp *typePlan) error {
	text, err := x.collectText()
	if err != nil {
		return err
	}
	text = elementDefault(mp, text)
	n := len(x.out)
	var reason string
	if x.out, reason = appendTextJSON(x.out, tp.simple, &tp.text, text); reason != "" {
		return x.badValue(n, reason)
	}
	return nil
}

// resolveType resolves an xsi:type value against the derived types of tp.
func (x *x2j) resolveType(tp *typePlan, value string) (*typePlan, string, error) {
	name, err := x.r.ResolveQName(value)
	if err != nil {
		return nil, "", x.fail("invalid xsi:type " + quote(value) + ": " + err.Error())
	}
	if d, ok := tp.derived[name.Local]; ok && d.typeName.space == name.Space {
		return d, name.Local, nil
	}
	if tp.xtype != nil && tp.xtype.Name == name {
		if tp.hierarchy {
			return tp, name.Local, nil
		}
		return tp, "", nil
	}
	if xsd.IsXSDNamespace(name.Space) || name.Space == NSSOAPEnc || name.Space == nsSOAP12Enc {
		return tp, "", nil // SOAP-encoding annotations of the declared type
	}
	if x.p.opts.Lax || x.p.opts.Encoded {
		if !x.p.opts.Encoded && x.deviates() {
			x.note("unknown xsi:type " + quote(value))
		}
		return tp, "", nil
	}
	return nil, "", x.fail("unknown xsi:type " + quote(value))
}

// object writes the JSON object of an element of complex type tp.
func (x *x2j) object(tp *typePlan, tok *xmlstream.Token, derived string) error {
	x.out = append(x.out, '{')
	prev := false
	if derived != "" {
		x.out = append(x.out, `"$type":`...)
		x.out = appendQuotedString(x.out, derived)
		prev = true
	}
	prev, err := x.attributes(tp, tok, prev)
	if err != nil {
		return err
	}
	if tp.simple != nil {
		text, err := x.collectText()
		if err != nil {
			return err
		}
		if prev {
			x.out = append(x.out, ',')
		}
		x.out = append(x.out, `"$value":`...)
		n := len(x.out)
		var reason string
		if x.out, reason = appendTextJSON(x.out, tp.simple, &tp.text, text); reason != "" {
			if err := x.badValue(n, reason); err != nil {
				return err
			}
		}
	} else if err := x.objectContent(tp, prev); err != nil {
		return err
	}
	x.out = append(x.out, '}')
	return nil
}

// attributes writes the "@name" members of the attributes on tok; prev
// tells whether a member was written before, and the result whether one
// was written now or before.
func (x *x2j) attributes(tp *typePlan, tok *xmlstream.Token, prev bool) (bool, error) {
	required := 0 // required attributes written
	for _, a := range tok.Attrs {
		if ignoredAttr(a) || x.p.opts.Encoded && a.Name.Space == "" && (a.Name.Local == "id" || a.Name.Local == "href") {
			continue
		}
		ap := tp.attr(a.Name)
		if ap == nil && !tp.anyAttr {
			if x.p.opts.Lax {
				if x.deviates() {
					x.note("unknown attribute " + expanded(a.Name.Space, a.Name.Local))
				}
				continue
			}
			return prev, x.fail("unknown attribute " + expanded(a.Name.Space, a.Name.Local))
		}
		if prev {
			x.out = append(x.out, ',')
		}
		prev = true
		x.out = append(x.out, `"@`...)
		x.out = append(x.out, a.Name.Local...)
		x.out = append(x.out, `":`...)
		if ap == nil {
			x.out = appendQuoted(x.out, a.Value)
			continue
		}
		if ap.attr.Required {
			required++
		}
		if err := x.attrValue(ap, a); err != nil {
			return prev, err
		}
	}
	if required == tp.requiredAttrs {
		return prev, nil // all there: requiredAttrs would find them
	}
	return prev, x.requiredAttrs(tp, tok)
}

// attrValue writes the JSON value of attribute a of plan ap.
func (x *x2j) attrValue(ap *attrPlan, a xmlstream.Attr) error {
	switch {
	case ap.text.kind == textString:
		x.out = appendQuoted(x.out, a.Value)
		return nil
	case ap.text.kind == textGeneric && isQName(ap.attr.Type):
		name, err := x.r.ResolveQName(strings.TrimSpace(a.Value))
		if err != nil {
			return x.badValue(len(x.out), "attribute "+a.Name.Local+": invalid xs:QName value "+quote(a.Value))
		}
		x.out = appendQuotedString(x.out, expandedName(name))
		return nil
	}
	n := len(x.out)
	var reason string
	x.attrText = append(x.attrText[:0], a.Value...)
	if x.out, reason = appendTextJSON(x.out, ap.attr.Type, &ap.text, x.attrText); reason != "" {
		return x.badValue(n, "attribute "+a.Name.Local+": "+reason)
	}
	return nil
}

// requiredAttrs checks that every required attribute of tp is on tok
// (a deviation each in a Lax conversion).
func (x *x2j) requiredAttrs(tp *typePlan, tok *xmlstream.Token) error {
	if x.p.opts.Lax && x.dev == nil {
		return nil
	}
	for _, ap := range tp.attrs {
		if !ap.attr.Required {
			continue
		}
		found := false
		for _, a := range tok.Attrs {
			if a.Name.Local == ap.name.local && a.Name.Space == ap.name.space {
				found = true
				break
			}
		}
		if !found {
			if !x.p.opts.Lax {
				return x.fail("missing required attribute " + ap.name.local)
			}
			if x.deviates() {
				x.note("missing required attribute " + ap.name.local)
			}
		}
	}
	return nil
}

// attr finds the attribute plan of name.
func (tp *typePlan) attr(name xmlstream.Name) *attrPlan {
	for _, ap := range tp.attrs {
		if ap.name.local == name.Local && ap.name.space == name.Space {
			return ap
		}
	}
	return nil
}

// encodedArray writes a SOAP-encoded array: every child element is an item.
func (x *x2j) encodedArray(tp *typePlan) error {
	x.out = append(x.out, '[')
	n := 0
	for {
		tok, err := x.nextStart()
		if err != nil {
			return err
		}
		if tok.Kind == xmlstream.EndElement {
			x.out = append(x.out, ']')
			return nil
		}
		if n > 0 {
			x.out = append(x.out, ',')
		}
		n++
		x.path = append(x.path, pathSeg{name: tok.Name.Local, index: n})
		if err := x.element(tp.arrayItem, &tok); err != nil {
			return err
		}
		x.path = x.path[:len(x.path)-1]
	}
}

// elementDefault applies the default or fixed value of an element whose
// content is empty (XSD: an empty element takes its default).
func elementDefault(mp *memberPlan, text []byte) []byte {
	if len(text) > 0 || mp.elem == nil {
		return text
	}
	if mp.elem.Default != "" {
		return []byte(mp.elem.Default)
	}
	if mp.elem.Fixed != "" {
		return []byte(mp.elem.Fixed)
	}
	return text
}
