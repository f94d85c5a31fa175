package convert

import (
	"bytes"
	"errors"
	"github.com/go-json-experiment/json/jsontext"
	"strconv"
	"strings"

	"github.com/s2r-project/s2r/internal/xmlstream"
	"github.com/s2r-project/s2r/internal/xsd"
)

// simpleText checks the JSON value at i against st and returns its XML
// lexical form (valid until the next call).
func (j *j2x) simpleText(st *xsd.SimpleType, i int) ([]byte, error) {
	j.buf = j.buf[:0]
	var reason string
	j.buf, reason = j.appendSimple(j.buf, st, i)
	if reason != "" {
		return nil, j.fail(reason)
	}
	return j.buf, nil
}

// appendSimple appends the lexical form of the JSON value at i, or returns
// why it does not fit st.
func (j *j2x) appendSimple(dst []byte, st *xsd.SimpleType, i int) ([]byte, string) {
	tk := j.t.toks[i]
	if st != nil && st.List != nil {
		if tk.kind != '[' {
			return dst, "expected an array (xs:list)"
		}
		end := j.t.skip(i)
		for k := i + 1; k < end; k = j.t.skip(k) {
			if k > i+1 {
				dst = append(dst, ' ')
			}
			var reason string
			if dst, reason = j.appendSimple(dst, st.List, k); reason != "" {
				return dst, reason
			}
		}
		return dst, ""
	}
	if st != nil && len(st.Union) > 0 {
		first := ""
		for _, m := range st.Union {
			out, reason := j.appendSimple(dst, m, i)
			if reason == "" {
				return out, ""
			}
			if first == "" {
				first = reason
			}
		}
		return dst, "no member type of the union accepts the value: " + first
	}
	if isQName(st) {
		return j.appendQName(dst, i)
	}
	switch kindOf(st) {
	case lexInteger:
		if tk.kind != '0' {
			return dst, "expected an integer, got " + kindName(tk.kind)
		}
		num := string(j.t.raw(i))
		if reason := jsonIntegerText(st.Builtin, num); reason != "" {
			return dst, reason
		}
		return append(dst, num...), ""
	case lexDecimal:
		if tk.kind != '0' {
			return dst, "expected a number, got " + kindName(tk.kind)
		}
		out, ok := appendDecimalFromJSON(dst, string(j.t.raw(i)))
		if !ok {
			return dst, "decimal exponent out of range (±" + itoa(maxDecimalExponent) + ")"
		}
		return out, ""
	case lexFloat:
		if tk.kind == '"' {
			s := j.t.view(i)
			switch string(s) {
			case "INF", "-INF", "NaN":
				return append(dst, s...), ""
			}
			return dst, "expected a number or \"INF\", \"-INF\", \"NaN\""
		}
		if tk.kind != '0' {
			return dst, "expected a number, got " + kindName(tk.kind)
		}
		return append(dst, j.t.raw(i)...), ""
	case lexBoolean:
		switch tk.kind {
		case 't':
			return append(dst, "true"...), ""
		case 'f':
			return append(dst, "false"...), ""
		}
		return dst, "expected a boolean, got " + kindName(tk.kind)
	}
	if tk.kind != '"' {
		return dst, "expected a string, got " + kindName(tk.kind)
	}
	start := len(dst)
	dst = j.t.appendStr(dst, i)
	// A plain ASCII string holds no control character (JSON has no raw
	// ones) and no U+FFFE or U+FFFF.
	if tk.str != strPlain|strASCII {
		if reason := checkXMLChars(dst[start:]); reason != "" {
			return dst[:start], reason
		}
	}
	if st != nil {
		if reason := checkDateTime(st.Builtin, dst[start:]); reason != "" {
			return dst[:start], reason
		}
	}
	return dst, ""
}

func kindName(k jsontext.Kind) string {
	switch k {
	case '"':
		return "a string"
	case '0':
		return "a number"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	case '{':
		return "an object"
	case '[':
		return "an array"
	}
	return "an invalid value"
}

