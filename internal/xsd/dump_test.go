package xsd

import (
	"fmt"
	"strings"

	"github.com/s2r-project/s2r/internal/xmlstream"
)

// dumper renders compiled contracts as indented text for golden tests.
// Named types are expanded once; later uses print "-> Name".
type dumper struct {
	b    strings.Builder
	seen map[*Type]bool
}

func dumpSet(s *Set) (string, error) {
	d := &dumper{seen: map[*Type]bool{}}
	for _, n := range s.Elements() {
		if _, builtin := WellKnownLocation(n.Space); builtin {
			continue
		}
		e, err := s.Element(n)
		if err != nil {
			return "", err
		}
		d.element(e, 0, "")
	}
	for _, n := range s.Types() {
		if _, builtin := WellKnownLocation(n.Space); builtin {
			continue
		}
		t, err := s.Type(n)
		if err != nil {
			return "", err
		}
		if !d.seen[t] {
			d.typ(t, 0)
		}
	}
	return d.b.String(), nil
}

func (d *dumper) line(depth int, format string, args ...any) {
	d.b.WriteString(strings.Repeat("  ", depth))
	fmt.Fprintf(&d.b, format, args...)
	d.b.WriteByte('\n')
}

func qn(n xmlstream.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return "{" + n.Space + "}" + n.Local
}

func (d *dumper) element(e *Element, depth int, occurs string) {
	flags := occurs
	if e.Nillable {
		flags += " nillable"
	}
	if e.Abstract {
		flags += " abstract"
	}
	if e.Default != "" {
		flags += " default=" + e.Default
	}
	if e.Fixed != "" {
		flags += " fixed=" + e.Fixed
	}
	for _, s := range e.Substitutes {
		flags += " subst=" + qn(s.Name)
	}
	d.line(depth, "element %s%s", qn(e.Name), flags)
	d.typ(e.Type, depth+1)
}

func (d *dumper) typ(t *Type, depth int) {
	if t == nil {
		d.line(depth, "<nil type>")
		return
	}
	if t.Name.Local != "" && d.seen[t] {
		d.line(depth, "-> %s", qn(t.Name))
		return
	}
	d.seen[t] = true
	head := "type"
	if t.Name.Local != "" {
		head += " " + qn(t.Name)
	}
	if t.Base != nil {
		head += " base=" + qn(t.Base.Name)
	}
	for _, dt := range t.Derived {
		head += " derived=" + qn(dt.Name)
	}
	if t.Abstract {
		head += " abstract"
	}
	if t.Mixed {
		head += " mixed"
	}
	if t.AnyAttribute {
		head += " anyAttribute"
	}
	d.line(depth, "%s", head)
	if t.Simple != nil {
		d.simple(t.Simple, depth+1)
	}
	for _, a := range t.Attributes {
		flags := ""
		if a.Required {
			flags += " required"
		}
		if a.Default != "" {
			flags += " default=" + a.Default
		}
		d.line(depth+1, "@%s%s %s", qn(a.Name), flags, simpleHead(a.Type))
	}
	if t.ArrayItem != nil {
		d.line(depth+1, "arrayItem %s", qn(t.ArrayItem.Name))
	}
	if t.Content != nil {
		d.particle(t.Content, depth+1)
	}
}

func occ(p *Particle) string {
	maxS := fmt.Sprint(p.MaxOccurs)
	if p.MaxOccurs == Unbounded {
		maxS = "*"
	}
	return fmt.Sprintf(" [%d..%s]", p.MinOccurs, maxS)
}

func (d *dumper) particle(p *Particle, depth int) {
	switch p.Kind {
	case ParticleElement:
		d.element(p.Element, depth, occ(p))
	case ParticleAny:
		d.line(depth, "any%s ns=%s process=%s", occ(p), p.Wildcard.Namespace, p.Wildcard.ProcessContents)
	default:
		d.line(depth, "%s%s", map[ParticleKind]string{ParticleSequence: "sequence", ParticleChoice: "choice", ParticleAll: "all"}[p.Kind], occ(p))
		for _, c := range p.Children {
			d.particle(c, depth+1)
		}
	}
}

func simpleHead(st *SimpleType) string {
	if st == nil {
		return "<nil simple>"
	}
	kind := map[JSONKind]string{JSONString: "string", JSONInteger: "integer", JSONNumber: "number", JSONBoolean: "boolean"}[st.Kind]
	s := fmt.Sprintf("simple %s builtin=%s json=%s", qn(st.Name), st.Builtin, kind)
	f := st.Facets
	if len(f.Enumeration) > 0 {
		s += " enum=" + strings.Join(f.Enumeration, "|")
	}
	if len(f.Patterns) > 0 {
		s += " patterns=" + strings.Join(f.Patterns, "&")
	}
	names := []string{"length", "minLength", "maxLength", "totalDigits", "fractionDigits"}
	for i, v := range []*int{f.Length, f.MinLength, f.MaxLength, f.TotalDigits, f.FractionDigits} {
		if v != nil {
			s += fmt.Sprintf(" %s=%d", names[i], *v)
		}
	}
	for _, kv := range [][2]string{{"minInclusive", f.MinInclusive}, {"maxInclusive", f.MaxInclusive}, {"minExclusive", f.MinExclusive}, {"maxExclusive", f.MaxExclusive}, {"whiteSpace", f.WhiteSpace}} {
		if kv[1] != "" {
			s += " " + kv[0] + "=" + kv[1]
		}
	}
	if st.List != nil {
		s += " list(" + simpleHead(st.List) + ")"
	}
	for _, u := range st.Union {
		s += " union(" + simpleHead(u) + ")"
	}
	return s
}

func (d *dumper) simple(st *SimpleType, depth int) { d.line(depth, "%s", simpleHead(st)) }
