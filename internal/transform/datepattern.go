package transform

import (
	"errors"
	"fmt"
	"strings"
)

// token is one element of a compiled pattern.
type token struct {
	letter byte   // pattern letter, or 0 for literal text
	count  int    // how many times the letter repeats
	lit    string // literal text
}

// datePattern is a compiled pattern.
type datePattern struct {
	source string
	tokens []token
}

// allowedCounts lists the repeat counts each letter accepts.
var allowedCounts = map[byte][]int{
	'y': {2, 4}, 'M': {1, 2, 3, 4}, 'd': {1, 2}, 'H': {1, 2}, 'h': {1, 2},
	'm': {1, 2}, 's': {1, 2}, 'S': {1, 2, 3, 4, 5, 6, 7, 8, 9}, 'a': {1},
	'E': {3, 4}, 'X': {1, 2, 3}, 'Z': {1},
}

// compileDatePattern parses and checks a pattern.
func compileDatePattern(src string) (*datePattern, error) {
	if src == "" {
		return nil, errors.New("empty date pattern")
	}
	tokens, err := tokenize(src)
	if err != nil {
		return nil, err
	}
	if err := checkTokens(tokens); err != nil {
		return nil, err
	}
	return &datePattern{source: src, tokens: tokens}, nil
}

func tokenize(src string) ([]token, error) {
	var tokens []token
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\'':
			lit, next, err := quoted(src, i)
			if err != nil {
				return nil, err
			}
			tokens = appendLiteral(tokens, lit)
			i = next
		case isASCIILetter(c):
			j := i
			for j < len(src) && src[j] == c {
				j++
			}
			if _, known := allowedCounts[c]; !known {
				return nil, fmt.Errorf("unknown pattern letter %q (quote literal text, e.g. 'T')", c)
			}
			tokens = append(tokens, token{letter: c, count: j - i})
			i = j
		default:
			j := i + 1
			for j < len(src) && src[j] != '\'' && !isASCIILetter(src[j]) {
				j++
			}
			tokens = appendLiteral(tokens, src[i:j])
			i = j
		}
	}
	return tokens, nil
}

// quoted reads a quoted literal starting at src[i] == '\”.
func quoted(src string, i int) (lit string, next int, err error) {
	if i+1 < len(src) && src[i+1] == '\'' {
		return "'", i + 2, nil
	}
	var b strings.Builder
	for j := i + 1; j < len(src); j++ {
		if src[j] != '\'' {
			b.WriteByte(src[j])
			continue
		}
		if j+1 < len(src) && src[j+1] == '\'' {
			b.WriteByte('\'')
			j++
			continue
		}
		return b.String(), j + 1, nil
	}
	return "", 0, errors.New("unterminated quote in date pattern")
}

func appendLiteral(tokens []token, lit string) []token {
	if lit == "" {
		return tokens
	}
	if n := len(tokens); n > 0 && tokens[n-1].letter == 0 {
		tokens[n-1].lit += lit
		return tokens
	}
	return append(tokens, token{lit: lit})
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// checkTokens validates counts and combinations.
func checkTokens(tokens []token) error {
	seen := map[byte]bool{}
	fields := 0
	for i, t := range tokens {
		if t.letter == 0 {
			continue
		}
		fields++
		if !countAllowed(t) {
			return fmt.Errorf("%q is not a valid pattern field; use %s",
				strings.Repeat(string(t.letter), t.count), validForms(t.letter))
		}
		if seen[t.letter] {
			return fmt.Errorf("pattern letter %q appears twice", t.letter)
		}
		seen[t.letter] = true
		if isVariableWidth(t) && i+1 < len(tokens) && isNumeric(tokens[i+1]) {
			return fmt.Errorf("%q is directly followed by another number field; use the two-letter form or a separator", string(t.letter))
		}
	}
	switch {
	case fields == 0:
		return errors.New("date pattern has no date or time field")
	case seen['h'] != seen['a']:
		return errors.New("12-hour field h/hh and AM/PM field a must be used together")
	case seen['h'] && seen['H']:
		return errors.New("pattern mixes 12-hour (h) and 24-hour (H) fields")
	case seen['X'] && seen['Z']:
		return errors.New("pattern has two offset fields (X and Z)")
	}
	return nil
}

// validForms lists the accepted repetitions of a letter.
func validForms(letter byte) string {
	counts := allowedCounts[letter]
	if len(counts) > 4 {
		return "S to SSSSSSSSS"
	}
	forms := make([]string, len(counts))
	for i, c := range counts {
		forms[i] = strings.Repeat(string(letter), c)
	}
	return strings.Join(forms, " or ")
}

func countAllowed(t token) bool {
	for _, c := range allowedCounts[t.letter] {
		if c == t.count {
			return true
		}
	}
	return false
}

// isNumeric reports fields rendered as digits.
func isNumeric(t token) bool {
	switch t.letter {
	case 'y', 'd', 'H', 'h', 'm', 's', 'S':
		return true
	case 'M':
		return t.count <= 2
	}
	return false
}

// isVariableWidth reports numeric fields of one or two digits.
func isVariableWidth(t token) bool {
	return t.count == 1 && strings.IndexByte("MdHhms", t.letter) >= 0
}
