package dataplane

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/convert"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/soap"
	"github.com/s2r-project/s2r/internal/upstream"
	"github.com/s2r-project/s2r/internal/xmlstream"
)

// requestJSON converts the SOAP body to JSON with the operation's request
// plan and applies its request validation (schema when the contract has
// facets conversion does not check, regexes).
func (c *consumeCall) requestJSON(rd *xmlstream.Reader) ([]byte, error) {
	op := c.op
	if op.Request == nil {
		return nil, apierr.Newf(apierr.RunInternal, "operation %q has no compiled contract", op.Key)
	}
	out, err := op.Request.XMLToJSON(make([]byte, 0, int(c.rec.RequestBytes)+64), rd, "/Envelope/Body")
	if err == nil {
		err = soap.FinishBody(rd)
	}
	if err != nil {
		if se := (*xmlstream.SyntaxError)(nil); errors.As(err, &se) {
			return nil, malformed(err)
		}
		e := apierr.Wrap(apierr.ValRequestSchema, err, "the SOAP body does not match the operation's contract")
		if ce, ok := convert.AsError(err); ok {
			e = e.WithDetail("violations", []routing.Violation{{Pointer: ce.Path, Reason: ce.Reason}})
		}
		return nil, e
	}
	if !op.RequestSchemaCheck && len(op.RequestRules) == 0 {
		return out, nil
	}
	doc, err := routing.DecodeJSON(out)
	if err != nil {
		return nil, apierr.Wrap(apierr.RunInternal, err, "the converted request is not valid JSON")
	}
	if op.RequestSchemaCheck && op.RequestSchema != nil {
		if v := routing.SchemaViolations(op.RequestSchema, doc); len(v) > 0 {
			return nil, schemaError(v)
		}
	}
	if v := routing.CheckRules(op.RequestRules, doc); len(v) > 0 {
		return nil, apierr.New(apierr.ValRequestRegex, "request fields fail their validation patterns").
			WithDetail("violations", v)
	}
	return out, nil
}

// restCall is the REST request a consume call makes.
type restCall struct {
	method string
	target string // escaped path and query, appended to the endpoint URL
	body   []byte // nil: no body
}

// restCall builds the REST request from the request JSON by the mapping.
func (c *consumeCall) restCall(in []byte) (restCall, error) {
	m := mappingFor(c.op)
	if m.err != nil {
		return restCall{}, apierr.Wrap(apierr.RunInternal, m.err, "the operation's mapping cannot be used")
	}
	call := restCall{method: m.method}
	if !m.needsTree() {
		call.target = m.pathText(nil)
		if m.sendsBody() {
			call.body = in
		}
		return call, nil
	}
	doc, err := decodeNumbers(in)
	if err != nil {
		return call, apierr.Wrap(apierr.RunInternal, err, "the converted request is not valid JSON")
	}
	obj, _ := doc.(map[string]any)
	p, used, err := m.pathFrom(obj)
	if err != nil {
		return call, err
	}
	q := url.Values{}
	switch {
	case len(m.query) > 0:
		for _, qp := range m.query {
			for _, v := range lookupPath(doc, qp.path) {
				if s, ok := scalarText(v); ok {
					q.Add(qp.name, s)
				}
			}
		}
	case m.queryAll():
		for name, v := range obj {
			if used[name] {
				continue
			}
			for _, it := range lookupPath(v, nil) {
				if s, ok := scalarText(it); ok {
					q.Add(name, s)
				}
			}
		}
	}
	call.target = p
	if len(q) > 0 {
		call.target += "?" + q.Encode()
	}
	if !m.sendsBody() {
		return call, nil
	}
	m.mapRequest(doc)
	part := doc
	if m.body != "" && m.body != "/" {
		ptr := strings.NewReplacer("~1", "/", "~0", "~")
		path := strings.Split(strings.TrimPrefix(m.body, "/"), "/")
		for i := range path {
			path[i] = ptr.Replace(path[i])
		}
		vals := lookupPath(doc, path)
		if len(vals) == 0 {
			part = nil
		} else {
			part = vals[0]
		}
	}
	if call.body, err = marshalJSON(part); err != nil {
		return call, apierr.Wrap(apierr.RunInternal, err, "the REST request body could not be encoded")
	}
	return call, nil
}

