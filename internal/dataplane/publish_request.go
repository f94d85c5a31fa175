package dataplane

import (
	"encoding/json"
	"errors"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/convert"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/soap"
	"github.com/s2r-project/s2r/internal/transform"
	"github.com/s2r-project/s2r/internal/xmlstream"
)

// buildRequest turns the JSON request into the SOAP envelope: the
// "$headers" member taken out into SOAP header blocks, path and query
// parameters merged into the top-level object, schema (rule 3) and regex
// (rule 4) validation, transforms and conversion (rule 5) of the body.
//
// The JSON syntax is checked by the conversion (or the decoding that
// validation needs); a failure is then told apart as 400 S2R-VAL-0400.
// The JSON Schema is validated up front only when the operation's
// contract has facets conversion does not check; otherwise conversion is
// the schema check and the schema is validated only after a failed
// conversion, to list every violation (docs/decisions-runtime.md).
func (c *publishCall) buildRequest(raw []byte, path []routing.PathParam) ([]byte, error) {
	op := c.op
	if raw == nil {
		raw = []byte("{}")
	}
	raw, headers, err := c.takeHeaders(raw)
	if err != nil {
		return nil, err
	}
	params := c.params(path)
	var doc any
	if op.RequestSchemaCheck || len(op.RequestRules) > 0 || len(params) > 0 || op.RequestRenamer != nil {
		var err error
		if doc, err = routing.DecodeJSON(raw); err != nil {
			return nil, invalidJSON(raw)
		}
		if op.RequestRenamer != nil {
			doc = op.RequestRenamer.ToContract(doc)
			if raw, err = json.Marshal(doc); err != nil {
				return nil, apierr.Wrap(apierr.ValBadRequest, err, "the request could not be encoded")
			}
		}
		if len(params) > 0 {
			if doc, raw, err = mergeParams(doc, params); err != nil {
				return nil, err
			}
		}
	}
	if op.RequestSchemaCheck && op.RequestSchema != nil {
		if v := routing.SchemaViolations(op.RequestSchema, doc); len(v) > 0 {
			return nil, schemaError(v)
		}
	}
	if len(op.RequestRules) > 0 {
		if v := routing.CheckRules(op.RequestRules, doc); len(v) > 0 {
			return nil, apierr.New(apierr.ValRequestRegex, "request fields fail their validation patterns").
				WithDetail("violations", v)
		}
	}
	if op.Transform != nil {
		var err error
		if raw, err = op.Transform.Apply(raw); err != nil {
			if errors.Is(err, transform.ErrInvalidJSON) {
				return nil, invalidJSON(raw)
			}
			return nil, apierr.Newf(apierr.ValBadRequest, "a transform rule cannot apply to the request: %v", err)
		}
	}
	w := xmlstream.NewWriter(make([]byte, 0, 2*len(raw)+512))
	env := soap.Envelope{Version: op.SOAPVersion, Namespaces: op.Namespaces, Addressing: c.wsa}
	if len(headers) > 0 {
		env.Headers = [][]byte{headers}
	}
	if err := soap.Write(w, env, func(w *xmlstream.Writer) error { return op.Request.JSONToXML(w, raw) }); err != nil {
		return nil, c.conversionError(raw, err)
	}
	return w.Bytes(), nil
}

// invalidJSON is 400 S2R-VAL-0400 naming the syntax error of raw.
func invalidJSON(raw []byte) *apierr.Error {
	_, err := routing.DecodeJSON(raw)
	if err == nil {
		err = errors.New("not a single JSON value")
	}
	return apierr.Newf(apierr.ValBadRequest, "the request body is not valid JSON: %v", err)
}

// conversionError is 400 S2R-VAL-0400 for a body that is not JSON (the
// happy path leaves the syntax check to the converter), else 400
// S2R-VAL-0410 for a request the contract refuses, listing the schema's
// violations when it finds any, else the converter's.
func (c *publishCall) conversionError(raw []byte, err error) *apierr.Error {
	if !json.Valid(raw) {
		return invalidJSON(raw)
	}
	if c.op.RequestSchema != nil {
		if doc, derr := routing.DecodeJSON(raw); derr == nil {
			if v := routing.SchemaViolations(c.op.RequestSchema, doc); len(v) > 0 {
				return schemaError(v)
			}
		}
	}
	if ce, ok := convert.AsError(err); ok {
		return schemaError([]routing.Violation{{Pointer: ce.Pointer, Reason: ce.Reason}})
	}
	return apierr.Wrap(apierr.ValRequestSchema, err, "the request body could not be converted to SOAP")
}

func schemaError(v []routing.Violation) *apierr.Error {
	return apierr.New(apierr.ValRequestSchema, "the request body does not match the operation's schema").
		WithDetail("violations", v)
}

// param is one path or query parameter bound to a top-level field.
type param struct {
	name   string
	kind   routing.ParamKind
	values []string
}

// params lists the query parameters that name top-level request fields
// (by the client's names when the mapping renames them; others are
// ignored), then the path parameters, which win.
func (c *publishCall) params(path []routing.PathParam) []param {
	var out []param
	if c.r.URL.RawQuery != "" {
		for name, values := range c.r.URL.Query() {
			name = c.op.RequestRenamer.ContractName("", name)
			if k, ok := c.op.Params[name]; ok && len(values) > 0 {
				out = append(out, param{name, k, values})
			}
		}
	}
	for _, p := range path {
		out = append(out, param{p.Name, c.op.Params[p.Name], []string{p.Value}})
	}
	return out
}

// mergeParams sets params into the request object, typed by the contract.
func mergeParams(doc any, params []param) (any, []byte, error) {
	obj, ok := doc.(map[string]any)
	if !ok {
		return nil, nil, schemaError([]routing.Violation{{Pointer: "", Reason: "the body must be a JSON object when path or query parameters are used"}})
	}
	for _, p := range params {
		obj[p.name] = paramValue(p.kind, p.values)
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, nil, apierr.Wrap(apierr.ValBadRequest, err, "the request could not be encoded")
	}
	return obj, b, nil
}

// paramValue types a parameter: numbers and booleans when the text is
// one (else the string, which validation then refuses), arrays of every
// occurrence, strings otherwise (the last occurrence).
func paramValue(kind routing.ParamKind, values []string) any {
	switch kind {
	case routing.ParamArray, routing.ParamNumberArray, routing.ParamBooleanArray:
		item := routing.ParamString
		if kind == routing.ParamNumberArray {
			item = routing.ParamNumber
		} else if kind == routing.ParamBooleanArray {
			item = routing.ParamBoolean
		}
		out := make([]any, len(values))
		for i, s := range values {
			out[i] = scalarParam(item, s)
		}
		return out
	}
	return scalarParam(kind, values[len(values)-1])
}

func scalarParam(kind routing.ParamKind, v string) any {
	switch kind {
	case routing.ParamNumber:
		if v != "" && (v[0] == '-' || v[0] >= '0' && v[0] <= '9') && json.Valid([]byte(v)) {
			return json.Number(v)
		}
	case routing.ParamBoolean:
		switch v {
		case "true":
			return true
		case "false":
			return false
		}
	}
	return v
}
