package xsd

import (
	"context"
	"errors"
	"fmt"

	"github.com/s2r-project/s2r/internal/xmlstream"
)

// ErrNotDeclared is wrapped by lookups of names no schema declares.
var ErrNotDeclared = errors.New("not declared")

// maxCompileDepth bounds the nesting of base-type chains, group and
// attribute-group expansion, so hostile schemas cannot exhaust the stack.
const maxCompileDepth = 512

// maxLinks caps the total of Derived and Substitutes entries in a Set.
const maxLinks = 1 << 20

// Compile states of a named component.
const (
	statePending uint8 = iota
	stateBusy
	stateDone
)

type typeEntry struct {
	t      *Type
	d      decl
	state  uint8
	queued bool
}

type elementEntry struct {
	e      *Element
	d      decl
	state  uint8
	queued bool
}

type simpleEntry struct {
	st    *SimpleType
	state uint8
}

// compiler holds the memoized compile state of a Set. Element types are
// compiled through a work queue rather than recursively, so recursive
// schemas become cyclic graphs and recursion depth stays bounded.
type compiler struct {
	s        *Set
	types    map[xmlstream.Name]*typeEntry
	elements map[xmlstream.Name]*elementEntry
	simples  map[xmlstream.Name]*simpleEntry
	attrs    map[xmlstream.Name]*Attribute
	locals   map[*xmlstream.Element]*Element
	anySimpl map[*xmlstream.Element]*SimpleType
	mime     map[*Element]bool
	// failed holds the types and elements whose compilation failed (and
	// has not succeeded since), with the error, so that a later lookup
	// reaching one of them reports it instead of a half-built graph.
	failed     map[any]error
	groups     map[*xmlstream.Element]*Particle
	attrGroups map[*xmlstream.Element]attrGroup
	// links counts Derived and Substitutes entries, capped by maxLinks so
	// that hostile derivation chains cannot grow quadratically.
	links int
	queue []func() error
	depth int
	stack map[*xmlstream.Element]bool // groups being expanded
}

func (c *compiler) init(s *Set) {
	c.s = s
	c.types = map[xmlstream.Name]*typeEntry{}
	c.elements = map[xmlstream.Name]*elementEntry{}
	c.simples = map[xmlstream.Name]*simpleEntry{}
	c.attrs = map[xmlstream.Name]*Attribute{}
	c.locals = map[*xmlstream.Element]*Element{}
	c.anySimpl = map[*xmlstream.Element]*SimpleType{}
	c.mime = map[*Element]bool{}
	c.groups = map[*xmlstream.Element]*Particle{}
	c.failed = map[any]error{}
	c.attrGroups = map[*xmlstream.Element]attrGroup{}
	c.stack = map[*xmlstream.Element]bool{}
}

// Element returns the compiled global element name.
func (s *Set) Element(name xmlstream.Name) (*Element, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.lookup(s.elements, name); !ok {
		return nil, fmt.Errorf("element %s: %w", displayName(name), ErrNotDeclared)
	}
	e, err := s.c.elementRef(name, decl{}, nil)
	if err != nil {
		return nil, err
	}
	if err := s.c.drain(); err != nil {
		return nil, err
	}
	return e, s.c.reachesFailure(e, nil)
}

// Type returns the compiled global type name (built-in types included).
func (s *Set) Type(name xmlstream.Name) (*Type, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if builtinSimple(name) == nil && !isAnyType(name) {
		if _, ok := s.lookup(s.types, name); !ok {
			return nil, fmt.Errorf("type %s: %w", displayName(name), ErrNotDeclared)
		}
	}
	t, err := s.c.typeRef(name, decl{}, nil)
	if err != nil {
		return nil, err
	}
	if err := s.c.drain(); err != nil {
		return nil, err
	}
	return t, s.c.reachesFailure(nil, t)
}

// reachesFailure reports the error of a failed component reachable from
// the element or type a lookup returns; it walks only when something has
// failed.
func (c *compiler) reachesFailure(e *Element, t *Type) error {
	if len(c.failed) == 0 {
		return nil
	}
	seen := map[any]bool{}
	var elems []*Element
	var types []*Type
	if e != nil {
		elems = append(elems, e)
	}
	if t != nil {
		types = append(types, t)
	}
	for len(elems) > 0 || len(types) > 0 {
		if n := len(elems); n > 0 {
			el := elems[n-1]
			elems = elems[:n-1]
			if seen[el] {
				continue
			}
			seen[el] = true
			if err := c.failed[el]; err != nil {
				return err
			}
			elems = append(elems, el.Substitutes...)
			if el.Type != nil {
				types = append(types, el.Type)
			}
			continue
		}
		ty := types[len(types)-1]
		types = types[:len(types)-1]
		if seen[ty] {
			continue
		}
		seen[ty] = true
		if err := c.failed[ty]; err != nil {
			return err
		}
		types = append(types, ty.Derived...)
		if ty.Base != nil {
			types = append(types, ty.Base)
		}
		if ty.ArrayItem != nil {
			elems = append(elems, ty.ArrayItem)
		}
		elems = particleElements(elems, ty.Content)
	}
	return nil
}

