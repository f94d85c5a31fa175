package convert

import (
	"strconv"

	"github.com/s2r-project/s2r/internal/xsd"
)

// lexKind is how a simple value is checked and written.
type lexKind uint8

const (
	lexString lexKind = iota
	lexInteger
	lexDecimal
	lexFloat
	lexBoolean
)

func kindOf(st *xsd.SimpleType) lexKind {
	if st == nil {
		return lexString
	}
	switch st.Kind {
	case xsd.JSONInteger:
		return lexInteger
	case xsd.JSONNumber:
		if st.Builtin == "float" || st.Builtin == "double" {
			return lexFloat
		}
		return lexDecimal
	case xsd.JSONBoolean:
		return lexBoolean
	}
	return lexString
}

// intRange holds the bounds of the bounded built-in integer types.
type intRange struct {
	signed   bool
	min, max int64  // signed
	umax     uint64 // unsigned
	minOne   bool   // positiveInteger
	nonPos   bool   // nonPositiveInteger, negativeInteger
	negative bool
	// safe is the number of digits every value of the type may have (0:
	// no such bound): a value that short is in range without parsing.
	safe int
}

// intRangeOf returns the bounds of a bounded built-in integer type. A
// switch rather than a map: it runs for every integer value converted.
func intRangeOf(builtin string) (intRange, bool) {
	switch builtin {
	case "byte":
		return intRange{signed: true, min: -128, max: 127, safe: 2}, true
	case "short":
		return intRange{signed: true, min: -32768, max: 32767, safe: 4}, true
	case "int":
		return intRange{signed: true, min: -2147483648, max: 2147483647, safe: 9}, true
	case "long":
		return intRange{signed: true, min: -9223372036854775808, max: 9223372036854775807, safe: 18}, true
	case "unsignedByte":
		return intRange{umax: 255, safe: 2}, true
	case "unsignedShort":
		return intRange{umax: 65535, safe: 4}, true
	case "unsignedInt":
		return intRange{umax: 4294967295, safe: 9}, true
	case "unsignedLong":
		return intRange{umax: 18446744073709551615, safe: 19}, true
	case "nonNegativeInteger":
		return intRange{umax: 0}, true
	case "positiveInteger":
		return intRange{umax: 0, minOne: true}, true
	case "nonPositiveInteger":
		return intRange{nonPos: true}, true
	case "negativeInteger":
		return intRange{nonPos: true, negative: true}, true
	}
	return intRange{}, false
}

// checkIntRange reports why the normalized integer n (no '+', no leading
// zeros) is out of the range of builtin, or "".
func checkIntRange(builtin, n string) string {
	r, ok := intRangeOf(builtin)
	if !ok {
		return ""
	}
	return r.check(builtin, n)
}

// check is checkIntRange with the bounds of builtin already looked up.
func (r intRange) check(builtin, n string) string {
	if shortInt(&r, n) {
		return ""
	}
	neg := len(n) > 0 && n[0] == '-'
	switch {
	case r.signed:
		if v, err := strconv.ParseInt(n, 10, 64); err != nil || v < r.min || v > r.max {
			return "value " + n + " is out of range for xs:" + builtin
		}
	case r.nonPos:
		if (!neg && n != "0") || (r.negative && !neg) {
			return "value " + n + " is out of range for xs:" + builtin
		}
	default:
		if neg || (r.minOne && n == "0") {
			return "value " + n + " is out of range for xs:" + builtin
		}
		if r.umax > 0 {
			if u, err := strconv.ParseUint(n, 10, 64); err != nil || u > r.umax {
				return "value " + n + " is out of range for xs:" + builtin
			}
		}
	}
	return ""
}

