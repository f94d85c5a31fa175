// Package samples generates minimal valid JSON requests from an
// operation's contract, for backend smoke tests: required members only,
// strings "string" (fitted to length facets), the first enumeration value,
// numbers within the facets, valid lexical dates and times, one item per
// required array, the first branch of a choice. The JSON shape is the
// converter's (docs/conversion.md): attributes as "@name", simple content
// as "$value".
//
// Patterns (xs:pattern) are not satisfied in general: a sample of a
// pattern-restricted string may be refused by the backend, never by the
// converter.
package samples

import (
	"encoding/json"
	"math/big"
	"strings"

	"github.com/s2r-project/s2r/internal/xsd"
)

// maxDepth bounds recursion through recursive types; deeper required
// content is cut (the sample may then be invalid, which only recursive
// required content can cause).
const maxDepth = 24

// Options tune a sample.
type Options struct {
	// Optional fills optional elements and attributes too, down to this
	// many levels of nesting (0: required content only), and gives
	// repeated elements two items when they may have two.
	Optional int
	// Nil makes nillable elements null (xsi:nil in XML) instead of a value.
	Nil bool
}

// Request returns the minimal sample request of op as JSON.
func Request(op *xsd.Operation) (json.RawMessage, error) {
	return RequestWith(op, Options{})
}

// RequestWith returns the sample request of op as JSON.
func RequestWith(op *xsd.Operation, opts Options) (json.RawMessage, error) {
	if op == nil || op.Input == nil {
		return json.RawMessage(`{}`), nil
	}
	return json.Marshal(MessageWith(op.Input, opts))
}

// Message returns the minimal sample JSON value of a message: the
// wrapper's content for wrapped messages, otherwise one member per part.
func Message(msg *xsd.Message) map[string]any {
	return MessageWith(msg, Options{})
}

// MessageWith returns the sample JSON value of a message.
func MessageWith(msg *xsd.Message, opts Options) map[string]any {
	g := &gen{optional: opts.Optional, nil: opts.Nil}
	if msg.Wrapped && msg.Wrapper != nil && msg.Wrapper.Type != nil {
		if v, ok := g.typeValue(msg.Wrapper.Type, 0).(map[string]any); ok {
			return v
		}
		return map[string]any{}
	}
	out := map[string]any{}
	for _, p := range msg.Parts {
		switch {
		case p.Element != nil && g.nil && concrete(p.Element).Nillable:
			out[p.Name] = nil
		case p.Element != nil:
			out[p.Name] = g.elementValue(p.Element, 0)
		case p.Type != nil:
			out[p.Name] = g.typeValue(p.Type, 0)
		default:
			out[p.Name] = "string"
		}
	}
	return out
}

type gen struct {
	optional int  // depth down to which optional content is filled
	nil      bool // nillable elements are null
}

// concrete is el, or the first member of its substitution group when el
// is abstract: the element an instance holds in its place.
func concrete(el *xsd.Element) *xsd.Element {
	if el.Abstract && len(el.Substitutes) > 0 {
		return el.Substitutes[0]
	}
	return el
}

// elementValue is the value of one occurrence of el.
func (g *gen) elementValue(el *xsd.Element, depth int) any {
	el = concrete(el)
	if el.Type == nil {
		return "string"
	}
	if el.Type.IsSimple() && el.Type.Simple != nil {
		if el.Fixed != "" {
			return lexicalValue(el.Type.Simple, el.Fixed)
		}
		return g.simpleValue(el.Type.Simple)
	}
	return g.typeValue(el.Type, depth)
}

