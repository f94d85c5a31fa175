package xsd

import (
	"strconv"

	"github.com/s2r-project/s2r/internal/xmlstream"
)

// JSONSchemaOptions tune the JSON Schema of a message.
type JSONSchemaOptions struct {
	// RefPrefix is prepended to definition names in "$ref" values; the
	// default "#/$defs/" suits a standalone document. An OpenAPI generator
	// that hoists Defs into components uses "#/components/schemas/".
	RefPrefix string
}

// JSONSchemaDoc is the JSON Schema (draft 2020-12) of the JSON shape of a
// message, as the converter reads and writes it (docs/conversion.md).
type JSONSchemaDoc struct {
	// Root is the schema of the message's JSON object.
	Root map[string]any
	// Defs holds one schema per named complex type (and per recursive
	// anonymous type), referenced from Root with "$ref".
	Defs map[string]any
}

// Document returns a standalone schema: Root with "$schema" and "$defs".
func (d *JSONSchemaDoc) Document() map[string]any {
	doc := map[string]any{"$schema": "https://json-schema.org/draft/2020-12/schema"}
	for k, v := range d.Root {
		doc[k] = v
	}
	if len(d.Defs) > 0 {
		doc["$defs"] = d.Defs
	}
	return doc
}

// MessageJSONSchema builds the JSON Schema of msg's JSON shape: for a
// wrapped message the content of the wrapper element, otherwise an object
// with one member per part.
func MessageJSONSchema(msg *Message, opts JSONSchemaOptions) *JSONSchemaDoc {
	g := NewJSONSchemaGenerator(opts)
	return &JSONSchemaDoc{Root: g.Message(msg), Defs: g.Defs()}
}

// JSONSchemaGenerator builds the schemas of many messages (every operation
// of a service) sharing one set of definitions, so that a type used by
// several messages is defined once, under one name. It is not safe for
// concurrent use.
type JSONSchemaGenerator struct{ g *schemaGen }

// NewJSONSchemaGenerator returns a generator with an empty set of
// definitions.
func NewJSONSchemaGenerator(opts JSONSchemaOptions) *JSONSchemaGenerator {
	if opts.RefPrefix == "" {
		opts.RefPrefix = "#/$defs/"
	}
	return &JSONSchemaGenerator{g: &schemaGen{opts: opts, defs: map[string]any{}, names: map[*Type]string{}, used: map[string]bool{}, busy: map[*Type]bool{}}}
}

// Message returns the schema of msg's JSON object, adding the definitions
// it references.
func (jg *JSONSchemaGenerator) Message(msg *Message) map[string]any {
	if msg.Wrapped && msg.Wrapper != nil && msg.Wrapper.Type != nil {
		return jg.g.objectSchema(msg.Wrapper.Type, "")
	}
	return jg.g.partsSchema(msg)
}

// Headers returns the schema of msg's header parts (one optional member
// per part), or nil when there are none.
func (jg *JSONSchemaGenerator) Headers(msg *Message) map[string]any {
	if msg == nil || len(msg.Headers) == 0 {
		return nil
	}
	root := jg.g.partsSchema(&Message{Parts: msg.Headers})
	delete(root, "required")
	return root
}

// Defs returns the definitions built so far, by name.
func (jg *JSONSchemaGenerator) Defs() map[string]any { return jg.g.defs }

// schemaGen builds schemas, one definition per named type.
type schemaGen struct {
	opts  JSONSchemaOptions
	defs  map[string]any
	names map[*Type]string // definition name of each type given one
	used  map[string]bool
	busy  map[*Type]bool // anonymous types being built (recursion)
}

func (g *schemaGen) partsSchema(msg *Message) map[string]any {
	props := map[string]any{}
	var required []string
	rpc := msg.Wrapper != nil && !msg.Wrapped
	for _, p := range msg.Parts {
		var s map[string]any
		if p.Element != nil {
			s = g.elementSchema(p.Element)
		} else {
			s = g.typeUse(p.Type)
			if rpc {
				s = nullable(s)
			}
		}
		props[p.Name] = s
		required = append(required, p.Name)
	}
	out := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		out["required"] = required
	}
	return out
}

// elementSchema is the schema of one occurrence of el.
func (g *schemaGen) elementSchema(el *Element) map[string]any {
	s := g.typeUse(el.Type)
	if el.Nillable {
		s = nullable(s)
	}
	return s
}

// typeUse is the schema where a value of declared type t appears: its own
// schema, or a oneOf of it and its derived types selected by "$type".
func (g *schemaGen) typeUse(t *Type) map[string]any {
	if t == nil || isAnyType(t.Name) {
		return map[string]any{}
	}
	if t.ArrayItem != nil {
		return map[string]any{"type": "array", "items": g.elementSchema(t.ArrayItem)}
	}
	if t.IsSimple() {
		return simpleSchema(t.Simple)
	}
	base := g.typeRef(t)
	if len(t.Derived) == 0 {
		return base
	}
	var alts []any
	if !t.Abstract {
		alts = append(alts, base)
	}
	for _, d := range t.Derived {
		alt := g.typeRef(d)
		alt["required"] = []string{"$type"}
		alts = append(alts, alt)
	}
	return map[string]any{"oneOf": alts}
}

// typeRef returns a "$ref" to the definition of a complex type, building
// it once; anonymous types are inlined unless recursive.
func (g *schemaGen) typeRef(t *Type) map[string]any {
	if name, ok := g.names[t]; ok {
		return map[string]any{"$ref": g.opts.RefPrefix + name}
	}
	if t.Name.Local == "" {
		if g.busy[t] {
			name := g.defName(xmlstream.Name{Local: "Anonymous"})
			g.names[t] = name
			return map[string]any{"$ref": g.opts.RefPrefix + name}
		}
		g.busy[t] = true
		s := g.objectSchema(t, "")
		delete(g.busy, t)
		if name, ok := g.names[t]; ok {
			g.defs[name] = s
			return map[string]any{"$ref": g.opts.RefPrefix + name}
		}
		return s
	}
	name := g.defName(t.Name)
	g.names[t] = name
	g.defs[name] = map[string]any{} // placeholder against recursion
	g.defs[name] = g.objectSchema(t, t.Name.Local)
	return map[string]any{"$ref": g.opts.RefPrefix + name}
}

// defName picks a unique definition name for a type name.
func (g *schemaGen) defName(n xmlstream.Name) string {
	name := n.Local
	for i := 2; g.used[name]; i++ {
		name = n.Local + "_" + strconv.Itoa(i)
	}
	g.used[name] = true
	return name
}