// shortInt reports whether the normalized integer n has few enough
// digits to be in r whatever they are (most values): no parsing needed.
func shortInt[S string | []byte](r *intRange, n S) bool {
	neg := len(n) > 0 && n[0] == '-'
	if neg {
		if !r.signed {
			return false
		}
		n = n[1:]
	}
	return len(n) > 0 && len(n) <= r.safe && (n[0] != '0' || len(n) == 1)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isXMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// trimXML trims XML whitespace.
func trimXML(s []byte) []byte {
	for len(s) > 0 && isXMLSpace(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && isXMLSpace(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

// appendXMLInteger appends the JSON form of the xs:integer lexical s:
// sign '+' and leading zeros dropped, "-0" → "0". ok is false when s is not
// an integer.
func appendXMLInteger(dst, s []byte) ([]byte, bool) {
	neg := false
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if len(s) == 0 {
		return dst, false
	}
	for _, c := range s {
		if !isDigit(c) {
			return dst, false
		}
	}
	for len(s) > 1 && s[0] == '0' {
		s = s[1:]
	}
	if neg && !(len(s) == 1 && s[0] == '0') {
		dst = append(dst, '-')
	}
	return append(dst, s...), true
}

// appendXMLDecimal appends the JSON form of the xs:decimal lexical s: sign
// '+' and leading zeros dropped, "0" added before a leading point, a
// trailing point dropped; trailing fraction zeros are kept.
func appendXMLDecimal(dst, s []byte) ([]byte, bool) {
	if plainDecimal(s) {
		return append(dst, s...), true
	}
	return normalizeDecimal(dst, s)
}

// normalizeDecimal is appendXMLDecimal for any lexical.
func normalizeDecimal(dst, s []byte) ([]byte, bool) {
	neg := false
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	intPart, frac, hasPoint := s, []byte(nil), false
	for i, c := range s {
		if c == '.' {
			intPart, frac, hasPoint = s[:i], s[i+1:], true
			break
		}
	}
	if len(intPart) == 0 && len(frac) == 0 {
		return dst, false
	}
	for _, c := range intPart {
		if !isDigit(c) {
			return dst, false
		}
	}
	for _, c := range frac {
		if !isDigit(c) {
			return dst, false
		}
	}
	for len(intPart) > 1 && intPart[0] == '0' {
		intPart = intPart[1:]
	}
	if len(intPart) == 0 {
		intPart = []byte{'0'}
	}
	if neg && !allZero(intPart, frac) {
		dst = append(dst, '-')
	}
	dst = append(dst, intPart...)
	if hasPoint && len(frac) > 0 {
		dst = append(dst, '.')
		dst = append(dst, frac...)
	}
	return dst, true
}

// plainDecimal reports whether the xs:decimal lexical s is already its
// JSON form (most values): digits with at most one point between them,
// no sign and no leading zero before another digit.
func plainDecimal(s []byte) bool {
	if len(s) == 0 || s[0] == '.' || s[len(s)-1] == '.' || s[0] == '0' && len(s) > 1 && s[1] != '.' {
		return false
	}
	point := false
	for _, c := range s {
		switch {
		case isDigit(c):
		case c == '.' && !point:
			point = true
		default:
			return false
		}
	}
	return true
}

func allZero(a, b []byte) bool {
	for _, c := range a {
		if c != '0' {
			return false
		}
	}
	for _, c := range b {
		if c != '0' {
			return false
		}
	}
	return true
}

// appendXMLFloat appends the JSON form of the xs:float/xs:double lexical
// s, a JSON number, or a JSON string for INF, -INF and NaN.
func appendXMLFloat(dst, s []byte) ([]byte, bool) {
	switch string(s) {
	case "INF", "+INF":
		return append(dst, `"INF"`...), true
	case "-INF":
		return append(dst, `"-INF"`...), true
	case "NaN":
		return append(dst, `"NaN"`...), true
	}
	mant, exp := s, []byte(nil)
	for i, c := range s {
		if c == 'e' || c == 'E' {
			mant, exp = s[:i], s[i+1:]
			break
		}
	}
	dst, ok := appendXMLDecimal(dst, mant)
	if !ok {
		return dst, false
	}
	if exp != nil {
		dst = append(dst, 'e')
		var eok bool
		if dst, eok = appendXMLInteger(dst, exp); !eok {
			return dst, false
		}
	}
	return dst, true
}

// appendXMLBoolean appends true or false for the xs:boolean lexical s.
func appendXMLBoolean(dst, s []byte) ([]byte, bool) {
	switch string(s) {
	case "true", "1":
		return append(dst, "true"...), true
	case "false", "0":
		return append(dst, "false"...), true
	}
	return dst, false
}

// jsonIntegerText checks a raw JSON number for an integer type and returns
// the reason it is rejected, or "".
func jsonIntegerText(builtin, num string) string {
	for i := 0; i < len(num); i++ {
		if c := num[i]; c == '.' || c == 'e' || c == 'E' {
			return "expected an integer, got " + num
		}
	}
	if num == "-0" {
		return ""
	}
	return checkIntRange(builtin, num)
}

// maxDecimalExponent bounds the exponent of a JSON number written as an
// xs:decimal, which is expanded into digits (1e-400 would be 400 bytes: a
// small document must not expand into a huge one).
const maxDecimalExponent = 400

// appendDecimalFromJSON appends the xs:decimal lexical of the JSON number
// num, expanding an exponent exactly (1.5e3 → 1500); ok is false for an
// exponent beyond ±maxDecimalExponent.
func appendDecimalFromJSON(dst []byte, num string) ([]byte, bool) {
	mant, exp := num, 0
	for i := 0; i < len(num); i++ {
		if num[i] == 'e' || num[i] == 'E' {
			mant = num[:i]
			e, err := strconv.Atoi(num[i+1:])
			if err != nil || e > maxDecimalExponent || e < -maxDecimalExponent {
				return dst, false
			}
			exp = e
			break
		}
	}
	if exp == 0 {
		return append(dst, mant...), true
	}
	neg := mant[0] == '-'
	if neg {
		mant = mant[1:]
	}
	digits := make([]byte, 0, len(mant))
	point := len(mant)
	for i := 0; i < len(mant); i++ {
		if mant[i] == '.' {
			point = i
			continue
		}
		digits = append(digits, mant[i])
	}
	point += exp
	if neg {
		dst = append(dst, '-')
	}
	switch {
	case point <= 0:
		dst = append(dst, '0', '.')
		for ; point < 0; point++ {
			dst = append(dst, '0')
		}
		dst = append(dst, digits...)
	case point >= len(digits):
		dst = append(dst, digits...)
		for i := len(digits); i < point; i++ {
			dst = append(dst, '0')
		}
	default:
		dst = append(dst, digits[:point]...)
		dst = append(dst, '.')
		dst = append(dst, digits[point:]...)
	}
	return dst, true
}