// typeValue is the JSON object of a complex type (or the value of a
// simple one).
func (g *gen) typeValue(t *xsd.Type, depth int) any {
	if t.IsSimple() && t.Simple != nil {
		return g.simpleValue(t.Simple)
	}
	if t.Abstract {
		for _, d := range t.Derived {
			if !d.Abstract {
				obj, _ := g.typeValue(d, depth).(map[string]any)
				if obj != nil && d.Name.Local != "" {
					obj["$type"] = d.Name.Local
				}
				return obj
			}
		}
	}
	obj := map[string]any{}
	if depth > maxDepth {
		return obj
	}
	for _, a := range t.Attributes {
		if !a.Required && depth >= g.optional {
			continue
		}
		switch {
		case a.Fixed != "" && a.Type != nil:
			obj["@"+a.Name.Local] = lexicalValue(a.Type, a.Fixed)
		case a.Type != nil:
			obj["@"+a.Name.Local] = g.simpleValue(a.Type)
		default:
			obj["@"+a.Name.Local] = "string"
		}
	}
	if t.Simple != nil {
		obj["$value"] = g.simpleValue(t.Simple)
	}
	if t.ArrayItem != nil {
		// SOAP-encoded array: the JSON is the array itself.
		return []any{g.elementValue(t.ArrayItem, depth+1)}
	}
	if t.Content != nil {
		c := content{obj: obj, arrays: repeatedNames(t.Content)}
		g.particle(&c, t.Content, depth+1, false)
	}
	return obj
}

// content is the JSON object of a content model being filled.
type content struct {
	obj map[string]any
	// arrays are the members that are JSON arrays whatever their own
	// maxOccurs: elements declared more than once in the content model
	// (the converter merges them into one repeated member).
	arrays map[string]bool
}

// particle adds the content of p to c: the required content, and the
// optional content down to the optional depth. rep is set inside a
// repeated group, whose elements are JSON arrays (docs/conversion.md
// section 3).
func (g *gen) particle(c *content, p *xsd.Particle, depth int, rep bool) {
	if p.MinOccurs == 0 && depth > g.optional {
		return
	}
	switch p.Kind {
	case xsd.ParticleElement:
		el := concrete(p.Element)
		name := el.Name.Local
		var v any
		if !g.nil || !el.Nillable {
			v = g.elementValue(el, depth)
		}
		if !rep && !p.Repeated() && !c.arrays[name] {
			c.obj[name] = v
			return
		}
		n := max(p.MinOccurs, 1)
		if depth <= g.optional && (p.MaxOccurs == xsd.Unbounded || p.MaxOccurs > 1 || rep) {
			n = max(n, 2)
		}
		items, _ := c.obj[name].([]any)
		for range n {
			items = append(items, v)
		}
		c.obj[name] = items
	case xsd.ParticleSequence, xsd.ParticleAll:
		for _, ch := range p.Children {
			g.particle(c, ch, depth, rep || p.Repeated())
		}
	case xsd.ParticleChoice:
		if len(p.Children) > 0 {
			g.particle(c, p.Children[0], depth, rep || p.Repeated())
		}
	}
}

// repeatedNames lists the element names declared more than once in a
// content model (substitution group members included).
func repeatedNames(p *xsd.Particle) map[string]bool {
	count := map[string]int{}
	var walk func(p *xsd.Particle)
	walk = func(p *xsd.Particle) {
		switch p.Kind {
		case xsd.ParticleElement:
			count[p.Element.Name.Local]++
			for _, s := range p.Element.Substitutes {
				count[s.Name.Local]++
			}
		case xsd.ParticleSequence, xsd.ParticleAll, xsd.ParticleChoice:
			for _, ch := range p.Children {
				walk(ch)
			}
		}
	}
	walk(p)
	var out map[string]bool
	for name, n := range count {
		if n > 1 {
			if out == nil {
				out = map[string]bool{}
			}
			out[name] = true
		}
	}
	return out
}

// simpleValue is a valid value of st.
func (g *gen) simpleValue(st *xsd.SimpleType) any {
	switch {
	case st.List != nil:
		return []any{g.simpleValue(st.List)}
	case len(st.Union) > 0:
		return g.simpleValue(st.Union[0])
	case len(st.Enumeration) > 0:
		return lexicalValue(st, st.Enumeration[0])
	}
	switch st.Kind {
	case xsd.JSONBoolean:
		return true
	case xsd.JSONInteger:
		return json.Number(integerValue(st))
	case xsd.JSONNumber:
		return json.Number(decimalValue(st))
	}
	return stringValue(st)
}

