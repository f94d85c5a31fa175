package convert

import "github.com/s2r-project/s2r/internal/xsd"

// valueText is j.simpleText for a type whose writing the plan compiled
// (how = howOf(st)): a plain ASCII string, or a number that needs no
// rewriting, is returned as a view of the JSON input instead of being
// copied into j.buf first (issue 27). Everything else, and every error,
// goes through simpleText.
func (j *j2x) valueText(how *textHow, st *xsd.SimpleType, i int) ([]byte, error) {
	tk := j.t.toks[i]
	switch {
	case how.kind == textString && tk.kind == '"' && tk.str == strPlain|strASCII:
		// JSON has no raw control characters and ASCII no U+FFFE or
		// U+FFFF: nothing for checkXMLChars to refuse.
		return j.t.in[tk.start+1 : tk.end-1 : tk.end-1], nil
	case tk.kind != '0':
	case how.kind == textFloat:
		return j.t.raw(i), nil
	case how.kind == textDecimal:
		if raw := j.t.raw(i); plainNumber(raw, false) {
			return raw, nil // no exponent to expand
		}
	case how.kind == textInteger:
		// JSON numbers have no '+' and no leading zeros: without fraction
		// or exponent the text is normalized.
		if raw := j.t.raw(i); plainNumber(raw, true) && (!how.ranged || shortInt(&how.rng, raw)) {
			return raw, nil
		}
	}
	return j.simpleText(st, i)
}

// plainNumber reports a JSON number without exponent (and, for an
// integer, without fraction): its text is already the XML lexical form.
func plainNumber(num []byte, integer bool) bool {
	for _, c := range num {
		if c == 'e' || c == 'E' || integer && c == '.' {
			return false
		}
	}
	return true
}
