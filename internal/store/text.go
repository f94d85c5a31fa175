package store

import (
	"strings"
	"unicode/utf8"
)

// StorableText cuts s to at most n bytes and makes it text both databases
// store: PostgreSQL refuses invalid UTF-8 and NUL in TEXT, and one such
// value (a request path with %FF or %00 decodes to those bytes, or a cut
// through a multi-byte character) would fail a whole batch insert. Invalid
// sequences become U+FFFD and NUL bytes are dropped.
func StorableText(s string, n int) string {
	if len(s) > n {
		s = s[:n]
	}
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if strings.IndexByte(s, 0) >= 0 {
		s = strings.ReplaceAll(s, "\x00", "")
	}
	return s
}
