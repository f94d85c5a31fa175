package xmlstream

import "unicode/utf8"

// Byte classes used by the scanners. A zero class means "ordinary": the
// byte needs no attention in the context the table is used for.
const (
	clsPlain   = 0
	clsSpecial = 1 // markup or reference start, CR, ']' or a quote
	clsControl = 2 // an ASCII control character XML forbids
	clsHigh    = 3 // first byte of a multi-byte UTF-8 sequence (or garbage)
)

// textClass classifies bytes of character data between tags.
var textClass = makeClass("<&\r]")

// attrClass classifies bytes of attribute values; both quotes are special
// so one table serves both quoting styles. Tab and LF are special because
// attribute value normalization turns them into spaces.
var attrClass = makeClass("<&\r\n\t\"'")

// nameByte marks ASCII bytes that may continue a name; nameStartByte marks
// those that may start one. Both include ':' (QNames are split later).
var nameByte, nameStartByte [256]bool

func init() {
	for c := 'a'; c <= 'z'; c++ {
		nameStartByte[c] = true
		nameStartByte[c-'a'+'A'] = true
	}
	nameStartByte['_'] = true
	nameStartByte[':'] = true
	nameByte = nameStartByte
	for c := '0'; c <= '9'; c++ {
		nameByte[c] = true
	}
	nameByte['-'] = true
	nameByte['.'] = true
}

func makeClass(special string) *[256]uint8 {
	var t [256]uint8
	for c := 0; c < 0x20; c++ {
		t[c] = clsControl
	}
	t['\t'], t['\n'] = clsPlain, clsPlain
	for i := 0; i < len(special); i++ {
		t[special[i]] = clsSpecial
	}
	for c := utf8.RuneSelf; c < 256; c++ {
		t[c] = clsHigh
	}
	return &t
}

// isXMLChar reports whether r is allowed by the Char production of XML 1.0.
func isXMLChar(r rune) bool {
	switch {
	case r < 0x20:
		return r == '\t' || r == '\n' || r == '\r'
	case r <= 0xD7FF:
		return true
	case r < 0xE000:
		return false
	case r <= 0xFFFD:
		return true
	default:
		return r >= 0x10000 && r <= utf8.MaxRune
	}
}

// isNameStartRune reports whether r may start a name (XML 1.0 fifth
// edition NameStartChar, colon excluded: callers handle it as ASCII).
func isNameStartRune(r rune) bool {
	if r < utf8.RuneSelf {
		return nameStartByte[r] && r != ':'
	}
	switch {
	case r >= 0xC0 && r <= 0xD6, r >= 0xD8 && r <= 0xF6, r >= 0xF8 && r <= 0x2FF,
		r >= 0x370 && r <= 0x37D, r >= 0x37F && r <= 0x1FFF, r == 0x200C, r == 0x200D,
		r >= 0x2070 && r <= 0x218F, r >= 0x2C00 && r <= 0x2FEF, r >= 0x3001 && r <= 0xD7FF,
		r >= 0xF900 && r <= 0xFDCF, r >= 0xFDF0 && r <= 0xFFFD, r >= 0x10000 && r <= 0xEFFFF:
		return true
	}
	return false
}

// isNameRune reports whether r may continue a name (NameChar).
func isNameRune(r rune) bool {
	if r < utf8.RuneSelf {
		return nameByte[r]
	}
	return isNameStartRune(r) || r == 0xB7 || r >= 0x300 && r <= 0x36F || r == 0x203F || r == 0x2040
}

// isSpace reports whether c is XML white space.
func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }

// skipSpace returns the first index at or after i that is not white space.
func skipSpace(d []byte, i int) int {
	for i < len(d) && isSpace(d[i]) {
		i++
	}
	return i
}

// isNCName reports whether s is a non-empty name without colons.
func isNCName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r == ':' || r == utf8.RuneError && !validRuneAt(s, i) {
			return false
		}
		if i == 0 && !isNameStartRune(r) || !isNameRune(r) {
			return false
		}
	}
	return true
}

func validRuneAt(s string, i int) bool {
	r, n := utf8.DecodeRuneInString(s[i:])
	return r != utf8.RuneError || n > 1
}
