package notify

import (
	"cmp"
	"encoding/base64"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxErrorLen bounds a stored delivery error.
const maxErrorLen = 1000

// redacted replaces a credential in an error text; quotedCredential
// replaces a whole text in which a credential could not be replaced.
const (
	redacted         = "[REDACTED]"
	quotedCredential = "(the relay's answer is withheld: it quoted a credential)"
)

// redact returns err's text safe to store, show and log: every form in
// which the SMTP password can travel (as is, quoted, and base64 as AUTH
// PLAIN and LOGIN send it, alone or with the user name) is replaced, a
// server that echoes what it received included; control characters
// become spaces and the text is cut to maxErrorLen bytes. Replacing is
// repeated while a form remains (a replacement can complete one with its
// neighbours); a text that still shows one is withheld whole.
func redact(err error, username, password string) string {
	msg := oneLine(err.Error())
	if password != "" {
		forms := secretForms(username, password)
		for range 8 {
			if !containsAny(msg, forms) {
				break
			}
			for _, form := range forms {
				msg = strings.ReplaceAll(msg, form, redacted)
			}
		}
		if containsAny(msg, forms) {
			msg = quotedCredential
		}
	}
	if len(msg) > maxErrorLen {
		cut := maxErrorLen
		for cut > 0 && !utf8.RuneStart(msg[cut]) {
			cut--
		}
		msg = msg[:cut] + "…"
	}
	return msg
}

// secretForms lists the texts that reveal password, longest first so a
// longer form is replaced before a shorter one inside it.
func secretForms(username, password string) []string {
	raws := []string{"\x00" + username + "\x00" + password, username + "\x00" + password, password}
	var forms []string
	for _, raw := range raws {
		forms = append(forms, base64.StdEncoding.EncodeToString([]byte(raw)),
			base64.RawStdEncoding.EncodeToString([]byte(raw)))
	}
	quoted := strconv.Quote(password)
	forms = append(forms, oneLine(password), quoted[1:len(quoted)-1])
	slices.SortFunc(forms, func(a, b string) int { return cmp.Or(cmp.Compare(len(b), len(a)), strings.Compare(a, b)) })
	return slices.Compact(forms)
}

// containsAny reports whether s contains any of subs.
func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
