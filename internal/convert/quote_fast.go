package convert

import "encoding/binary"

// appendQuotedBytes is appendQuoted, faster on the usual string that needs
// no escape: it looks at eight bytes at a time for one that does.
func appendQuotedBytes(dst, s []byte) []byte {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if jsonSpecial8(binary.LittleEndian.Uint64(s[i:])) {
			break
		}
	}
	for ; i < len(s) && !jsonEscaped[s[i]]; i++ {
	}
	if i < len(s) {
		return appendQuoted(dst, s)
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}

// jsonSpecial8 reports whether one of the eight bytes of w may need a JSON
// escape: a control character, '"' or '\\' (bytes from 0x80 never do).
// False positives only send the caller to the byte loop.
func jsonSpecial8(w uint64) bool {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	q := w ^ ('"' * lo)
	b := w ^ ('\\' * lo)
	return ((w-0x20*lo)&^w|(q-lo)&^q|(b-lo)&^b)&hi != 0
}
