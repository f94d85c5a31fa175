package dataplane

import (
	"bytes"
	"strings"

	"github.com/s2r-project/s2r/internal/soap"
	"github.com/s2r-project/s2r/internal/xmlstream"
)

// CallbackInfo is what s2r reads from an async callback envelope before
// converting it: its SOAP version and WS-Addressing correlation headers.
type CallbackInfo struct {
	Version   soap.Version
	RelatesTo string
	MessageID string
}

// ID is the correlation id a callback names (SPEC 4.5 rule 2): its
// RelatesTo, else its MessageID, without a "urn:uuid:" prefix (DESIGN 9).
func (i CallbackInfo) ID() string {
	id := i.RelatesTo
	if id == "" {
		id = i.MessageID
	}
	if len(id) >= len(uuidURN) && strings.EqualFold(id[:len(uuidURN)], uuidURN) {
		id = id[len(uuidURN):]
	}
	return id
}

const uuidURN = "urn:uuid:"

// ParseCallback parses a whole callback envelope (SOAP 1.1 or 1.2) within
// lim, so that a malformed one is refused before anything is stored, and
// returns its correlation headers.
func ParseCallback(body []byte, lim xmlstream.Limits) (CallbackInfo, error) {
	m, err := soap.Parse(body, lim)
	if err != nil {
		return CallbackInfo{}, err
	}
	return CallbackInfo{Version: m.Version, RelatesTo: m.Addressing.RelatesTo, MessageID: m.Addressing.MessageID}, nil
}

// wsSecurity are the namespaces of WS-Security header blocks (OASIS 1.0
// and 1.1, and the pre-OASIS drafts).
var wsSecurity = []string{
	"http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd",
	"http://docs.oasis-open.org/wss/oasis-wss-wssecurity-secext-1.1.xsd",
	"http://schemas.xmlsoap.org/ws/2002/12/secext",
	"http://schemas.xmlsoap.org/ws/2003/06/secext",
	"http://schemas.xmlsoap.org/ws/2002/07/secext",
	"http://schemas.xmlsoap.org/ws/2002/04/secext",
}

// RedactCallback returns body without its WS-Security header blocks
// (passwords, tokens, keys), for storing and showing a callback; the
// rest of the envelope is kept byte for byte. A body that does not parse
// is returned unchanged.
func RedactCallback(body []byte, lim xmlstream.Limits) []byte {
	if !bytes.Contains(body, []byte("secext")) { // every WS-Security namespace has it
		return body
	}
	m, err := soap.Parse(body, lim)
	if err != nil {
		return body
	}
	var out []byte
	last := 0
	for _, h := range m.Headers {
		if !isWSSecurity(h.Name.Space) {
			continue
		}
		if out == nil {
			out = make([]byte, 0, len(body))
		}
		out = append(out, body[last:h.Start]...)
		last = h.End
	}
	if out == nil {
		return body
	}
	return append(out, body[last:]...)
}

func isWSSecurity(ns string) bool {
	for _, s := range wsSecurity {
		if ns == s {
			return true
		}
	}
	return false
}