func particleElements(out []*Element, p *Particle) []*Element {
	if p == nil {
		return out
	}
	if p.Element != nil {
		out = append(out, p.Element)
	}
	for _, ch := range p.Children {
		out = particleElements(out, ch)
	}
	return out
}

// MTOMHint reports whether the element declaration carried an
// xmime:expectedContentTypes attribute or has an xmime type.
func (s *Set) MTOMHint(e *Element) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.c.mime[e] || (e.Type != nil && e.Type.Name.Space == NSXMIME)
}

// HasMTOMHints reports whether anything compiled so far carried an xmime
// hint, or the set holds the xmime or XOP schema; when false no element
// needs to be checked with MTOMHint.
func (s *Set) HasMTOMHints() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.c.mime) > 0 || s.declares(NSXMIME) || s.declares(NSXOP)
}

// CompileAll compiles every global element and type, reporting the first
// error.
func (s *Set) CompileAll() error {
	for _, n := range s.Types() {
		if _, err := s.Type(n); err != nil {
			return err
		}
	}
	for _, n := range s.Elements() {
		if _, err := s.Element(n); err != nil {
			return err
		}
	}
	return nil
}

// lookup finds a component, loading the built-in schema of its namespace
// on first need (schemas often use soapenc or xml names without importing).
func (s *Set) lookup(m map[xmlstream.Name]decl, name xmlstream.Name) (decl, bool) {
	if d, ok := m[name]; ok {
		return d, true
	}
	loc, ok := WellKnownLocation(name.Space)
	if !ok || s.loaded[loc+"|"] {
		return decl{}, false
	}
	if err := s.loadSchema(context.Background(), loc, "", nil, "", 0); err != nil {
		return decl{}, false
	}
	d, ok := m[name]
	return d, ok
}

// lookupRef resolves a reference written in doc: the exact name, or, for
// an unprefixed name in a schema without default namespace, the name in
// the schema's target namespace.
func (c *compiler) lookupRef(m map[xmlstream.Name]decl, name xmlstream.Name, from decl) (xmlstream.Name, decl, bool) {
	if d, ok := c.s.lookup(m, name); ok {
		return name, d, true
	}
	if name.Space == "" && from.doc != nil && from.doc.tns != "" {
		alt := xmlstream.Name{Space: from.doc.tns, Local: name.Local}
		if d, ok := m[alt]; ok {
			return alt, d, true
		}
	}
	return name, decl{}, false
}

