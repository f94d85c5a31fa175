package convert

import "github.com/s2r-project/s2r/internal/xsd"

// textKind is how XML→JSON writes the text of a simple type. The plan
// decides it once per type, so that converting a value does not go
// through appendSimpleJSON's string switches (the JSON kind, the date and
// time built-ins, the integer bounds) for every element.
type textKind uint8

const (
	textGeneric  textKind = iota // appendSimpleJSON: lists, unions, QNames
	textString                   // quoted as it is
	textInteger                  // normalized, then checked against rng
	textDecimal                  // normalized
	textFloat                    // normalized, INF and NaN as strings
	textBoolean                  // true or false
	textDateTime                 // checked, trimmed and quoted
)

// textHow is the compiled writing of one simple type's values.
type textHow struct {
	kind   textKind
	ranged bool // rng bounds the integer type
	rng    intRange
}

// howOf compiles the writing of st's values; it is what appendSimpleJSON
// decides for every value.
func howOf(st *xsd.SimpleType) textHow {
	if st == nil {
		return textHow{kind: textString}
	}
	if st.List != nil || len(st.Union) > 0 || isQName(st) {
		return textHow{}
	}
	switch kindOf(st) {
	case lexInteger:
		rng, ok := intRangeOf(st.Builtin)
		return textHow{kind: textInteger, ranged: ok, rng: rng}
	case lexDecimal:
		return textHow{kind: textDecimal}
	case lexFloat:
		return textHow{kind: textFloat}
	case lexBoolean:
		return textHow{kind: textBoolean}
	}
	if isDateTime(st.Builtin) {
		return textHow{kind: textDateTime}
	}
	return textHow{kind: textString}
}

// appendTextJSON is appendSimpleJSON(dst, st, text) for how = howOf(st).
func appendTextJSON(dst []byte, st *xsd.SimpleType, how *textHow, text []byte) ([]byte, string) {
	var ok bool
	switch how.kind {
	case textString:
		return appendQuotedBytes(dst, text), ""
	case textInteger:
		start := len(dst)
		if dst, ok = appendXMLInteger(dst, trimXML(text)); !ok {
			return dst[:start], "invalid xs:" + st.Builtin + " value " + quote(string(text))
		}
		if how.ranged && !shortInt(&how.rng, dst[start:]) {
			if reason := how.rng.check(st.Builtin, string(dst[start:])); reason != "" {
				return dst[:start], reason
			}
		}
		return dst, ""
	case textDecimal:
		if dst, ok = appendXMLDecimal(dst, trimXML(text)); !ok {
			return dst, "invalid xs:decimal value " + quote(string(text))
		}
		return dst, ""
	case textDateTime:
		text = trimXML(text) // whiteSpace collapse
		if reason := checkDateTime(st.Builtin, text); reason != "" {
			return dst, reason
		}
		return appendQuotedBytes(dst, text), ""
	}
	return appendSimpleJSON(dst, st, text)
}
