package catalog

import (
	"strings"

	"github.com/s2r-project/s2r/internal/xsd"
)

// Field is one member of the JSON shape of an operation message (DESIGN 5),
// named by its contract path: the member names from the message root joined
// by "/", e.g. "order/items/sku"; attributes are "@name" and simple content
// is "$value".
type Field struct {
	Path string `json:"path"`
	// Type is the built-in XSD type of a simple value ("string", "int", …),
	// "object" for complex content and "any" for wildcard content.
	Type     string `json:"type"`
	Required bool   `json:"required"` // required in its parent (minOccurs ≥ 1 outside a choice)
	Repeated bool   `json:"repeated"` // a JSON array
}

// Walk limits: a contract deeper or wider than this is still imported, but
// its mapping is diagnosed with a warning, and Fields stops there.
const (
	maxFieldDepth = 16
	maxFields     = 5000
)

// Shape is the JSON shape of one message (or of several, for faults). It
// is lazy: a path is resolved by walking its segments, the flags by one
// visit of the reachable types, and the full field list only when asked,
// so checking a mapping costs what the mapping names, not the size of the
// contract.
type Shape struct {
	roots  []member
	types  *typeCache
	flags  *shapeFlags
	fields []Field
	byPath map[string]int
}

// typeCache holds what is known per complex type: its members and its
// flags. Shapes of one assessment share it, so each type is examined once.
type typeCache struct {
	children map[*xsd.Type][]member
	wildcard map[*xsd.Type]bool // the type's own content has xs:any
	state    map[*xsd.Type]uint8
	info     map[*xsd.Type]typeFlags
}

// typeFlags are the flags of everything below a type.
type typeFlags struct {
	any, recursive bool
	depth          int
}

func newTypeCache() *typeCache {
	return &typeCache{children: map[*xsd.Type][]member{}, wildcard: map[*xsd.Type]bool{},
		state: map[*xsd.Type]uint8{}, info: map[*xsd.Type]typeFlags{}}
}

// member is one JSON member: an element, attribute or simple content.
type member struct {
	name               string
	typ                *xsd.Type // nil for attributes and simple content
	simple             string    // type name when typ is nil
	required, repeated bool
}

type shapeFlags struct{ any, recursive, truncated bool }

// MessageShape returns the shape of msg; an empty shape for nil.
func MessageShape(msg *xsd.Message) *Shape {
	s := newShape()
	s.addMessage(msg)
	return s
}

func newShape() *Shape { return &Shape{types: newTypeCache()} }

// addMessage adds the members of msg's root to the shape's roots.
func (s *Shape) addMessage(msg *xsd.Message) {
	if msg == nil {
		return
	}
	if msg.Wrapped && msg.Wrapper != nil {
		if t := msg.Wrapper.Type; t != nil {
			s.roots = append(s.roots, s.membersOf(t)...)
			s.roots = append(s.roots, member{name: "", typ: t}) // anchor for flags; unnamed, never matched
		}
		return
	}
	for _, p := range msg.Parts {
		t := p.Type
		if p.Element != nil {
			t = p.Element.Type
		}
		s.roots = append(s.roots, member{name: p.Name, typ: t, simple: typeName(t), required: true})
	}
}

// membersOf returns the members of complex type t, computed once.
func (s *Shape) membersOf(t *xsd.Type) []member { return s.types.membersOf(t) }

// membersOf returns the members of complex type t, computed once.
func (c *typeCache) membersOf(t *xsd.Type) []member {
	if ms, ok := c.children[t]; ok {
		return ms
	}
	var ms []member
	for _, a := range t.Attributes {
		ms = append(ms, member{name: "@" + a.Name.Local, simple: simpleName(a.Type), required: a.Required})
	}
	if t.Simple != nil && !t.IsSimple() {
		ms = append(ms, member{name: "$value", simple: simpleName(t.Simple)})
	}
	if t.Content != nil {
		ms = c.particleMembers(t, t.Content, ms, true, false)
	}
	c.children[t] = ms
	return ms
}

// particleMembers appends the element members of a content particle.
func (c *typeCache) particleMembers(owner *xsd.Type, p *xsd.Particle, ms []member, required, repeated bool) []member {
	required = required && p.MinOccurs >= 1
	repeated = repeated || p.Repeated()
	switch p.Kind {
	case xsd.ParticleElement:
		if p.Element == nil {
			return ms
		}
		ms = append(ms, member{name: p.Element.Name.Local, typ: p.Element.Type, simple: typeName(p.Element.Type),
			required: required, repeated: repeated})
		for _, sub := range p.Element.Substitutes {
			ms = append(ms, member{name: sub.Name.Local, typ: sub.Type, simple: typeName(sub.Type), repeated: repeated})
		}
	case xsd.ParticleAny:
		c.wildcard[owner] = true
	case xsd.ParticleChoice:
		for _, ch := range p.Children {
			ms = c.particleMembers(owner, ch, ms, false, repeated)
		}
	default:
		for _, ch := range p.Children {
			ms = c.particleMembers(owner, ch, ms, required, repeated)
		}
	}
	return ms
}

// complex reports whether m has members of its own.
func (m member) complex() bool { return m.typ != nil && !m.typ.IsSimple() }

