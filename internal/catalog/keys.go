// Package catalog holds the control plane's domain logic for services,
// versions, operations and mappings, with no HTTP and no storage: it drafts
// operations from an imported contract, derives and checks mappings,
// diagnoses them, assesses publish readiness and detects WSDL drift.
package catalog

import (
	"strconv"
	"strings"
	"unicode"
)

// maxKeyLen bounds operation keys (and so default REST path segments).
const maxKeyLen = 63

// OperationKey derives an operation key from a WSDL operation name:
// lower-kebab-case, splitting at every lower-to-upper or digit-to-upper
// change and before the last capital of an acronym run, turning every
// other character into a dash, collapsing dashes and trimming them, cut to
// 63 characters. "GetCountryName" → "get-country-name",
// "CountryISOCode" → "country-iso-code", "get_user2FA" → "get-user2-fa".
// A name with no letter or digit gives "operation".
func OperationKey(name string) string {
	rs := []rune(name)
	var b strings.Builder
	for i, r := range rs {
		if !isKeyRune(r) {
			b.WriteByte('-')
			continue
		}
		if i > 0 && unicode.IsUpper(r) && boundaryBefore(rs, i) {
			b.WriteByte('-')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	key := collapseDashes(b.String())
	if len(key) > maxKeyLen {
		key = strings.TrimRight(key[:maxKeyLen], "-")
	}
	if key == "" {
		return "operation"
	}
	return key
}

// isKeyRune reports whether r is kept in a key (ASCII letters and digits;
// other letters become dashes so keys stay URL-safe).
func isKeyRune(r rune) bool {
	return r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

// boundaryBefore reports whether a word starts at the upper-case rune
// rs[i]: after a lower-case letter or digit, or as the last capital of an
// acronym followed by a lower-case letter ("ISOCode": before "C").
func boundaryBefore(rs []rune, i int) bool {
	prev := rs[i-1]
	if unicode.IsLower(prev) || unicode.IsDigit(prev) {
		return true
	}
	return unicode.IsUpper(prev) && i+1 < len(rs) && unicode.IsLower(rs[i+1])
}

func collapseDashes(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range s {
		if r == '-' {
			dash = true
			continue
		}
		if dash && b.Len() > 0 {
			b.WriteByte('-')
		}
		dash = false
		b.WriteRune(r)
	}
	return b.String()
}

// UniqueKeys makes keys unique in order: the second "add" becomes "add-2",
// the third "add-3", skipping suffixes already taken.
func UniqueKeys(keys []string) []string {
	taken := make(map[string]bool, len(keys))
	out := make([]string, len(keys))
	for i, k := range keys {
		cand := k
		for n := 2; taken[cand]; n++ {
			cand = k + "-" + strconv.Itoa(n)
		}
		taken[cand] = true
		out[i] = cand
	}
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }
