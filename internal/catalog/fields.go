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

// Shape is the field tree of one message, flattened in document order,
// with what the walk met that a mapping cannot describe exactly.
type Shape struct {
	Fields    []Field
	Any       bool // xs:any, xs:anyType or xs:anyAttribute content
	Recursive bool // a type contains itself; the walk stopped there
	Truncated bool // deeper than maxFieldDepth or more than maxFields fields
	byPath    map[string]int
}

// Walk limits: a contract deeper or wider than this is still imported, but
// its mapping is diagnosed with a warning.
const (
	maxFieldDepth = 16
	maxFields     = 5000
)

// Has reports whether the shape has a field at path.
func (s *Shape) Has(path string) bool {
	_, ok := s.byPath[path]
	return ok
}

// Field returns the field at path.
func (s *Shape) Field(path string) (Field, bool) {
	i, ok := s.byPath[path]
	if !ok {
		return Field{}, false
	}
	return s.Fields[i], true
}

// TopLevel reports whether path names a member of the message root.
func TopLevel(path string) bool { return path != "" && !strings.Contains(path, "/") }

// MessageShape returns the field tree of msg; an empty shape for nil.
func MessageShape(msg *xsd.Message) *Shape {
	w := &shapeWalker{shape: &Shape{byPath: map[string]int{}}, onPath: map[*xsd.Type]bool{}}
	if msg == nil {
		return w.shape
	}
	if msg.Wrapped && msg.Wrapper != nil {
		w.walkType(msg.Wrapper.Type, "", 0)
		return w.shape
	}
	for _, p := range msg.Parts {
		t := p.Type
		if p.Element != nil {
			t = p.Element.Type
		}
		w.add(p.Name, t, true, false, 0)
	}
	return w.shape
}

type shapeWalker struct {
	shape  *Shape
	onPath map[*xsd.Type]bool
}

// add records the member name (of type t) under its parent path and walks
// into it.
func (w *shapeWalker) add(path string, t *xsd.Type, required, repeated bool, depth int) {
	if _, dup := w.shape.byPath[path]; dup {
		return
	}
	if len(w.shape.Fields) >= maxFields {
		w.shape.Truncated = true
		return
	}
	w.shape.byPath[path] = len(w.shape.Fields)
	w.shape.Fields = append(w.shape.Fields, Field{Path: path, Type: typeName(t), Required: required, Repeated: repeated})
	if t != nil && !t.IsSimple() {
		w.walkType(t, path, depth+1)
	}
}

// walkType walks the attributes and content of complex type t below prefix.
func (w *shapeWalker) walkType(t *xsd.Type, prefix string, depth int) {
	if t == nil {
		return
	}
	if isAny(t) || t.AnyAttribute {
		w.shape.Any = true
	}
	if w.onPath[t] {
		w.shape.Recursive = true
		return
	}
	if depth > maxFieldDepth {
		w.shape.Truncated = true
		return
	}
	w.onPath[t] = true
	defer delete(w.onPath, t)
	for _, a := range t.Attributes {
		w.addSimple(join(prefix, "@"+a.Name.Local), simpleName(a.Type), a.Required)
	}
	if t.Simple != nil && !t.IsSimple() {
		w.addSimple(join(prefix, "$value"), simpleName(t.Simple), false)
	}
	if t.Content != nil {
		w.walkParticle(t.Content, prefix, depth, true, false)
	}
}

func (w *shapeWalker) addSimple(path, typ string, required bool) {
	if _, dup := w.shape.byPath[path]; dup || len(w.shape.Fields) >= maxFields {
		return
	}
	w.shape.byPath[path] = len(w.shape.Fields)
	w.shape.Fields = append(w.shape.Fields, Field{Path: path, Type: typ, Required: required})
}

// walkParticle walks a content particle; required and repeated carry what
// the enclosing groups imply.
func (w *shapeWalker) walkParticle(p *xsd.Particle, prefix string, depth int, required, repeated bool) {
	required = required && p.MinOccurs >= 1
	repeated = repeated || p.Repeated()
	switch p.Kind {
	case xsd.ParticleElement:
		if p.Element == nil {
			return
		}
		w.add(join(prefix, p.Element.Name.Local), p.Element.Type, required, repeated, depth)
		for _, sub := range p.Element.Substitutes {
			w.add(join(prefix, sub.Name.Local), sub.Type, false, repeated, depth)
		}
	case xsd.ParticleAny:
		w.shape.Any = true
	case xsd.ParticleChoice:
		for _, c := range p.Children {
			w.walkParticle(c, prefix, depth, false, repeated)
		}
	default:
		for _, c := range p.Children {
			w.walkParticle(c, prefix, depth, required, repeated)
		}
	}
}

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