// appendSimpleJSON appends the JSON form of the XML lexical text of type
// st, or returns why text is not a valid st.
func appendSimpleJSON(dst []byte, st *xsd.SimpleType, text []byte) ([]byte, string) {
	if st != nil && st.List != nil {
		dst = append(dst, '[')
		first := true
		for _, f := range bytes.Fields(text) {
			if !first {
				dst = append(dst, ',')
			}
			first = false
			var reason string
			if dst, reason = appendSimpleJSON(dst, st.List, f); reason != "" {
				return dst, reason
			}
		}
		return append(dst, ']'), ""
	}
	if st != nil && len(st.Union) > 0 {
		for _, m := range st.Union {
			if out, reason := appendSimpleJSON(dst, m, text); reason == "" {
				return out, ""
			}
		}
		return appendQuoted(dst, text), ""
	}
	var ok bool
	switch kindOf(st) {
	case lexInteger:
		start := len(dst)
		if dst, ok = appendXMLInteger(dst, trimXML(text)); !ok {
			return dst[:start], "invalid xs:" + st.Builtin + " value " + quote(string(text))
		}
		if reason := checkIntRange(st.Builtin, string(dst[start:])); reason != "" {
			return dst[:start], reason
		}
		return dst, ""
	case lexDecimal:
		if dst, ok = appendXMLDecimal(dst, trimXML(text)); !ok {
			return dst, "invalid xs:decimal value " + quote(string(text))
		}
		return dst, ""
	case lexFloat:
		if dst, ok = appendXMLFloat(dst, trimXML(text)); !ok {
			return dst, "invalid xs:" + st.Builtin + " value " + quote(string(text))
		}
		return dst, ""
	case lexBoolean:
		if dst, ok = appendXMLBoolean(dst, trimXML(text)); !ok {
			return dst, "invalid xs:boolean value " + quote(string(text))
		}
		return dst, ""
	}
	if st != nil {
		if reason := checkDateTime(st.Builtin, trimXML(text)); reason != "" {
			return dst, reason
		}
		if isDateTime(st.Builtin) {
			text = trimXML(text) // whiteSpace collapse
		}
	}
	return appendQuoted(dst, text), ""
}

// appendQuoted appends s as a JSON string; generic so that strings
// (attribute values, names) are not copied into a byte slice first.
func appendQuoted[S string | []byte](dst []byte, s S) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !jsonEscaped[c] {
			continue // DEL and UTF-8 (validated by the XML reader) stay as they are
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"':
			dst = append(dst, '\\', '"')
		case '\\':
			dst = append(dst, '\\', '\\')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigit(c>>4), hexDigit(c&0xf))
		}
		start = i + 1
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// jsonEscaped marks the bytes a JSON string cannot hold as they are: the
// control characters, '"' and '\\'.
var jsonEscaped = func() (t [256]bool) {
	for c := 0; c < 0x20; c++ {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return t
}()

func appendQuotedString(dst []byte, s string) []byte {
	return appendQuoted(dst, s)
}

func hexDigit(c byte) byte { return "0123456789abcdef"[c] }

func quote(s string) string { return strconv.Quote(s) }

func itoa(n int) string { return strconv.Itoa(n) }

func joinNames(names []string) string { return strings.Join(names, ", ") }

// isNCName reports whether s is a plausible XML NCName (ASCII-strict for
// the first character class, permissive for non-ASCII letters).
func isNCName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_', c >= 0x80:
		case i > 0 && (c >= '0' && c <= '9' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return true
}

// checkFragment reports whether frag is a sequence of well-formed XML
// elements and text that can be embedded in a body.
func checkFragment(frag []byte) error {
	doc := make([]byte, 0, len(frag)+7)
	doc = append(doc, "<x>"...)
	doc = append(doc, frag...)
	doc = append(doc, "</x>"...)
	r := xmlstream.NewReader(doc, xmlstream.Limits{})
	for {
		tok, err := r.Next()
		if err != nil {
			if isEOF(err) {
				return nil
			}
			return err
		}
		if tok.Kind == xmlstream.Directive || tok.Kind == xmlstream.ProcInst && r.Depth() == 1 {
			return errFragmentDecl
		}
		if tok.Kind == xmlstream.CharData && r.Depth() == 1 && !isBlank(tok.Data) {
			return errFragmentText
		}
	}
}

var errFragmentText = errors.New("text outside elements")

var errFragmentDecl = errors.New("declarations and processing instructions are not allowed")

// checkXMLChars reports a character XML 1.0 cannot carry (C0 controls
// other than tab, newline and carriage return; U+FFFE, U+FFFF), which the
// writer would otherwise replace.
func checkXMLChars(s []byte) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c < 0x20 && c != '\t' && c != '\n' && c != '\r':
			return "the string contains U+" + hex4(rune(c)) + ", which XML cannot carry"
		case c == 0xEF && i+2 < len(s) && s[i+1] == 0xBF && (s[i+2] == 0xBE || s[i+2] == 0xBF):
			return "the string contains U+" + hex4(rune(0xFFFE+int(s[i+2]-0xBE))) + ", which XML cannot carry"
		}
	}
	return ""
}

func hex4(r rune) string {
	const digits = "0123456789ABCDEF"
	return string([]byte{digits[r>>12&0xf], digits[r>>8&0xf], digits[r>>4&0xf], digits[r&0xf]})
}
