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

// buildRequest turns the JSON request into the SOAP envelope: path and
// query parameters merged into the top-level object, schema (rule 3) and
// regex (rule 4) validation, transforms and conversion (rule 5).
func (c *publishCall) buildRequest(raw []byte, params []routing.PathParam) ([]byte, error) {
	op := c.op
	if raw == nil {
		raw = []byte("{}")
	}
	doc, err := routing.DecodeJSON(raw)
	if err != nil {
		return nil, apierr.Newf(apierr.ValBadRequest, "the request body is not valid JSON: %v", err)
	}
	if doc, raw, err = c.mergeParams(doc, raw, params); err != nil {
		return nil, err
	}
	if op.RequestSchema != nil {
		if v := routing.SchemaViolations(op.RequestSchema, doc); len(v) > 0 {
			return nil, apierr.New(apierr.ValRequestSchema, "the request body does not match the operation's schema").
				WithDetail("violations", v)
		}
	}
	if v := routing.CheckRules(op.RequestRules, doc); len(v) > 0 {
		return nil, apierr.New(apierr.ValRequestRegex, "request fields fail their validation patterns").
			WithDetail("violations", v)
	}
	if op.Transform != nil {
		if raw, err = op.Transform.Apply(raw); err != nil {
			var ae *transform.ApplyError
			if errors.As(err, &ae) {
				return nil, apierr.Newf(apierr.ValBadRequest, "a transform rule cannot apply to the request: %v", err)
			}
			return nil, apierr.Wrap(apierr.ValBadRequest, err, "the request could not be transformed")
		}
	}
	w := xmlstream.NewWriter(make([]byte, 0, 2*len(raw)+512))
	env := soap.Envelope{Version: op.SOAPVersion, Namespaces: op.Namespaces}
	err = soap.Write(w, env, func(w *xmlstream.Writer) error { return op.Request.JSONToXML(w, raw) })
	if err != nil {
		if ce, ok := convert.AsError(err); ok {
			return nil, apierr.New(apierr.ValRequestSchema, "the request body does not match the operation's contract").
				WithDetail("violations", []routing.Violation{{Pointer: ce.Pointer, Reason: ce.Reason}})
		}
		return nil, apierr.Wrap(apierr.ValRequestSchema, err, "the request body could not be converted to SOAP")
	}
	return w.Bytes(), nil
}

// mergeParams sets the path and query parameters that name top-level
// request fields into the request object, typed by the contract. A path
// parameter wins over a body member of the same name; query parameters
// that name no request field are ignored.
func (c *publishCall) mergeParams(doc any, raw []byte, path []routing.PathParam) (any, []byte, error) {
	query := c.r.URL.Query()
	type kv struct {
		name   string
		values []string
	}
	var set []kv
	for name, values := range query {
		if _, ok := c.op.Params[name]; ok && len(values) > 0 {
			set = append(set, kv{name, values})
		}
	}
	for _, p := range path {
		set = append(set, kv{p.Name, []string{p.Value}})
	}
	if len(set) == 0 {
		return doc, raw, nil
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return nil, nil, apierr.New(apierr.ValRequestSchema, "the request body must be a JSON object when path or query parameters are used").
			WithDetail("violations", []routing.Violation{{Pointer: "", Reason: "not an object"}})
	}
	for _, p := range set {
		obj[p.name] = paramValue(c.op.Params[p.name], p.values)
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, nil, apierr.Wrap(apierr.ValBadRequest, err, "the request could not be encoded")
	}
	return obj, b, nil
}

// paramValue types a parameter: numbers and booleans when the text is
// one (else the string, which the schema then refuses), arrays of every
// occurrence, strings otherwise (the last occurrence).
func paramValue(kind routing.ParamKind, values []string) any {
	v := values[len(values)-1]
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
	case routing.ParamArray:
		out := make([]any, len(values))
		for i, s := range values {
			out[i] = s
		}
		return out
	}
	return v
}
