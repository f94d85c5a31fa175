package xsd

import (
	"encoding/json"
	"regexp"
	"strings"
)

// integerBounds are the value ranges of the bounded built-in integers.
var integerBounds = map[string][2]string{
	"byte": {"-128", "127"}, "short": {"-32768", "32767"},
	"int": {"-2147483648", "2147483647"}, "long": {"-9223372036854775808", "9223372036854775807"},
	"unsignedByte": {"0", "255"}, "unsignedShort": {"0", "65535"},
	"unsignedInt": {"0", "4294967295"}, "unsignedLong": {"0", "18446744073709551615"},
	"nonNegativeInteger": {"0", ""}, "positiveInteger": {"1", ""},
	"nonPositiveInteger": {"", "0"}, "negativeInteger": {"", "-1"},
}

// simpleSchema is the schema of a simple value of type st.
func simpleSchema(st *SimpleType) map[string]any {
	if st == nil {
		return map[string]any{"type": "string"}
	}
	if st.List != nil {
		s := map[string]any{"type": "array", "items": simpleSchema(st.List)}
		if st.Length != nil {
			s["minItems"], s["maxItems"] = *st.Length, *st.Length
		}
		if st.MinLength != nil {
			s["minItems"] = *st.MinLength
		}
		if st.MaxLength != nil {
			s["maxItems"] = *st.MaxLength
		}
		return s
	}
	if len(st.Union) > 0 {
		var alts []any
		for _, m := range st.Union {
			alts = append(alts, simpleSchema(m))
		}
		return map[string]any{"anyOf": alts}
	}
	switch st.Kind {
	case JSONBoolean:
		return map[string]any{"type": "boolean"}
	case JSONInteger:
		s := map[string]any{"type": "integer"}
		if b, ok := integerBounds[st.Builtin]; ok {
			setNumber(s, "minimum", b[0])
			setNumber(s, "maximum", b[1])
		}
		numericFacets(s, st)
		return s
	case JSONNumber:
		s := map[string]any{"type": "number"}
		numericFacets(s, st)
		if st.Builtin == "float" || st.Builtin == "double" {
			return map[string]any{"oneOf": []any{s, map[string]any{"type": "string", "enum": []string{"INF", "-INF", "NaN"}}}}
		}
		return s
	}
	return stringSchema(st)
}

func stringSchema(st *SimpleType) map[string]any {
	s := map[string]any{"type": "string"}
	if len(st.Enumeration) > 0 {
		s["enum"] = st.Enumeration
	}
	if st.Length != nil {
		s["minLength"], s["maxLength"] = *st.Length, *st.Length
	}
	if st.MinLength != nil {
		s["minLength"] = *st.MinLength
	}
	if st.MaxLength != nil {
		s["maxLength"] = *st.MaxLength
	}
	if p := jsonPattern(st.Patterns); p != "" {
		s["pattern"] = p
	}
	switch st.Builtin {
	case "QName", "NOTATION":
		// The converter's expanded form: "{namespace}local" or "local".
		s["pattern"] = `^(\{[^{}]+\})?[^{}:\s]+$`
	case "base64Binary":
		s["contentEncoding"] = "base64"
	case "date":
		s["format"] = "date"
	}
	return s
}

// jsonPattern turns XSD patterns (implicitly anchored, all must match when
// several come from one restriction step) into one anchored regular
// expression, or "" when a pattern uses XSD-only syntax (\i, \c, \p{Is…}).
func jsonPattern(patterns []string) string {
	if len(patterns) == 0 {
		return ""
	}
	var parts []string
	for _, p := range patterns {
		if strings.Contains(p, `\i`) || strings.Contains(p, `\c`) || strings.Contains(p, `\I`) || strings.Contains(p, `\C`) || strings.Contains(p, `{Is`) || strings.Contains(p, "-[") {
			return ""
		}
		if _, err := regexp.Compile(p); err != nil {
			return ""
		}
		parts = append(parts, p)
	}
	return "^(?:" + strings.Join(parts, ")$|^(?:") + ")$"
}

// numericFacets adds min/max facets kept exact as JSON numbers.
func numericFacets(s map[string]any, st *SimpleType) {
	setNumber(s, "minimum", st.MinInclusive)
	setNumber(s, "maximum", st.MaxInclusive)
	setNumber(s, "exclusiveMinimum", st.MinExclusive)
	setNumber(s, "exclusiveMaximum", st.MaxExclusive)
	if len(st.Enumeration) > 0 {
		var enum []any
		for _, e := range st.Enumeration {
			if n, ok := jsonNumber(e); ok {
				enum = append(enum, n)
			}
		}
		if len(enum) > 0 {
			s["enum"] = enum
		}
	}
}

func setNumber(s map[string]any, key, lexical string) {
	if n, ok := jsonNumber(lexical); ok {
		s[key] = n
	}
}

// jsonNumber converts an XSD numeric lexical to an exact JSON number:
// sign '+' and leading zeros dropped ("-007" is -7, once no bound at all),
// "0" added before a leading point, a point with no digits after it
// dropped ("1.E2" is 1E2). Lexicals with no JSON form (INF, NaN) are not
// bounds.
func jsonNumber(lexical string) (json.Number, bool) {
	v := strings.TrimSpace(lexical)
	sign := ""
	if strings.HasPrefix(v, "-") || strings.HasPrefix(v, "+") {
		if v[0] == '-' {
			sign = "-"
		}
		v = v[1:]
	}
	if strings.HasPrefix(v, ".") {
		v = "0" + v
	}
	v = strings.TrimSuffix(v, ".")
	v = strings.Replace(strings.Replace(v, ".e", "e", 1), ".E", "E", 1)
	for len(v) > 1 && v[0] == '0' && v[1] != '.' && v[1] != 'e' && v[1] != 'E' {
		v = v[1:]
	}
	v = sign + v
	if v == "" || !json.Valid([]byte(v)) {
		return "", false
	}
	return json.Number(v), true
}
