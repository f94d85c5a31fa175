package routing

import "github.com/s2r-project/s2r/internal/xsd"

// needsSchemaCheck reports whether msg holds a constraint that conversion
// by its plan does not enforce: a facet (enumeration, pattern, length,
// numeric bound) anywhere in its types. Conversion already refuses
// unknown members, wrong types, missing required members, single values
// for repeated elements, occurrence bounds and the ranges of bounded
// built-in types, which is everything else the message's JSON Schema
// says; so without facets a successful conversion means the JSON Schema
// holds and its (costly) validation can be skipped
// (docs/decisions-runtime.md).
func needsSchemaCheck(msg *xsd.Message) bool {
	if msg == nil {
		return false
	}
	return partsHaveFacets(msg.Parts)
}

// partsHaveFacets reports whether the types of parts hold a facet. The
// header parts of a message are checked on their own ("$headers").
func partsHaveFacets(parts []*xsd.Part) bool {
	w := facetWalker{seen: map[*xsd.Type]bool{}}
	for _, p := range parts {
		if p.Element != nil && w.element(p.Element) {
			return true
		}
		if p.Type != nil && w.typ(p.Type) {
			return true
		}
	}
	return false
}

type facetWalker struct {
	seen map[*xsd.Type]bool
}

func (w facetWalker) element(e *xsd.Element) bool {
	if e == nil {
		return false
	}
	if w.typ(e.Type) {
		return true
	}
	for _, s := range e.Substitutes {
		if w.element(s) {
			return true
		}
	}
	return false
}

func (w facetWalker) typ(t *xsd.Type) bool {
	if t == nil || w.seen[t] {
		return false
	}
	w.seen[t] = true
	if hasFacets(t.Simple) {
		return true
	}
	for _, a := range t.Attributes {
		if hasFacets(a.Type) {
			return true
		}
	}
	if w.particle(t.Content) || w.element(t.ArrayItem) {
		return true
	}
	for _, d := range t.Derived {
		if w.typ(d) {
			return true
		}
	}
	return false
}

func (w facetWalker) particle(p *xsd.Particle) bool {
	if p == nil {
		return false
	}
	if w.element(p.Element) {
		return true
	}
	for _, c := range p.Children {
		if w.particle(c) {
			return true
		}
	}
	return false
}

// hasFacets reports whether st or its list item or union members carry a
// facet the JSON Schema checks and the converter does not.
func hasFacets(st *xsd.SimpleType) bool {
	if st == nil {
		return false
	}
	f := st.Facets
	if len(f.Enumeration) > 0 || len(f.Patterns) > 0 || f.Length != nil || f.MinLength != nil || f.MaxLength != nil ||
		f.MinInclusive != "" || f.MaxInclusive != "" || f.MinExclusive != "" || f.MaxExclusive != "" {
		return true
	}
	if hasFacets(st.List) {
		return true
	}
	for _, u := range st.Union {
		if hasFacets(u) {
			return true
		}
	}
	switch st.Builtin {
	case "QName", "NOTATION", "date":
		return true // a pattern or format the schema adds
	}
	return false
}
