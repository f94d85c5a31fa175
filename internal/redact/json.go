package redact

import (
	"bytes"
	"errors"
	"io"

	"github.com/go-json-experiment/json/jsontext"
)

// headersMember is the reserved JSON member carrying SOAP header blocks.
const headersMember = "$headers"

// jsonMask is Mask as a JSON string.
const jsonMask = `"` + Mask + `"`

// unparsedTail replaces the rest of a JSON body with a "$headers" member
// that stops parsing.
const unparsedTail = "[rest withheld by s2r: the JSON does not parse]"

// jsonPayload masks the values of sensitive members inside "$headers"
// objects, keeping every other byte as it was.
func (r *Redactor) jsonPayload(b []byte) []byte {
	if !bytes.Contains(b, []byte("headers")) && !bytes.Contains(b, []byte(`\u`)) {
		return b // no "$headers" member, even escaped
	}
	dec := jsontext.NewDecoder(bytes.NewReader(b), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	var (
		spans        []span
		headersDepth int // stack depth of the "$headers" object being read, 0 outside
		seenHeaders  bool
	)
	for {
		depth := dec.StackDepth()
		kind, length := dec.StackIndex(depth)
		if kind == '{' && length%2 == 0 && dec.PeekKind() == '"' {
			tok, err := dec.ReadToken()
			if err != nil {
				return cutJSON(b, dec, seenHeaders, spans)
			}
			name := tok.String()
			switch {
			case headersDepth == 0 && name == headersMember:
				seenHeaders = true
				if dec.PeekKind() == '{' {
					if _, err := dec.ReadToken(); err != nil {
						return cutJSON(b, dec, seenHeaders, spans)
					}
					headersDepth = dec.StackDepth()
				}
			case headersDepth > 0 && r.sensitive([]byte(name)):
				v, err := dec.ReadValue()
				if err != nil {
					return cutJSON(b, dec, seenHeaders, spans)
				}
				end := int(dec.InputOffset())
				spans = append(spans, span{end - len(v), end})
			}
			continue
		}
		tok, err := dec.ReadToken()
		if errors.Is(err, io.EOF) {
			return apply(b, spans, jsonMask)
		}
		if err != nil {
			return cutJSON(b, dec, seenHeaders, spans)
		}
		if tok.Kind() == '}' && headersDepth > 0 && dec.StackDepth() < headersDepth {
			headersDepth = 0
		}
	}
}

// cutJSON handles a body that stopped parsing: without a "$headers"
// member nothing more needs masking (it is kept as it is); with one, the
// rest from where parsing stopped is withheld.
func cutJSON(b []byte, dec *jsontext.Decoder, seenHeaders bool, spans []span) []byte {
	if !seenHeaders && !bytes.Contains(b[dec.InputOffset():], []byte("headers")) {
		return apply(b, spans, jsonMask)
	}
	off := int(dec.InputOffset())
	out := apply(b[:off], spans, jsonMask)
	return append(out[:len(out):len(out)], unparsedTail...)
}
