// Package redact masks credentials in captured traffic before it is
// stored: the payloads and headers of debug transactions and those of
// ingested lb events and generic logs (docs/decisions-observe.md).
//
// What is masked:
//
//   - the values of the headers Authorization, Proxy-Authorization,
//     Cookie, Set-Cookie, X-S2R-Callback-Secret, X-S2R-Poll-Token, the
//     API-key headers of backend profiles (X-API-Key by default), and any
//     header whose name is one of the redact names;
//   - in XML (SOAP envelopes, MTOM parts, any body that is not JSON): the
//     content of every element whose local name is Password, Nonce or
//     BinarySecurityToken (WS-Security) or one of the redact names;
//   - in JSON: the value of every member of a "$headers" object (at any
//     depth below it) whose name is one of those names.
//
// Names match case-insensitively and whole (the local name "token" masks
// <token> and <wsse:Token>, not <TokenType>). The XML pass is lexical, so
// it also masks inside malformed or truncated XML; an element that never
// ends is masked to the end of the payload. A JSON body that does not
// parse but holds a "$headers" member is cut where it stops parsing.
//
// A Redactor is immutable and safe for concurrent use. Nothing here runs
// unless a payload is captured, so redaction costs nothing when debug is
// off.
package redact

import (
	"net/http"
	"strings"
)

// Mask replaces every masked value.
const Mask = "***redacted***"

// WSSecurityNames are the WS-Security elements whose values are always
// masked.
var WSSecurityNames = []string{"Password", "Nonce", "BinarySecurityToken"}

// CredentialHeaders are the headers whose values are always masked.
var CredentialHeaders = []string{"Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie",
	"X-S2R-Callback-Secret", "X-S2R-Poll-Token", "X-API-Key"}

// Redactor masks credentials by a fixed set of names.
type Redactor struct {
	names   map[string]bool // lower-case element and member local names
	headers map[string]bool // lower-case header names
}

// New returns a Redactor masking the WS-Security elements and credential
// headers plus the given names (setting debug_redact_names: element,
// "$headers" member and header names) and API-key header names.
func New(names, apiKeyHeaders []string) *Redactor {
	r := &Redactor{names: map[string]bool{}, headers: map[string]bool{}}
	for _, n := range append(append([]string(nil), WSSecurityNames...), names...) {
		if n = strings.TrimSpace(n); n != "" {
			r.names[strings.ToLower(n)] = true
		}
	}
	for _, n := range append(append(append([]string(nil), CredentialHeaders...), apiKeyHeaders...), names...) {
		if n = strings.TrimSpace(n); n != "" {
			r.headers[strings.ToLower(n)] = true
		}
	}
	return r
}

// Payload returns b with its credentials masked: JSON bodies (first
// non-blank byte '{' or '[') by their "$headers" members, anything else as
// XML. b itself is never modified; when nothing is masked b is returned.
func (r *Redactor) Payload(b []byte) []byte {
	if r == nil || len(b) == 0 {
		return b
	}
	switch firstByte(b) {
	case '{', '[':
		return r.jsonPayload(b)
	}
	return r.xmlPayload(b)
}

// Headers returns a copy of h with the values of credential headers
// masked (nil for nil).
func (r *Redactor) Headers(h http.Header) http.Header {
	if h == nil {
		return nil
	}
	out := make(http.Header, len(h))
	for k, vs := range h {
		if r != nil && r.headers[strings.ToLower(k)] {
			masked := make([]string, len(vs))
			for i := range masked {
				masked[i] = Mask
			}
			out[k] = masked
			continue
		}
		out[k] = append([]string(nil), vs...)
	}
	return out
}

// SensitiveHeader reports whether the value of the header name is masked
// (false for a nil Redactor).
func (r *Redactor) SensitiveHeader(name string) bool {
	return r != nil && r.headers[strings.ToLower(name)]
}

// sensitive reports whether local names a masked element or member.
func (r *Redactor) sensitive(local []byte) bool {
	if len(local) == 0 || len(local) > 64 {
		return false
	}
	var buf [64]byte
	for i, c := range local {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	return r.names[string(buf[:len(local)])]
}

// firstByte is the first byte of b that is not JSON or XML whitespace.
func firstByte(b []byte) byte {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return c
	}
	return 0
}

// span is a byte range [start, end) of a payload to replace by Mask.
type span struct{ start, end int }

// apply returns b with every span replaced by mask (spans ordered and
// disjoint).
func apply(b []byte, spans []span, mask string) []byte {
	if len(spans) == 0 {
		return b
	}
	out := make([]byte, 0, len(b)+len(spans)*len(mask))
	prev := 0
	for _, s := range spans {
		out = append(out, b[prev:s.start]...)
		out = append(out, mask...)
		prev = s.end
	}
	return append(out, b[prev:]...)
}
