package dataplane

import (
	"bytes"
	"errors"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/convert"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/soap"
	"github.com/s2r-project/s2r/internal/xmlstream"
)

// headersName is the raw JSON name of the reserved "$headers" member.
var headersName = []byte(`"` + convert.HeadersMember + `"`)

// takeHeaders converts the "$headers" member of the request object to SOAP
// header blocks (docs/conversion.md section 12) and removes it from raw, so
// that the rest of the request path sees the body alone. The member is
// blanked in place (overwritten with spaces, with one adjacent comma): no
// copy of the body is made, except in debug mode, where the record keeps
// the client's body as sent. It returns the body and the header blocks,
// nil when the operation has no header parts or the request has no
// "$headers"; a request that is not an object or not valid JSON is left
// to the body conversion to refuse.
func (c *publishCall) takeHeaders(raw []byte) ([]byte, []byte, error) {
	hp := c.op.RequestHeaders
	if hp == nil || !bytes.Contains(raw, headersName) {
		return raw, nil, nil // "$headers" is then an unknown body member
	}
	cut, val, err := headersSpan(raw)
	if err != nil {
		var dup *duplicateHeaders
		if errors.As(err, &dup) {
			return nil, nil, schemaError([]routing.Violation{{Pointer: "/" + convert.HeadersMember, Reason: "invalid JSON: duplicate object member name"}})
		}
		return nil, nil, invalidJSON(raw)
	}
	if val == nil {
		return raw, nil, nil
	}
	if hp.SchemaCheck {
		doc, err := routing.DecodeJSON(val)
		if err != nil {
			return nil, nil, invalidJSON(raw)
		}
		if v := routing.SchemaViolations(hp.Schema, doc); len(v) > 0 {
			return nil, nil, schemaError(routing.PrefixViolations(v))
		}
	}
	w := xmlstream.NewWriter(make([]byte, 0, 2*len(val)+256))
	if err := hp.Plan.JSONToXML(w, val); err != nil {
		return nil, nil, headersError(hp, val, err)
	}
	if err := w.Err(); err != nil {
		return nil, nil, apierr.Wrap(apierr.ValRequestSchema, err, "the request's $headers could not be converted to SOAP")
	}
	if c.debug {
		raw = bytes.Clone(raw) // the debug record holds the body as sent
	}
	for i := cut[0]; i < cut[1]; i++ {
		raw[i] = ' '
	}
	return raw, w.Bytes(), nil
}

// headersError is 400 S2R-VAL-0410 for a "$headers" object the header
// parts refuse, with pointers under /$headers.
func headersError(hp *routing.HeaderParts, val []byte, err error) *apierr.Error {
	if doc, derr := routing.DecodeJSON(val); derr == nil {
		if v := routing.SchemaViolations(hp.Schema, doc); len(v) > 0 {
			return schemaError(routing.PrefixViolations(v))
		}
	}
	if ce, ok := convert.AsError(err); ok {
		return schemaError(routing.PrefixViolations([]routing.Violation{{Pointer: ce.Pointer, Reason: ce.Reason}}))
	}
	return apierr.Wrap(apierr.ValRequestSchema, err, "the request's $headers could not be converted to SOAP")
}

// duplicateHeaders reports "$headers" given twice.
type duplicateHeaders struct{}

func (*duplicateHeaders) Error() string { return "duplicate $headers member" }

// headersSpan finds the top-level "$headers" member of the JSON object
// raw: cut is the byte range to blank (the member and the comma that
// separates it from a neighbour) and val its value. val is nil when raw is
// not an object or has no such member. Names are compared as written: an
// escaped spelling of "$headers" is an ordinary (unknown) member.
func headersSpan(raw []byte) (cut [2]int, val []byte, err error) {
	dec := jsontext.NewDecoder(bytes.NewReader(raw), jsontext.AllowDuplicateNames(true))
	tok, err := dec.ReadToken()
	if err != nil {
		return cut, nil, err
	}
	if tok.Kind() != '{' {
		return cut, nil, nil
	}
	prevEnd := int(dec.InputOffset()) // after '{' or the previous value
	extend := false                   // the member was first: cut through the next comma
	for first := true; dec.PeekKind() != '}'; first = false {
		name, err := dec.ReadValue()
		if err != nil {
			return cut, nil, err
		}
		nameEnd := int(dec.InputOffset())
		nameStart := nameEnd - len(name)
		if extend {
			cut[1], extend = nameStart, false
		}
		isHeaders := bytes.Equal(name, headersName)
		v, err := dec.ReadValue()
		if err != nil {
			return cut, nil, err
		}
		end := int(dec.InputOffset())
		if isHeaders {
			if val != nil {
				return cut, nil, &duplicateHeaders{}
			}
			val = raw[end-len(v) : end]
			if first {
				cut, extend = [2]int{nameStart, end}, true
			} else {
				cut = [2]int{prevEnd, end} // from the end of the previous value: its comma
			}
		}
		prevEnd = end
	}
	if _, err := dec.ReadToken(); err != nil {
		return cut, nil, err
	}
	return cut, val, nil
}

