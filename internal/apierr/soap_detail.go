package apierr

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxReasonViolations bounds the violations a faultstring names; the
// detail lists every one.
const maxReasonViolations = 3

// faultReason is the faultstring (SOAP 1.1) or Reason text (SOAP 1.2) of e:
// "CODE: message", followed, when e carries violations, by the first few
// as "pointer: reason", so that a SOAP client that shows only the
// faultstring still names the field and why it was refused.
func faultReason(e *Error) string {
	reason := e.Code + ": " + e.Message
	list, _ := plainValue(e.Details["violations"]).([]any)
	var named []string
	for _, item := range list {
		v, _ := item.(map[string]any)
		pointer, _ := v["pointer"].(string)
		why, _ := v["reason"].(string)
		if why == "" {
			continue
		}
		if pointer != "" {
			why = pointer + ": " + why
		}
		named = append(named, why)
	}
	if len(named) == 0 {
		return reason
	}
	more := ""
	if len(named) > maxReasonViolations {
		more = "; and " + strconv.Itoa(len(named)-maxReasonViolations) + " more in the detail"
		named = named[:maxReasonViolations]
	}
	return reason + ": " + strings.Join(named, "; ") + more
}

// plainValue turns a detail value into plain data (string, json.Number,
// bool, nil, []any, map[string]any) by its JSON form, the same form the
// JSON error shape shows. A value that does not encode is its text.
func plainValue(v any) any {
	switch v := v.(type) {
	case nil, string, bool:
		return v
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var out any
	if err := d.Decode(&out); err != nil {
		return string(raw)
	}
	return out
}

// writeDetailValue writes a detail value as XML: a scalar as its text, a
// list as one s2r:item element per entry, an object as one
// s2r:detail name="key" element per member, keys sorted. Nothing is
// written as JSON text, so a SOAP client reads every field and reason as
// plain text.
func writeDetailValue(b *bytes.Buffer, v any) {
	switch v := v.(type) {
	case nil:
	case string:
		escape(b, v)
	case json.Number:
		escape(b, v.String())
	case bool:
		if v {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case []any:
		for _, item := range v {
			b.WriteString(`<s2r:item>`)
			writeDetailValue(b, item)
			b.WriteString(`</s2r:item>`)
		}
	case map[string]any:
		writeDetailMembers(b, v)
	}
}

// writeDetailMembers writes the members of an object, keys sorted, as
// s2r:detail elements.
func writeDetailMembers(b *bytes.Buffer, m map[string]any) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		b.WriteString(`<s2r:detail name="`)
		escapeAttr(b, k)
		b.WriteString(`">`)
		writeDetailValue(b, plainValue(m[k]))
		b.WriteString(`</s2r:detail>`)
	}
}

// escape writes s as XML character data: only &, < and > are escaped (and
// a carriage return, which XML would otherwise normalize), so quotes and
// apostrophes stay readable. Characters not allowed in XML become U+FFFD.
func escape(b *bytes.Buffer, s string) {
	writeEscaped(b, s, false)
}

// escapeAttr writes s for a double-quoted attribute value.
func escapeAttr(b *bytes.Buffer, s string) {
	writeEscaped(b, s, true)
}

func writeEscaped(b *bytes.Buffer, s string, attr bool) {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:]) // invalid UTF-8 decodes as U+FFFD
		i += size
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '\r':
			b.WriteString("&#xD;")
		case attr && r == '"':
			b.WriteString("&quot;")
		case attr && r == '\n':
			b.WriteString("&#xA;")
		case attr && r == '\t':
			b.WriteString("&#x9;")
		case !xmlChar(r):
			b.WriteRune(utf8.RuneError)
		default:
			b.WriteRune(r)
		}
	}
}

// xmlChar reports whether r is allowed in XML 1.0 (Char production).
func xmlChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D ||
		(r >= 0x20 && r <= 0xD7FF) || (r >= 0xE000 && r <= 0xFFFD) || (r >= 0x10000 && r <= 0x10FFFF)
}
