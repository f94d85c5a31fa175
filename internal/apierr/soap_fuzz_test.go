package apierr

import (
	"encoding/xml"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzMarshalFault feeds arbitrary messages, detail values and correlation
// ids (all of which can come from callers) into both Fault versions: the
// result must always be well-formed XML that gives the message back.
func FuzzMarshalFault(f *testing.F) {
	f.Add("no route", "path", "/consume/dev/x", "cid-1")
	f.Add("<a>&amp;</a>]]>", "k\"'<>", "\x00\x1f\ufffe", "cid\n")
	f.Add("", "", "", "")
	f.Fuzz(func(t *testing.T, msg, key, value, cid string) {
		e := New(RunNotFound, msg).WithDetail(key, value)
		for _, v := range []SOAPVersion{SOAP11, SOAP12} {
			b := MarshalFault(v, e, cid)
			if !utf8.Valid(b) {
				t.Fatalf("SOAP %d fault is not UTF-8", v)
			}
			var f11 fault11
			var f12 fault12
			var err error
			var reason string
			if v == SOAP11 {
				err = xml.Unmarshal(b, &f11)
				reason = f11.Fault.String
			} else {
				err = xml.Unmarshal(b, &f12)
				reason = f12.Fault.Reason
			}
			if err != nil {
				t.Fatalf("SOAP %d fault is not well-formed: %v\n%s", v, err, b)
			}
			if isXMLText(msg) && !strings.Contains(msg, "\r") && reason != RunNotFound+": "+msg {
				t.Errorf("SOAP %d reason = %q, want the message %q back", v, reason, msg)
			}
		}
	})
}

// isXMLText reports whether s holds only characters XML can carry (others
// are replaced by U+FFFD when escaped).
func isXMLText(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
		case r >= 0x20 && r <= 0xD7FF:
		case r >= 0xE000 && r <= 0xFFFD:
		case r >= 0x10000 && r <= 0x10FFFF:
		default:
			return false
		}
	}
	return true
}