// lexicalValue is the JSON form of a lexical value of st.
func lexicalValue(st *xsd.SimpleType, lexical string) any {
	switch st.Kind {
	case xsd.JSONBoolean:
		return lexical == "true" || lexical == "1"
	case xsd.JSONInteger, xsd.JSONNumber:
		if json.Valid([]byte(strings.TrimSpace(lexical))) {
			return json.Number(strings.TrimSpace(lexical))
		}
	}
	return lexical
}

// builtinStrings are valid lexical forms of the string-kind built-ins
// whose lexical space "string" is not in.
var builtinStrings = map[string]string{
	"date": "2024-01-01", "dateTime": "2024-01-01T00:00:00Z", "dateTimeStamp": "2024-01-01T00:00:00Z",
	"time": "00:00:00", "duration": "P1D", "dayTimeDuration": "P1D", "yearMonthDuration": "P1Y",
	"gYear": "2024", "gYearMonth": "2024-01", "gMonth": "--01", "gDay": "---01", "gMonthDay": "--01-01",
	"base64Binary": "AAAA", "hexBinary": "00", "anyURI": "http://example.com/", "language": "en",
	"QName": "string", "float": "1", "double": "1",
}

// stringValue is "string" (or the built-in's sample) fitted to the length
// facets.
func stringValue(st *xsd.SimpleType) string {
	s := "string"
	if v, ok := builtinStrings[st.Builtin]; ok {
		return v
	}
	lo, hi := 0, -1
	if st.Length != nil {
		lo, hi = *st.Length, *st.Length
	}
	if st.MinLength != nil {
		lo = *st.MinLength
	}
	if st.MaxLength != nil {
		hi = *st.MaxLength
	}
	for len(s) < lo {
		s += "x"
	}
	if hi >= 0 && len(s) > hi {
		s = s[:hi]
	}
	return s
}

// integerValue is 1, moved inside the type's range and facets.
func integerValue(st *xsd.SimpleType) string {
	v := big.NewInt(1)
	switch st.Builtin {
	case "nonPositiveInteger":
		v.SetInt64(0)
	case "negativeInteger":
		v.SetInt64(-1)
	}
	if lo, ok := bigInt(st.MinInclusive); ok && v.Cmp(lo) < 0 {
		v = lo
	}
	if lo, ok := bigInt(st.MinExclusive); ok && v.Cmp(lo) <= 0 {
		v = lo.Add(lo, big.NewInt(1))
	}
	if hi, ok := bigInt(st.MaxInclusive); ok && v.Cmp(hi) > 0 {
		v = hi
	}
	if hi, ok := bigInt(st.MaxExclusive); ok && v.Cmp(hi) >= 0 {
		v = hi.Sub(hi, big.NewInt(1))
	}
	return v.String()
}

// decimalValue is 1, moved inside the facets.
func decimalValue(st *xsd.SimpleType) string {
	v := big.NewRat(1, 1)
	if lo, ok := bigRat(st.MinInclusive); ok && v.Cmp(lo) < 0 {
		v = lo
	}
	if lo, ok := bigRat(st.MinExclusive); ok && v.Cmp(lo) <= 0 {
		v = new(big.Rat).Add(lo, big.NewRat(1, 2))
		if hi, ok := bigRat(st.MaxExclusive); ok && v.Cmp(hi) >= 0 {
			v = new(big.Rat).Quo(new(big.Rat).Add(lo, hi), big.NewRat(2, 1))
		}
	}
	if hi, ok := bigRat(st.MaxInclusive); ok && v.Cmp(hi) > 0 {
		v = hi
	}
	if hi, ok := bigRat(st.MaxExclusive); ok && v.Cmp(hi) >= 0 {
		v = new(big.Rat).Sub(hi, big.NewRat(1, 2))
	}
	if v.IsInt() {
		return v.Num().String()
	}
	return strings.TrimRight(strings.TrimRight(v.FloatString(10), "0"), ".")
}

func bigInt(lexical string) (*big.Int, bool) {
	if lexical == "" {
		return nil, false
	}
	v, ok := new(big.Int).SetString(strings.TrimPrefix(strings.TrimSpace(lexical), "+"), 10)
	return v, ok
}

func bigRat(lexical string) (*big.Rat, bool) {
	if lexical == "" {
		return nil, false
	}
	v, ok := new(big.Rat).SetString(strings.TrimSpace(lexical))
	return v, ok
}