// responseHeaders adds the declared header parts of the backend's answer
// to the converted response object out as "$headers", when at least one
// is present. Header blocks that are not parts (WS-Addressing, security,
// …) are skipped.
func (c *publishCall) responseHeaders(out []byte, m *soap.Message) ([]byte, error) {
	hp := c.op.ResponseHeaders
	r, err := m.HeaderReader()
	if err != nil || r == nil {
		if err != nil {
			return nil, apierr.Wrap(apierr.RunBadSOAPResponse, err, "the backend response's SOAP Header could not be parsed")
		}
		return out, nil
	}
	h, err := hp.Plan.XMLToJSON(nil, r, "/Envelope/Header")
	if err != nil {
		e := apierr.Wrap(apierr.RunContractDrift, err, "the backend response's SOAP Header does not match the contract")
		if ce, ok := convert.AsError(err); ok {
			e = e.With(map[string]any{"path": ce.Path, "reason": ce.Reason})
		}
		if hp.Lax == nil { // strict
			return nil, e
		}
		if h, err = c.laxHeaders(m, err); err != nil {
			return nil, e
		}
	}
	if string(h) == "{}" {
		return out, nil
	}
	if hp.SchemaCheck && c.op.ResponseValidation != model.ValidationOff {
		doc, err := routing.DecodeJSON(h)
		if err != nil {
			return nil, apierr.Wrap(apierr.RunInternal, err, "the converted response headers are not valid JSON")
		}
		if c.op.ResponseValidation == model.ValidationDetect {
			// The conversion noted the structure; the facets are the schema's.
			vs, found := routing.ValueViolations(hp.Schema, doc)
			noteViolations(c.op, c.rec, routing.PrefixViolations(vs), found)
		} else if v := routing.SchemaViolations(hp.Schema, doc); len(v) > 0 {
			return nil, apierr.New(apierr.ValResponseSchema, "the backend response does not match the operation's response schema").
				WithDetail("violations", routing.PrefixViolations(v))
		}
	}
	return appendMember(out, headersName, h), nil
}

// laxHeaders converts the response's header parts that the strict plan
// refused with cause by their lax plan (detect and off), noting under
// detect every deviation it steps over as the body's conversion does
// (convertLenientXML), or cause when it noted none or did not convert.
func (c *publishCall) laxHeaders(m *soap.Message, cause error) ([]byte, error) {
	op := c.op
	r, err := m.HeaderReader()
	if err != nil {
		return nil, err
	}
	dev := convert.Deviations{Max: issueRoom(c.rec)}
	var h []byte
	if op.ResponseValidation == model.ValidationDetect {
		h, err = op.ResponseHeaders.Lax.XMLToJSONNoting(nil, r, "/Envelope/Header", &dev)
	} else {
		h, err = op.ResponseHeaders.Lax.XMLToJSON(nil, r, "/Envelope/Header")
	}
	if err != nil || dev.Found == 0 {
		noteConvertError(op, c.rec, cause)
	}
	if err != nil {
		return nil, err
	}
	for _, d := range dev.List {
		noteIssue(op, c.rec, d.Path, d.Reason)
	}
	omitIssues(c.rec, dev.Found-len(dev.List))
	return h, nil
}

// appendMember adds the member name (raw, quoted) with value val at the
// end of the JSON object obj, reusing obj's storage.
func appendMember(obj, name, val []byte) []byte {
	obj = bytes.TrimRight(obj, " \t\r\n")
	if len(obj) < 2 || obj[len(obj)-1] != '}' {
		return obj // not an object: unreachable for converted responses
	}
	empty := len(bytes.TrimSpace(obj[1:len(obj)-1])) == 0
	obj = obj[:len(obj)-1]
	if !empty {
		obj = append(obj, ',')
	}
	obj = append(obj, name...)
	obj = append(obj, ':')
	obj = append(obj, val...)
	return append(obj, '}')
}
