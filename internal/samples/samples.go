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

// Request returns the minimal sample request of op as JSON.
func Request(op *xsd.Operation) (json.RawMessage, error) {
	if op == nil || op.Input == nil {
		return json.RawMessage(`{}`), nil
	}
	return json.Marshal(Message(op.Input))
}

// Message returns the sample JSON value of a message: the wrapper's
// content for wrapped messages, otherwise one member per part.
func Message(msg *xsd.Message) map[string]any {
	g := &gen{}
	if msg.Wrapped && msg.Wrapper != nil && msg.Wrapper.Type != nil {
		if v, ok := g.typeValue(msg.Wrapper.Type, 0).(map[string]any); ok {
			return v
		}
		return map[string]any{}
	}
	out := map[string]any{}
	for _, p := range msg.Parts {
		switch {
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

type gen struct{}

// elementValue is the value of one occurrence of el.
func (g *gen) elementValue(el *xsd.Element, depth int) any {
	if el.Abstract && len(el.Substitutes) > 0 {
		el = el.Substitutes[0]
	}
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
		if !a.Required {
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
		g.particle(obj, t.Content, depth+1)
	}
	return obj
}

// particle adds the required content of p to obj.
func (g *gen) particle(obj map[string]any, p *xsd.Particle, depth int) {
	if p.MinOccurs == 0 {
		return
	}
	switch p.Kind {
	case xsd.ParticleElement:
		v := g.elementValue(p.Element, depth)
		if p.Repeated() {
			n := max(p.MinOccurs, 1)
			items := make([]any, n)
			for i := range items {
				items[i] = v
			}
			obj[p.Element.Name.Local] = items
			return
		}
		obj[p.Element.Name.Local] = v
	case xsd.ParticleSequence, xsd.ParticleAll:
		for _, c := range p.Children {
			g.particle(obj, c, depth)
		}
	case xsd.ParticleChoice:
		if len(p.Children) > 0 {
			g.particle(obj, p.Children[0], depth)
		}
	}
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
