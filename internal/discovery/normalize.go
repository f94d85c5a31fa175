package discovery

import (
	"strings"
	"unicode/utf8"
)

// IDPlaceholder replaces path segments that look like identifiers.
const IDPlaceholder = "{id}"

// MaxServiceURILen bounds a normalised serviceUri in bytes.
const MaxServiceURILen = 1024

// NormalizeURI returns the serviceUri of a request URI: the discovery row
// it belongs to. The rule (docs/discovery.md, "URI normalisation"):
//
//  1. An absolute URI (scheme://authority/path) keeps only its path.
//  2. The query and fragment are dropped, and so are matrix parameters
//     (";jsessionid=…") of each segment.
//  3. Percent-encoded unreserved characters (letters, digits, - . _ ~) are
//     decoded; other percent-encodings are kept with upper-case hex; bytes
//     a path may not hold raw (non-ASCII, space, quotes, braces, …) are
//     percent-encoded, so "/café" and "/caf%C3%A9" are one URI.
//  4. Empty and "." segments are removed and ".." removes the segment
//     before it (never above the root); so there is no trailing slash.
//  5. A segment that looks like an identifier (see isIDSegment) becomes
//     "{id}".
//  6. Letters are lower-cased: gateways in front of SOAP stacks commonly
//     match paths without case, and one service seen in two spellings is
//     one row.
//  7. The result is "/" when no segment is left, and is cut to
//     MaxServiceURILen bytes at most, at the end of a segment or inside
//     the last one, which is then normalised again (see joinBounded), so
//     that normalising the result changes nothing.
func NormalizeURI(raw string) string {
	path := pathOf(raw)
	var out []string
	for seg := range strings.SplitSeq(path, "/") {
		if i := strings.IndexByte(seg, ';'); i >= 0 {
			seg = seg[:i]
		}
		switch seg {
		case "", ".":
			continue
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
			continue
		}
		enc, decoded := segmentKey(seg)
		switch decoded {
		case ".", "":
			continue
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
			continue
		}
		out = append(out, enc)
	}
	if len(out) == 0 {
		return "/"
	}
	if s := "/" + strings.Join(out, "/"); len(s) <= MaxServiceURILen {
		return s
	}
	return joinBounded(out)
}

// joinBounded joins normalised segments into a path of at most
// MaxServiceURILen bytes (step 7). Whole segments are kept while they fit.
// The first that does not is cut, never inside a %XX escape, and
// normalised again: a cut can make an identifier of a name ("12345" of
// "12345%EF%BF") or a dot segment of it, and the result must read the
// same when normalised again. What is left of it is dropped when it is
// empty, a dot segment or does not fit.
func joinBounded(segs []string) string {
	var b strings.Builder
	for _, seg := range segs {
		room := MaxServiceURILen - b.Len() - 1 // after the slash
		if len(seg) <= room {
			b.WriteByte('/')
			b.WriteString(seg)
			continue
		}
		cut := seg[:max(room, 0)]
		if i := strings.LastIndexByte(cut, '%'); i >= 0 && i >= len(cut)-2 {
			cut = cut[:i]
		}
		enc, decoded := segmentKey(cut)
		if decoded != "" && decoded != "." && decoded != ".." && len(enc) <= room {
			b.WriteByte('/')
			b.WriteString(enc)
		}
		break
	}
	if b.Len() == 0 {
		return "/"
	}
	return b.String()
}

// pathOf returns the path of raw: without scheme and authority, query
// and fragment.
func pathOf(raw string) string {
	if i := strings.Index(raw, "://"); i > 0 && isScheme(raw[:i]) {
		rest := raw[i+3:]
		j := strings.IndexAny(rest, "/?#")
		if j < 0 || rest[j] != '/' {
			return "/"
		}
		raw = rest[j:]
	}
	if i := strings.IndexAny(raw, "?#"); i >= 0 {
		raw = raw[:i]
	}
	return raw
}

func isScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return s != ""
}

const upperHex = "0123456789ABCDEF"

// segmentKey is normalizeSegment with an identifier replaced by
// IDPlaceholder in enc (step 5).
func segmentKey(seg string) (enc, decoded string) {
	enc, decoded = normalizeSegment(seg)
	if isIDSegment(decoded) {
		enc = IDPlaceholder
	}
	return enc, decoded
}

