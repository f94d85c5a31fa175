package convert

import (
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// scan indexes in without the jsontext decoder: one pass over the bytes
// producing the same tape as build's decoder loop. It accepts only
// documents the decoder accepts (RFC 8259 with valid UTF-8) and gives up
// (false) on anything else and on what it does not handle itself: \u
// escapes (the decoder checks their surrogates), nesting over the limit,
// syntax errors. build then runs the decoder, which gives the error or the
// tape. Request bodies are nearly always plain, so the decoder's per-token
// state machine is skipped (about a fifth of JSON→XML).
func (t *tape) scan(in []byte) bool {
	t.in, t.toks, t.stack = in, t.toks[:0], t.stack[:0]
	p := skipWS(in, 0)
	// expectName: inside an object, before a member name.
	for {
		if p >= len(in) {
			return false
		}
		var ok bool
		switch c := in[p]; c {
		case '{', '[':
			if len(t.stack) >= maxJSONDepth {
				return false
			}
			t.stack = append(t.stack, int32(len(t.toks)))
			t.toks = append(t.toks, tapeTok{kind: jsontext.Kind(c)})
			p = skipWS(in, p+1)
			if p < len(in) && (in[p] == '}' && c == '{' || in[p] == ']' && c == '[') {
				p = t.closeContainer(in, p)
				goto afterValue
			}
			if c == '{' {
				if p, ok = t.name(in, p); !ok {
					return false
				}
			}
			continue
		case '"':
			end, str, ok := scanString(in, p)
			if !ok {
				return false
			}
			t.toks = append(t.toks, tapeTok{kind: '"', str: str, start: int32(p), end: int32(end)})
			p = end
		case 't', 'f', 'n':
			lit := literal(c)
			if len(in)-p < len(lit) || string(in[p:p+len(lit)]) != lit {
				return false
			}
			t.toks = append(t.toks, tapeTok{kind: jsontext.Kind(c), start: int32(p), end: int32(p + len(lit))})
			p += len(lit)
		default:
			var end int
			if end, ok = scanNumber(in, p); !ok {
				return false
			}
			t.toks = append(t.toks, tapeTok{kind: '0', start: int32(p), end: int32(end)})
			p = end
		}
	afterValue:
		p = skipWS(in, p)
		for {
			if len(t.stack) == 0 {
				return p == len(in)
			}
			if p >= len(in) {
				return false
			}
			open := t.toks[t.stack[len(t.stack)-1]].kind
			switch {
			case in[p] == ',':
				p = skipWS(in, p+1)
				if open == '{' {
					if p, ok = t.name(in, p); !ok {
						return false
					}
				}
			case in[p] == '}' && open == '{', in[p] == ']' && open == '[':
				p = skipWS(in, t.closeContainer(in, p))
				continue
			default:
				return false
			}
			break
		}
	}
}

// closeContainer ends the innermost object or array at in[p].
func (t *tape) closeContainer(in []byte, p int) int {
	i := t.stack[len(t.stack)-1]
	t.stack = t.stack[:len(t.stack)-1]
	t.toks[i].end = int32(len(t.toks))
	return p + 1
}

// name reads a member name and its colon; p is after the separator.
func (t *tape) name(in []byte, p int) (int, bool) {
	if p >= len(in) || in[p] != '"' {
		return p, false
	}
	end, str, ok := scanString(in, p)
	if !ok {
		return p, false
	}
	t.toks = append(t.toks, tapeTok{kind: '"', str: str, start: int32(p), end: int32(end)})
	p = skipWS(in, end)
	if p >= len(in) || in[p] != ':' {
		return p, false
	}
	return skipWS(in, p+1), true
}

func literal(c byte) string {
	switch c {
	case 't':
		return "true"
	case 'f':
		return "false"
	}
	return "null"
}

func skipWS(in []byte, p int) int {
	for p < len(in) {
		switch in[p] {
		case ' ', '\t', '\n', '\r':
			p++
		default:
			return p
		}
	}
	return p
}

// scanString returns the end of the string starting at in[p] (its opening
// quote) and what it holds; false for control characters, invalid UTF-8,
// bad escapes and \u escapes (left to the decoder).
func scanString(in []byte, p int) (int, strFlags, bool) {
	flags := strPlain | strASCII
	for i := p + 1; i < len(in); i++ {
		c := in[i]
		if !strStop[c] {
			continue
		}
		switch {
		case c == '"':
			if flags&strASCII == 0 && !utf8.Valid(in[p+1:i]) {
				return 0, 0, false
			}
			return i + 1, flags, true
		case c < 0x20:
			return 0, 0, false
		case c == '\\':
			flags &^= strPlain
			i++
			if i >= len(in) {
				return 0, 0, false
			}
			switch in[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			default:
				return 0, 0, false
			}
		default: // c >= 0x80
			flags &^= strASCII
		}
	}
	return 0, 0, false
}

// strStop marks the bytes scanString must look at: the closing quote,
// escapes, control characters and non-ASCII.
var strStop = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c == '"' || c == '\\' || c < 0x20 || c >= 0x80
	}
	return t
}()

// scanNumber returns the end of the JSON number at in[p].
func scanNumber(in []byte, p int) (int, bool) {
	i := p
	if i < len(in) && in[i] == '-' {
		i++
	}
	switch {
	case i < len(in) && in[i] == '0':
		i++
	case i < len(in) && in[i] >= '1' && in[i] <= '9':
		i = skipDigits(in, i)
	default:
		return 0, false
	}
	if i < len(in) && in[i] == '.' {
		j := skipDigits(in, i+1)
		if j == i+1 {
			return 0, false
		}
		i = j
	}
	if i < len(in) && (in[i] == 'e' || in[i] == 'E') {
		i++
		if i < len(in) && (in[i] == '+' || in[i] == '-') {
			i++
		}
		j := skipDigits(in, i)
		if j == i {
			return 0, false
		}
		i = j
	}
	return i, true
}

func skipDigits(in []byte, i int) int {
	for i < len(in) && in[i] >= '0' && in[i] <= '9' {
		i++
	}
	return i
}
