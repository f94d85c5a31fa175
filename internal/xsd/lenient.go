package xsd

import (
	"fmt"
	"sort"

	"github.com/s2r-project/s2r/internal/xmlstream"
)

// Unresolved records a schema component a lenient import could not build
// and replaced with a stand-in: xs:anyType for a type, an element or a
// part, xs:anySimpleType for a simple type, an xs:any wildcard for a model
// group. It names where the failing reference is written, the name that was
// not found (zero when the component failed for another reason) and why.
type Unresolved struct {
	File   string
	Line   int
	Name   xmlstream.Name
	Reason string
}

// String renders u as "file:line: reason".
func (u *Unresolved) String() string {
	return (&ImportError{File: u.File, Line: u.Line, Reason: u.Reason}).Error()
}

// SetLenient makes the Set tolerate references to undeclared types,
// elements, model groups, attributes and attribute groups: each compiles to
// a stand-in that carries an *Unresolved (Type.Unresolved,
// SimpleType.Unresolved, Wildcard.Unresolved) instead of failing the
// lookup. A missing attribute group makes its type accept any attribute.
// Call it before the first lookup.
func (s *Set) SetLenient() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lenient = true
}

// Unresolved lists every stand-in made so far, in the order made.
func (s *Set) Unresolved() []*Unresolved {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*Unresolved(nil), s.unresolved...)
}

// HasUnresolved reports whether any stand-in was made; when false no
// contract of the Set reaches one and UnresolvedIn need not be called.
func (s *Set) HasUnresolved() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.unresolved) > 0
}

// dangling returns the stand-in record of a reference to an undeclared
// component, or nil when the Set is strict or the reference is a top-level
// lookup (which reports ErrNotDeclared to its caller).
func (c *compiler) dangling(from decl, at *xmlstream.Element, kind string, name xmlstream.Name) *Unresolved {
	if !c.s.lenient || from.doc == nil || at == nil {
		return nil
	}
	u := &Unresolved{File: from.doc.location, Line: at.Line, Name: name,
		Reason: fmt.Sprintf("unresolved %s reference %s", kind, displayName(name))}
	c.s.unresolved = append(c.s.unresolved, u)
	return u
}

// undeclaredChild returns the stand-in record of a schema element whose
// prefix is undeclared and has no known namespace (it is in its
// xmlstream.UndeclaredSpace placeholder), or nil when the Set is strict or
// el is not one: what such an element declares cannot be known.
func (c *compiler) undeclaredChild(d decl, el *xmlstream.Element) *Unresolved {
	prefix, ok := xmlstream.UndeclaredPrefix(el.Name.Space)
	if !ok || !c.s.lenient || d.doc == nil {
		return nil
	}
	// Always a stand-in, even where it might only declare attributes: what
	// it declares cannot be known.
	u := &Unresolved{File: d.doc.location, Line: el.Line, Name: el.Name,
		Reason: fmt.Sprintf("schema element <%s:%s> has an undeclared prefix with no known namespace", prefix, el.Name.Local)}
	c.s.unresolved = append(c.s.unresolved, u)
	return u
}

// isUndeclared reports whether el is named with an undeclared prefix that
// has no known namespace.
func isUndeclared(el *xmlstream.Element) bool {
	_, ok := xmlstream.UndeclaredPrefix(el.Name.Space)
	return ok
}

// AnyTypeFor returns a fresh xs:anyType stand-in recording u.
func AnyTypeFor(u *Unresolved) *Type {
	t := anyType()
	t.Unresolved = u
	return t
}

// anySimpleFor returns a fresh xs:anySimpleType stand-in recording u.
func anySimpleFor(u *Unresolved) *SimpleType {
	return &SimpleType{Name: xmlstream.Name{Space: NSXSD, Local: "anySimpleType"}, Builtin: "anySimpleType", Kind: JSONString, Unresolved: u}
}

// anyGroupFor returns the stand-in of a model group reference: an xs:any
// wildcard (lax) with the reference's bounds.
func anyGroupFor(u *Unresolved, minOcc, maxOcc int) *Particle {
	return &Particle{Kind: ParticleAny, MinOccurs: minOcc, MaxOccurs: maxOcc,
		Wildcard: &Wildcard{Namespace: "##any", ProcessContents: "lax", Unresolved: u}}
}