// normalizeSegment returns seg in normal form (lower-case, steps 3 and 6)
// and seg fully percent-decoded (for identifier detection).
func normalizeSegment(seg string) (enc, decoded string) {
	var e, d strings.Builder
	e.Grow(len(seg))
	d.Grow(len(seg))
	for i := 0; i < len(seg); i++ {
		c := seg[i]
		if c == '%' && i+2 < len(seg) && isHex(seg[i+1]) && isHex(seg[i+2]) {
			b := unhex(seg[i+1])<<4 | unhex(seg[i+2])
			d.WriteByte(b)
			if isUnreserved(b) {
				e.WriteByte(lower(b))
			} else {
				e.WriteByte('%')
				e.WriteByte(upperHex[b>>4])
				e.WriteByte(upperHex[b&15])
			}
			i += 2
			continue
		}
		d.WriteByte(c)
		if isUnreserved(c) || isSubDelimOrColonAt(c) {
			e.WriteByte(lower(c))
			continue
		}
		e.WriteByte('%')
		e.WriteByte(upperHex[c>>4])
		e.WriteByte(upperHex[c&15])
	}
	return e.String(), d.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

func isUnreserved(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}

// isSubDelimOrColonAt reports RFC 3986 sub-delims, ":" and "@", which a
// path segment holds raw.
func isSubDelimOrColonAt(c byte) bool {
	return strings.IndexByte("!$&'()*+,;=:@", c) >= 0
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// isIDSegment reports whether a decoded path segment is an identifier
// rather than a name. Any of:
//
//   - only digits: "42", "20240115"
//   - a UUID, with or without braces or dashes
//   - hexadecimal of 16 or more characters with a digit and a letter
//     (object ids, hashes)
//   - at least 4 digits making up at least half of its letters and
//     digits: "INV-2024-000123", "2024-01-15", "order-12345"
//   - an e-mail address
//   - a base64 or base64url token: 16 or more characters in which digits
//     and letters alternate at least three times ("eyJhbGciOiJIUzI1NiJ9"),
//     or 20 or more in mixed case with fewer than one vowel in five letters
//     ("dGhpcyBpcyBhIHRva2VuMTIz"); words have about two in five
//   - a route template parameter of another gateway: "{orderId}", ":id"
//     (so "{id}" itself stays "{id}" and normalising twice changes nothing)
//
// Names such as "GetCustomerDetailsV2Request", "v1", "ipv6" or
// "getOrderHistoryForYear2024" stay.
func isIDSegment(s string) bool {
	if s == "" || !utf8.ValidString(s) {
		return false
	}
	if isTemplateParam(s) {
		return true
	}
	var digits, letters, hexLetters, other, switches, vowels, upper int
	base64ish := true
	prevClass := 0 // 1 digit, 2 letter
	for i := 0; i < len(s); i++ {
		c := s[i]
		class := 0
		switch {
		case c >= '0' && c <= '9':
			digits++
			class = 1
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
			letters++
			if c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' {
				hexLetters++
			}
			if c <= 'Z' {
				upper++
			}
			if strings.IndexByte("aeiouAEIOU", c) >= 0 {
				vowels++
			}
			class = 2
		default:
			other++
			if !strings.ContainsRune("+/=_-", rune(c)) {
				base64ish = false
			}
		}
		if class != 0 {
			if prevClass != 0 && class != prevClass {
				switches++
			}
			prevClass = class
		}
	}
	switch {
	case digits == len(s):
		return true
	case isUUID(s):
		return true
	case other == 0 && hexLetters == letters && len(s) >= 16 && digits > 0 && letters > 0:
		return true
	case digits >= 4 && 2*digits >= digits+letters:
		return true
	case strings.Count(s, "@") == 1 && strings.Contains(s[strings.IndexByte(s, '@'):], "."):
		return true
	case base64ish && len(s) >= 16 && letters > 0 && switches >= 3:
		return true
	case base64ish && len(s) >= 20 && upper > 0 && upper < letters && 5*vowels < letters:
		return true
	}
	return false
}

// isTemplateParam reports "{name}" and ":name" segments.
func isTemplateParam(s string) bool {
	switch {
	case len(s) >= 3 && s[0] == '{' && s[len(s)-1] == '}':
		return !strings.ContainsAny(s[1:len(s)-1], "{}")
	case len(s) >= 2 && s[0] == ':':
		for i := 1; i < len(s); i++ {
			if !isUnreserved(s[i]) {
				return false
			}
		}
		return true
	}
	return false
}

// isUUID reports an RFC 4122 text UUID (8-4-4-4-12), optionally in braces,
// or its 32 hex digits without dashes.
func isUUID(s string) bool {
	if len(s) == 38 && s[0] == '{' && s[37] == '}' {
		s = s[1:37]
	}
	switch len(s) {
	case 32:
		for i := 0; i < 32; i++ {
			if !isHex(s[i]) {
				return false
			}
		}
		return true
	case 36:
		for i := 0; i < 36; i++ {
			if i == 8 || i == 13 || i == 18 || i == 23 {
				if s[i] != '-' {
					return false
				}
			} else if !isHex(s[i]) {
				return false
			}
		}
		return true
	}
	return false
}
