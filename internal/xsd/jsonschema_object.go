package xsd

// objectSchema is the schema of the JSON object of complex type t. A named
// type in a derivation hierarchy allows "$type" naming itself.
func (g *schemaGen) objectSchema(t *Type, typeName string) map[string]any {
	o := &objectBuilder{g: g, props: map[string]any{}}
	if typeName != "" && (t.Base != nil && t.Base.Simple == nil || len(t.Derived) > 0) {
		o.props["$type"] = map[string]any{"const": typeName}
	}
	for _, a := range t.Attributes {
		o.props["@"+a.Name.Local] = simpleSchema(a.Type)
		if a.Required {
			o.required = append(o.required, "@"+a.Name.Local)
		}
	}
	if t.Simple != nil {
		o.props["$value"] = simpleSchema(t.Simple)
		o.required = append(o.required, "$value")
	} else if t.Mixed {
		o.props["$value"] = map[string]any{"type": "string"}
	}
	if t.Content != nil {
		o.particle(t.Content, false, true)
	}
	out := map[string]any{"type": "object", "properties": o.props, "additionalProperties": false}
	if t.AnyAttribute {
		out["patternProperties"] = map[string]any{"^@": map[string]any{"type": "string"}}
	}
	if o.wildcard {
		o.props["$xml"] = map[string]any{"type": "string", "contentMediaType": "application/xml"}
	}
	if len(o.required) > 0 {
		out["required"] = o.required
	}
	if len(o.choices) > 0 {
		out["allOf"] = o.choices
	}
	return out
}

// objectBuilder collects the members of one object schema.
type objectBuilder struct {
	g        *schemaGen
	props    map[string]any
	required []string
	choices  []any
	wildcard bool
	names    []string // member names in order, for choice branches
	arrays   []string // members that are arrays
}

// present is the schema "member n is present": required, and non-empty
// for arrays (absent repeated elements are written as []).
func (o *objectBuilder) present(n string) map[string]any {
	for _, a := range o.arrays {
		if a == n {
			return map[string]any{"required": []string{n}, "properties": map[string]any{n: map[string]any{"minItems": 1}}}
		}
	}
	return map[string]any{"required": []string{n}}
}

// particle adds the members of a content particle (DESIGN 5: flattened, in
// schema order; repeated anywhere → array).
func (o *objectBuilder) particle(p *Particle, repeated, required bool) {
	rep := repeated || p.Repeated()
	req := required && p.MinOccurs > 0
	switch p.Kind {
	case ParticleElement:
		if !p.Element.Abstract {
			o.element(p, p.Element, repeated, req && len(p.Element.Substitutes) == 0)
		}
		for _, s := range p.Element.Substitutes {
			o.element(p, s, repeated, false)
		}
	case ParticleSequence, ParticleAll:
		for _, c := range p.Children {
			o.particle(c, rep, req)
		}
	case ParticleChoice:
		var branches [][]string
		for _, c := range p.Children {
			from := len(o.names)
			o.particle(c, rep, false)
			names := append([]string(nil), o.names[from:]...)
			if c.Kind == ParticleAny {
				names = append(names, "$xml")
			}
			branches = append(branches, names)
		}
		if !rep {
			o.choice(branches, !req || Emptiable(p))
		}
	case ParticleAny:
		o.wildcard = true
	}
}

func (o *objectBuilder) element(p *Particle, el *Element, outerRepeated, required bool) {
	name := el.Name.Local
	s := o.g.elementSchema(el)
	if prev, ok := o.props[name]; ok {
		// The same name twice in the content model: one array member.
		if pm, ok := prev.(map[string]any); ok && pm["type"] == "array" {
			return
		}
		o.props[name] = map[string]any{"type": "array", "items": s}
		return
	}
	o.names = append(o.names, name)
	if outerRepeated || p.Repeated() {
		o.arrays = append(o.arrays, name)
		arr := map[string]any{"type": "array", "items": s}
		if !outerRepeated {
			if required && p.MinOccurs > 0 {
				arr["minItems"] = p.MinOccurs
			}
			if p.MaxOccurs != Unbounded {
				arr["maxItems"] = p.MaxOccurs
			}
		}
		o.props[name] = arr
		return
	}
	o.props[name] = s
	if required {
		o.required = append(o.required, name)
	}
}

// choice adds "exactly one branch present" (or none, when optional).
func (o *objectBuilder) choice(branches [][]string, optional bool) {
	var alts []any
	var present []any
	for _, b := range branches {
		if len(b) == 0 {
			continue
		}
		var opts []any
		for _, n := range b {
			opts = append(opts, o.present(n))
		}
		var has map[string]any
		if len(opts) == 1 {
			has = opts[0].(map[string]any)
		} else {
			has = map[string]any{"anyOf": opts}
		}
		present = append(present, has)
	}
	if len(present) == 0 {
		return
	}
	alts = append(alts, present...)
	if optional {
		alts = append(alts, map[string]any{"not": map[string]any{"anyOf": present}})
	}
	o.choices = append(o.choices, map[string]any{"oneOf": alts})
}

// nullable lets s also be null (nillable elements).
func nullable(s map[string]any) map[string]any {
	if t, ok := s["type"].(string); ok && len(s) == 1 {
		return map[string]any{"type": []string{t, "null"}}
	}
	return map[string]any{"anyOf": []any{s, map[string]any{"type": "null"}}}
}

// Emptiable reports whether p can match nothing: then a choice containing
// an emptiable branch is satisfied by no element at all.
func Emptiable(p *Particle) bool {
	if p.MinOccurs == 0 {
		return true
	}
	switch p.Kind {
	case ParticleSequence, ParticleAll:
		for _, c := range p.Children {
			if !Emptiable(c) {
				return false
			}
		}
		return true
	case ParticleChoice:
		for _, c := range p.Children {
			if Emptiable(c) {
				return true
			}
		}
	}
	return false
}