// pathText renders the path with no parameters.
func (m *consumeMapping) pathText(obj map[string]any) string {
	p, _, _ := m.pathFrom(obj)
	return p
}

// pathFrom renders the path, its {name} segments escaped from the
// top-level fields of obj, and returns the fields it used.
func (m *consumeMapping) pathFrom(obj map[string]any) (string, map[string]bool, error) {
	var b strings.Builder
	used := map[string]bool{}
	for _, s := range m.path {
		b.WriteByte('/')
		if s.param == "" {
			b.WriteString(s.lit)
			continue
		}
		v, ok := obj[s.param]
		text, scalar := scalarText(v)
		if !ok || !scalar || text == "" {
			return "", nil, apierr.Newf(apierr.ValRequestSchema,
				"the REST path needs a value for {%s}: the request has no non-empty simple field %q", s.param, s.param).
				WithDetail("violations", []routing.Violation{{Pointer: "/" + s.param, Reason: "required by the REST path"}})
		}
		used[s.param] = true
		b.WriteString(url.PathEscape(text))
	}
	if b.Len() == 0 {
		return "/", used, nil
	}
	return b.String(), used, nil
}

// scalarText is the text of a JSON scalar (numbers as written); null,
// objects and arrays are not scalars.
func scalarText(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case json.Number:
		return x.String(), true
	case bool:
		if x {
			return "true", true
		}
		return "false", true
	}
	return "", false
}

// decodeNumbers decodes JSON keeping numbers exact.
func decodeNumbers(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// send makes the REST call through the service's backends (their
// endpointUrl is the base URL) with the operation's timeout and retries.
func (c *consumeCall) send(call restCall) (*upstream.Response, error) {
	op := c.op
	h := http.Header{"Accept": {"application/json"}}
	if call.body != nil {
		h.Set("Content-Type", "application/json")
	}
	if c.cid != "" {
		h.Set("X-Correlation-Id", c.cid)
	}
	retries := op.Retries
	return backendCall{d: c.d, r: c.r, rec: c.rec, debug: c.debug, maxMB: c.maxMB}.do(withRESTTarget(c.svc, call.target),
		upstream.Request{Method: call.method, Header: h, Body: call.body, Timeout: op.Timeout, Retries: &retries})
}

// withRESTTarget returns a copy of svc whose backends' endpoint URLs have
// target appended, so that backend selection (which picks among the
// service's backends) calls the REST resource on whichever it picks. The
// copy shares everything else with svc; profile ids are kept, so
// transports, health and breakers are the backends' own.
func withRESTTarget(svc *routing.Service, target string) *routing.Service {
	cp := *svc
	cp.Backends = make([]*routing.Backend, len(svc.Backends))
	cp.DefaultBackend = nil
	for i, b := range svc.Backends {
		nb := *b
		nb.Profile.EndpointURL = joinURL(b.Profile.EndpointURL, target)
		cp.Backends[i] = &nb
		if b == svc.DefaultBackend {
			cp.DefaultBackend = &nb
		}
	}
	return &cp
}

// joinURL appends target (a path with an optional query) to base, merging
// a query base already has.
func joinURL(base, target string) string {
	base, baseQuery, _ := strings.Cut(base, "?")
	path, query, _ := strings.Cut(target, "?")
	out := strings.TrimRight(base, "/") + path
	switch {
	case baseQuery != "" && query != "":
		return out + "?" + baseQuery + "&" + query
	case baseQuery != "":
		return out + "?" + baseQuery
	case query != "":
		return out + "?" + query
	}
	return out
}

// marshalJSON encodes v without HTML escaping (the JSON goes to a REST
// backend, not into a page), without a trailing newline.
func marshalJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
