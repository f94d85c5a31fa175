package soap

import (
	"strconv"
)

// AppendJSON appends the JSON shape of the fault (docs/conversion.md):
//
//	{"faultCode":"Sender","faultSubcodes":["Auth"],"faultString":"…",
//	 "faultLang":"en","faultNode":"…","faultRole":"…","detail":…}
//
// faultCode is the version-neutral class, or the local name of a custom
// code (CodeName); faultSubcodes the local names of the subcodes
// (SubcodeNames); empty members are omitted. detail is the JSON of the detail
// content, converted by the caller (by contract or naively) into an object
// keyed by the detail elements' local names ({"NoSuchCodeLit":{…}});
// nil omits it.
func (f *Fault) AppendJSON(dst, detail []byte) []byte {
	dst = append(dst, `{"faultCode":`...)
	dst = appendJSONString(dst, f.CodeName())
	if len(f.Subcodes) > 0 {
		dst = append(dst, `,"faultSubcodes":[`...)
		for i, s := range f.Subcodes {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendJSONString(dst, s.Local)
		}
		dst = append(dst, ']')
	}
	dst = append(dst, `,"faultString":`...)
	dst = appendJSONString(dst, f.Reason)
	for _, m := range [...]struct{ k, v string }{{"faultLang", f.Lang}, {"faultNode", f.Node}, {"faultRole", f.Role}} {
		if m.v != "" {
			dst = append(dst, `,"`...)
			dst = append(dst, m.k...)
			dst = append(dst, `":`...)
			dst = appendJSONString(dst, m.v)
		}
	}
	if detail != nil {
		dst = append(dst, `,"detail":`...)
		dst = append(dst, detail...)
	}
	return append(dst, '}')
}

// appendJSONString appends s as a JSON string.
func appendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			dst = append(dst, '\\', c)
		case c == '\n':
			dst = append(dst, '\\', 'n')
		case c == '\r':
			dst = append(dst, '\\', 'r')
		case c == '\t':
			dst = append(dst, '\\', 't')
		case c < 0x20:
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		default:
			dst = append(dst, c)
		}
	}
	return append(dst, '"')
}

func itoa(n int) string { return strconv.Itoa(n) }