// lookup resolves a contract path.
func (s *Shape) lookup(path string) (member, bool) {
	if path == "" {
		return member{}, false
	}
	ms := s.roots
	segs := strings.Split(path, "/")
	for i, seg := range segs {
		var found *member
		for j := range ms {
			if ms[j].name == seg && seg != "" {
				found = &ms[j]
				break
			}
		}
		if found == nil {
			return member{}, false
		}
		if i == len(segs)-1 {
			return *found, true
		}
		if !found.complex() {
			return member{}, false
		}
		ms = s.membersOf(found.typ)
	}
	return member{}, false
}

// Has reports whether the shape has a field at path.
func (s *Shape) Has(path string) bool {
	_, ok := s.lookup(path)
	return ok
}

// Field returns the field at path.
func (s *Shape) Field(path string) (Field, bool) {
	m, ok := s.lookup(path)
	if !ok {
		return Field{}, false
	}
	return Field{Path: path, Type: m.simple, Required: m.required, Repeated: m.repeated}, true
}

// Any reports xs:any, xs:anyType or xs:anyAttribute content anywhere.
func (s *Shape) Any() bool { return s.flagSet().any }

// Recursive reports a type that contains itself.
func (s *Shape) Recursive() bool { return s.flagSet().recursive }

// Truncated reports content nested deeper than 16 levels, or more than
// 5000 fields once Fields was called.
func (s *Shape) Truncated() bool { return s.flagSet().truncated }

// flagSet combines the flags of the root types.
func (s *Shape) flagSet() *shapeFlags {
	if s.flags != nil {
		return s.flags
	}
	f := &shapeFlags{}
	for _, m := range s.roots {
		if m.typ != nil && (isAny(m.typ) || m.typ.AnyAttribute) {
			f.any = true
		}
		if m.complex() {
			tf := s.types.visit(m.typ)
			f.any, f.recursive = f.any || tf.any, f.recursive || tf.recursive
			f.truncated = f.truncated || tf.depth > maxFieldDepth
		}
	}
	s.flags = f
	return f
}

// visit returns the flags below t, computing them once per type.
func (c *typeCache) visit(t *xsd.Type) typeFlags {
	switch c.state[t] {
	case 1:
		return typeFlags{recursive: true}
	case 2:
		return c.info[t]
	}
	c.state[t] = 1
	f := typeFlags{any: isAny(t) || t.AnyAttribute}
	for _, m := range c.membersOf(t) {
		if m.complex() {
			cf := c.visit(m.typ)
			f.any, f.recursive, f.depth = f.any || cf.any, f.recursive || cf.recursive, max(f.depth, cf.depth)
		}
	}
	f.any = f.any || c.wildcard[t]
	f.depth++
	c.state[t], c.info[t] = 2, f
	return f
}

// Fields lists every field in document order, cut at recursion, at 16
// levels and at 5000 fields.
func (s *Shape) Fields() []Field {
	if s.byPath != nil {
		return s.fields
	}
	s.byPath = map[string]int{}
	onPath := map[*xsd.Type]bool{}
	var walk func(ms []member, prefix string, depth int)
	walk = func(ms []member, prefix string, depth int) {
		for _, m := range ms {
			if m.name == "" {
				continue
			}
			path := join(prefix, m.name)
			if _, dup := s.byPath[path]; dup {
				continue
			}
			if len(s.fields) >= maxFields {
				s.flagSet().truncated = true
				return
			}
			s.byPath[path] = len(s.fields)
			s.fields = append(s.fields, Field{Path: path, Type: m.simple, Required: m.required, Repeated: m.repeated})
			if !m.complex() || onPath[m.typ] {
				continue
			}
			if depth >= maxFieldDepth {
				s.flagSet().truncated = true
				continue
			}
			onPath[m.typ] = true
			walk(s.membersOf(m.typ), path, depth+1)
			delete(onPath, m.typ)
		}
	}
	walk(s.roots, "", 0)
	return s.fields
}

// shapes caches message shapes for one assessment, so a message's flags and
// members are computed once however many checks look at it; the entry for
// nil holds the type cache they share.
type shapes map[*xsd.Message]*Shape

// of returns the shape of msg.
func (c shapes) of(msg *xsd.Message) *Shape {
	if s, ok := c[msg]; ok {
		return s
	}
	types, ok := c[nil]
	if !ok {
		types = newShape()
		c[nil] = types
	}
	s := &Shape{types: types.types}
	s.addMessage(msg)
	c[msg] = s
	return s
}

// TopLevel reports whether path names a member of the message root.
func TopLevel(path string) bool { return path != "" && !strings.Contains(path, "/") }

func join(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "/" + name
}

func isAny(t *xsd.Type) bool { return t.Name.Local == "anyType" && t.Name.Space == xsd.NSXSD }

// typeName names the JSON-relevant type of t for fields and drift.
func typeName(t *xsd.Type) string {
	switch {
	case t == nil:
		return "any"
	case isAny(t):
		return "any"
	case t.IsSimple():
		return simpleName(t.Simple)
	}
	return "object"
}

func simpleName(st *xsd.SimpleType) string {
	switch {
	case st == nil:
		return "string"
	case st.List != nil:
		return "list of " + simpleName(st.List)
	case len(st.Union) > 0:
		return "union"
	case st.Builtin == "":
		return "string"
	}
	return st.Builtin
}