// CompileRest compiles every global type and element not compiled yet and
// returns the error of each one that fails (sorted by name, types first),
// so that an import can report definitions no operation uses but that are
// broken. Lookups of the failed components still fail afterwards.
func (s *Set) CompileRest() []error {
	types, elements := s.Types(), s.Elements()
	s.mu.Lock()
	defer s.mu.Unlock()
	var errs []error
	for _, n := range types {
		if _, err := s.c.typeRef(n, decl{}, nil); err != nil {
			errs = append(errs, err)
		}
		errs = append(errs, s.c.drainAll()...)
	}
	for _, n := range elements {
		if _, err := s.c.elementRef(n, decl{}, nil); err != nil {
			errs = append(errs, err)
		}
		errs = append(errs, s.c.drainAll()...)
	}
	return errs
}

// drainAll runs queued compile work until none is left and returns every
// error.
func (c *compiler) drainAll() []error {
	var errs []error
	for len(c.queue) > 0 {
		job := c.queue[0]
		c.queue = c.queue[1:]
		if err := job(); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// UnresolvedIn lists the stand-ins the given parts reach through element
// types, base types, content, attributes, SOAP array items and simple
// types, each once, sorted by file and line. Derived types and
// substitution group members are not followed: they are alternatives a
// message may carry, not what it needs.
func UnresolvedIn(parts []*Part) []*Unresolved {
	w := reachWalk{seenT: map[*Type]bool{}, seenE: map[*Element]bool{}, seenS: map[*SimpleType]bool{}, found: map[*Unresolved]bool{}}
	for _, p := range parts {
		w.element(p.Element)
		w.typ(p.Type)
	}
	out := make([]*Unresolved, 0, len(w.found))
	for u := range w.found {
		out = append(out, u)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].File != out[j].File {
			return out[i].File < out[j].File
		}
		if out[i].Line != out[j].Line {
			return out[i].Line < out[j].Line
		}
		return out[i].Reason < out[j].Reason
	})
	return out
}

// reachWalk walks a compiled graph collecting stand-ins. The graph may be
// cyclic and deep, so types are visited from an explicit stack.
type reachWalk struct {
	seenT map[*Type]bool
	seenE map[*Element]bool
	seenS map[*SimpleType]bool
	found map[*Unresolved]bool
	stack []*Type
}

func (w *reachWalk) element(e *Element) {
	if e == nil || w.seenE[e] {
		return
	}
	w.seenE[e] = true
	w.typ(e.Type)
}

func (w *reachWalk) typ(t *Type) {
	if t == nil {
		return
	}
	w.stack = append(w.stack, t)
	for len(w.stack) > 0 {
		t := w.stack[len(w.stack)-1]
		w.stack = w.stack[:len(w.stack)-1]
		if w.seenT[t] {
			continue
		}
		w.seenT[t] = true
		w.note(t.Unresolved)
		w.simple(t.Simple)
		for _, a := range t.Attributes {
			w.simple(a.Type)
		}
		if t.Base != nil {
			w.stack = append(w.stack, t.Base)
		}
		if t.ArrayItem != nil {
			w.pushElement(t.ArrayItem)
		}
		w.particle(t.Content)
	}
}

func (w *reachWalk) pushElement(e *Element) {
	if e != nil && !w.seenE[e] {
		w.seenE[e] = true
		if e.Type != nil {
			w.stack = append(w.stack, e.Type)
		}
	}
}

func (w *reachWalk) particle(p *Particle) {
	if p == nil {
		return
	}
	if p.Wildcard != nil {
		w.note(p.Wildcard.Unresolved)
	}
	w.pushElement(p.Element)
	for _, ch := range p.Children {
		w.particle(ch)
	}
}

func (w *reachWalk) simple(st *SimpleType) {
	if st == nil || w.seenS[st] {
		return
	}
	w.seenS[st] = true
	w.note(st.Unresolved)
	w.simple(st.List)
	for _, m := range st.Union {
		w.simple(m)
	}
}

func (w *reachWalk) note(u *Unresolved) {
	if u != nil {
		w.found[u] = true
	}
}