// drain runs queued compile work until none is left and returns the first
// error. A failed component goes back to pending, so a later lookup that
// reaches it compiles it again and reports the error again, while lookups
// that do not reach it are unaffected.
func (c *compiler) drain() error {
	var first error
	for len(c.queue) > 0 {
		job := c.queue[0]
		c.queue = c.queue[1:]
		if err := job(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// enter guards recursion depth.
func (c *compiler) enter(d decl, el *xmlstream.Element) error {
	if c.depth >= maxCompileDepth {
		return errorf(d.doc.location, el.Line, "schema nesting deeper than %d levels", maxCompileDepth)
	}
	c.depth++
	return nil
}

func (c *compiler) leave() { c.depth-- }

// refErr is the error of a reference to an undeclared component.
func refErr(from decl, el *xmlstream.Element, kind string, name xmlstream.Name) error {
	if from.doc == nil || el == nil {
		return fmt.Errorf("%s %s: %w", kind, displayName(name), ErrNotDeclared)
	}
	return errorf(from.doc.location, el.Line, "unresolved %s reference %s", kind, displayName(name))
}

// typeRef returns the (possibly not yet compiled) named type, queueing its
// compilation.
func (c *compiler) typeRef(name xmlstream.Name, from decl, at *xmlstream.Element) (*Type, error) {
	if e, ok := c.types[name]; ok {
		return e.t, nil
	}
	if st := builtinSimple(name); st != nil {
		t := &Type{Name: st.Name, Simple: st}
		c.types[name] = &typeEntry{t: t, state: stateDone}
		return t, nil
	}
	if isAnyType(name) {
		t := anyType()
		c.types[name] = &typeEntry{t: t, state: stateDone}
		return t, nil
	}
	resolved, d, ok := c.lookupRef(c.s.types, name, from)
	if !ok {
		if u := c.dangling(from, at, "type", name); u != nil {
			return AnyTypeFor(u), nil
		}
		return nil, refErr(from, at, "type", name)
	}
	if e, ok := c.types[resolved]; ok {
		if e.state == statePending && !e.queued { // its compile failed before
			e.queued = true
			c.queue = append(c.queue, func() error { e.queued = false; return c.completeType(e) })
		}
		return e.t, nil
	}
	e := &typeEntry{t: &Type{Name: resolved}, d: d, queued: true}
	c.types[resolved] = e
	c.queue = append(c.queue, func() error { e.queued = false; return c.completeType(e) })
	return e.t, nil
}

// completedType returns the named type fully compiled (for derivation).
func (c *compiler) completedType(name xmlstream.Name, from decl, at *xmlstream.Element) (*Type, error) {
	t, err := c.typeRef(name, from, at)
	if err != nil {
		return nil, err
	}
	e, ok := c.types[t.Name]
	if !ok || e.t != t {
		return t, nil // built-in
	}
	if err := c.completeType(e); err != nil {
		return nil, err
	}
	return t, nil
}

func (c *compiler) completeType(e *typeEntry) error {
	switch e.state {
	case stateDone:
		return nil
	case stateBusy:
		return errorf(e.d.doc.location, e.d.el.Line, "type %s derives from itself", displayName(e.t.Name))
	}
	e.state = stateBusy
	if err := c.enter(e.d, e.d.el); err != nil {
		e.state = statePending
		return err
	}
	defer c.leave()
	err := c.typeBody(e)
	if err != nil {
		e.state = statePending // a later lookup retries and reports the error again
		c.failed[e.t] = err
		return err
	}
	delete(c.failed, e.t)
	e.state = stateDone
	return nil
}

// typeBody compiles the definition of a named type and its Derived list.
func (c *compiler) typeBody(e *typeEntry) error {
	e.t.Derived = nil
	var err error
	if e.d.el.Name.Local == "simpleType" {
		e.t.Simple, err = c.simpleRef(e.t.Name, e.d, e.d.el)
	} else {
		err = c.complexBody(e.d, e.d.el, e.t)
	}
	if err != nil {
		return err
	}
	desc := c.descendants(e.t.Name)
	if err := c.link(e.d, len(desc)); err != nil {
		return err
	}
	for _, dn := range desc {
		dt, err := c.typeRef(dn, e.d, e.d.el)
		if err != nil {
			return err
		}
		e.t.Derived = append(e.t.Derived, dt)
	}
	return nil
}

// link accounts for n more Derived or Substitutes entries.
func (c *compiler) link(d decl, n int) error {
	c.links += n
	if c.links > maxLinks {
		return errorf(d.doc.location, d.el.Line, "more than %d derivation and substitution links", maxLinks)
	}
	return nil
}

// descendants lists the named types derived from name, transitively.
func (c *compiler) descendants(name xmlstream.Name) []xmlstream.Name {
	return closure(name, c.s.derivations)
}

// closure lists, breadth first and without repeats, every name reachable
// from start through links (start itself excluded).
func closure(start xmlstream.Name, links map[xmlstream.Name][]xmlstream.Name) []xmlstream.Name {
	var out []xmlstream.Name
	seen := map[xmlstream.Name]bool{start: true}
	queue := []xmlstream.Name{start}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, d := range links[n] {
			if !seen[d] {
				seen[d] = true
				out = append(out, d)
				queue = append(queue, d)
			}
		}
	}
	return out
}

// anyType returns the compiled xs:anyType: any content, any attributes.
func anyType() *Type {
	return &Type{
		Name:         xmlstream.Name{Space: NSXSD, Local: "anyType"},
		AnyAttribute: true,
		Mixed:        true,
		Content: &Particle{Kind: ParticleSequence, MinOccurs: 1, MaxOccurs: 1, Children: []*Particle{{
			Kind: ParticleAny, MinOccurs: 0, MaxOccurs: Unbounded,
			Wildcard: &Wildcard{Namespace: "##any", ProcessContents: "lax"},
		}}},
	}
}
