package notify

import (
	"encoding/base64"
	"errors"
	"strings"
	"testing"
)

// FuzzRedact: whatever a relay answers, the redacted text never shows the
// password (as is, or base64 as AUTH PLAIN and LOGIN send it), holds no
// control character and stays within maxErrorLen plus the cut mark.
func FuzzRedact(f *testing.F) {
	f.Add("535 5.7.8 Authentication failed", "user", "pw")
	f.Add("535 bad password hunter2 for user", "user@example.com", "hunter2")
	f.Add("535 "+base64.StdEncoding.EncodeToString([]byte("\x00u\x00p4ss")), "u", "p4ss")
	f.Add("334 "+base64.StdEncoding.EncodeToString([]byte("p4ss"))+"\r\n550 x", "u", "p4ss")
	f.Add(strings.Repeat("ü", 700)+"secret", "", "secret")
	f.Add("D]D]abab", "u", "D]ab")
	f.Fuzz(func(t *testing.T, text, user, pass string) {
		got := redact(errors.New(text), user, pass)
		if len(got) > maxErrorLen+len("…") {
			t.Fatalf("%d bytes", len(got))
		}
		if strings.ContainsFunc(got, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			t.Fatalf("control character in %q", got)
		}
		shown := oneLine(pass)
		// A password that is part of s2r's own marks cannot be hidden
		// from them; a cut can leave a prefix, never the whole.
		if pass == "" || strings.Contains(redacted+quotedCredential+"…", shown) {
			return
		}
		for _, form := range []string{shown, base64.StdEncoding.EncodeToString([]byte(pass)),
			base64.StdEncoding.EncodeToString([]byte("\x00" + user + "\x00" + pass))} {
			if strings.Contains(got, form) {
				t.Fatalf("redact(%q, %q, %q) = %q shows %q", text, user, pass, got, form)
			}
		}
	})
}
