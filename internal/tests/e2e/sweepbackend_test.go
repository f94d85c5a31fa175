package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/s2r-project/s2r/internal/admin/backends/samples"
	"github.com/s2r-project/s2r/internal/convert"
	"github.com/s2r-project/s2r/internal/soap"
	"github.com/s2r-project/s2r/internal/xmlstream"
	"github.com/s2r-project/s2r/internal/xsd"
)

// sweepBackend is a SOAP server on 127.0.0.1 for the publish sweep: each
// service posts to /{serviceKey}, and the service's operations are called
// one at a time, so the backend knows which operation a request is for.
// It checks the request against the contract (SOAP version, Content-Type,
// action, Body element, body and header values read back with the input
// plans) and answers the output message's sample converted with s2r's own
// output plan, or 202 with no body for a one-way operation.
type sweepBackend struct {
	srv   *httptest.Server
	mu    sync.Mutex
	cases map[string]*sweepCase // serviceKey → the operation called now
}

// sweepCase is one operation call as the backend expects it.
type sweepCase struct {
	version soap.Version
	action  string           // the binding's soapAction
	first   []xmlstream.Name // acceptable first Body elements; none: empty Body
	in      *convert.Plan
	sent    any // the JSON request the client sent (decoded), "$headers" aside
	// hin reads the request's header parts back when the client sent
	// sentHeaders ("$headers").
	hin         *convert.Plan
	sentHeaders any
	// answer is the envelope answered, nil for a one-way operation (202,
	// no body).
	answer []byte

	mu       sync.Mutex
	called   int
	problems []string // what was wrong with the request the backend got
}

func (c *sweepCase) problem(format string, args ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.problems = append(c.problems, fmt.Sprintf(format, args...))
}

func newSweepBackend(t *testing.T) *sweepBackend {
	b := &sweepBackend{cases: map[string]*sweepCase{}}
	b.srv = httptest.NewServer(http.HandlerFunc(b.serve))
	t.Cleanup(b.srv.Close)
	return b
}

// expect makes c the operation the backend expects for serviceKey.
func (b *sweepBackend) expect(serviceKey string, c *sweepCase) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.cases[serviceKey] = c
}

func (b *sweepBackend) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	b.mu.Lock()
	c := b.cases[strings.TrimPrefix(r.URL.Path, "/")]
	b.mu.Unlock()
	if c == nil {
		w.Header().Set("Content-Type", "text/xml; charset=utf-8")
		w.WriteHeader(500)
		_, _ = io.WriteString(w, envelope11(`<soap:Fault><faultcode>soap:Client</faultcode><faultstring>no sweep case for `+r.URL.Path+`</faultstring></soap:Fault>`))
		return
	}
	c.mu.Lock()
	c.called++
	c.mu.Unlock()
	c.check(r.Header, body)
	if c.answer == nil {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	w.Header().Set("Content-Type", c.version.ContentType(""))
	_, _ = w.Write(c.answer)
}

// check verifies the request: media type, action and envelope of the
// binding's SOAP version, the input message's Body element, and the
// values read back with the input plan equal to what the client sent.
func (c *sweepCase) check(h http.Header, body []byte) {
	want, action := soap.MediaType11, h.Get("SOAPAction")
	ctype := h.Get("Content-Type")
	mt, params, err := mime.ParseMediaType(ctype)
	if c.version == soap.V12 {
		want, action = soap.MediaType12, params["action"]
	} else {
		action = strings.TrimSuffix(strings.TrimPrefix(action, `"`), `"`)
	}
	if err != nil || mt != want {
		c.problem("request Content-Type %q, want %s", ctype, want)
	}
	if action != c.action {
		c.problem("request SOAP action %q, the binding says %q", action, c.action)
	}
	m, err := soap.Parse(body, xmlstream.Limits{})
	if err != nil {
		c.problem("request is not a well-formed SOAP envelope: %v: %.300s", err, body)
		return
	}
	if m.Version != c.version {
		c.problem("request envelope is SOAP version %d, want %d", m.Version, c.version)
	}
	switch {
	case len(c.first) == 0 && m.First != (xmlstream.Name{}):
		c.problem("request Body holds %s, want an empty Body", m.First)
	case len(c.first) > 0 && !containsName(c.first, m.First):
		c.problem("request Body element %s, want %s", m.First, c.first[0])
	}
	rd, err := m.BodyReader()
	if err != nil {
		c.problem("request Body: %v", err)
		return
	}
	got, err := c.in.XMLToJSON(nil, rd, "/Envelope/Body")
	if err != nil {
		c.problem("request does not read back with the input plan: %v: %.300s", err, m.Body())
		return
	}
	if !sameJSON(got, c.sent) {
		c.problem("request reads back as %s, the client sent %s", got, mustMarshal(c.sent))
	}
	if c.sentHeaders == nil {
		return
	}
	hr, err := m.HeaderReader()
	if err != nil || hr == nil {
		c.problem("request has no Header, the client sent $headers %s", mustMarshal(c.sentHeaders))
		return
	}
	if got, err = c.hin.XMLToJSON(nil, hr, "/Envelope/Header"); err != nil {
		c.problem("request Header does not read back with the header plan: %v", err)
	} else if !sameJSON(got, c.sentHeaders) {
		c.problem("request Header reads back as %s, the client sent $headers %s", got, mustMarshal(c.sentHeaders))
	}
}

func containsName(names []xmlstream.Name, n xmlstream.Name) bool {
	for _, x := range names {
		if x == n {
			return true
		}
	}
	return false
}

// bodyElements are the names the first Body element of msg may have.
func bodyElements(msg *xsd.Message) []xmlstream.Name {
	switch {
	case msg == nil:
		return nil
	case msg.Wrapper != nil:
		return []xmlstream.Name{msg.Wrapper.Name}
	case len(msg.Parts) == 0:
		return nil
	}
	p := msg.Parts[0]
	if p.Element == nil {
		return []xmlstream.Name{{Local: p.Name}}
	}
	out := []xmlstream.Name{p.Element.Name}
	for _, s := range p.Element.Substitutes {
		out = append(out, s.Name)
	}
	return out
}

// sampleAnswer builds the backend's answer to op: the output message's
// sample (internal/admin/backends/samples) converted with the output plan into an
// envelope of the binding's version, with a sample of the output header
// parts in the Header when opts fill optional content. It returns the
// JSON the client should get too.
func sampleAnswer(op *xsd.Operation, v soap.Version, opts samples.Options) ([]byte, any, error) {
	if op.Output == nil {
		return nil, nil, nil
	}
	sample, err := json.Marshal(samples.MessageWith(op.Output, opts))
	if err != nil {
		return nil, nil, err
	}
	popts := convert.OptionsFor(op)
	popts.OmitDeclarations = true
	plan, err := convert.Compile(op.Output, popts)
	if err != nil {
		return nil, nil, fmt.Errorf("output plan: %w", err)
	}
	env := soap.Envelope{Version: v}
	for _, ns := range plan.Namespaces() {
		env.Namespaces = append(env.Namespaces, soap.NSDecl{Prefix: ns.Prefix, URI: ns.URI})
	}
	want := decodeJSON(sample)
	hdr := headerSample(op.Output, opts)
	if hdr != nil {
		hplan, err := convert.CompileHeaders(op.Output, convert.OptionsFor(op))
		if err != nil {
			return nil, nil, fmt.Errorf("output header plan: %w", err)
		}
		env.HeaderFunc = func(w *xmlstream.Writer) error { return hplan.JSONToXML(w, hdr) }
		if obj, ok := want.(map[string]any); ok {
			obj[convert.HeadersMember] = decodeJSON(hdr)
		}
	}
	w := xmlstream.NewWriter(nil)
	if err := soap.Write(w, env, func(w *xmlstream.Writer) error { return plan.JSONToXML(w, sample) }); err != nil {
		return nil, nil, fmt.Errorf("the output sample %s (headers %s) does not convert: %w", sample, hdr, err)
	}
	return w.Bytes(), want, nil
}

// headerSample is the sample "$headers" object of msg's header parts when
// opts fill optional content (header parts are optional), else nil.
func headerSample(msg *xsd.Message, opts samples.Options) []byte {
	if msg == nil || len(msg.Headers) == 0 || opts.Optional == 0 {
		return nil
	}
	b, _ := json.Marshal(samples.MessageWith(&xsd.Message{Parts: msg.Headers}, opts))
	return b
}

// sampleRequest is the request sample of op, with "$headers" when op has
// input header parts and opts fill optional content.
func sampleRequest(op *xsd.Operation, opts samples.Options) ([]byte, error) {
	req, err := samples.RequestWith(op, opts)
	if err != nil {
		return nil, err
	}
	hdr := headerSample(op.Input, opts)
	if hdr == nil {
		return req, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(req, &obj); err != nil {
		return nil, err
	}
	obj[convert.HeadersMember] = hdr
	return json.Marshal(obj)
}

// decodeJSON decodes b keeping numbers exact; nil when it is not JSON.
func decodeJSON(b []byte) any {
	var v any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return nil
	}
	return v
}

// sameJSON reports whether got decodes to want, an absent member and an
// empty array being the same (XML→JSON writes absent repeated elements
// as [], docs/conversion.md section 3).
func sameJSON(got []byte, want any) bool {
	return reflect.DeepEqual(dropEmptyArrays(decodeJSON(got)), dropEmptyArrays(want))
}

// dropEmptyArrays returns v without the object members that are [].
func dropEmptyArrays(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, m := range x {
			if a, ok := m.([]any); ok && len(a) == 0 {
				continue
			}
			out[k] = dropEmptyArrays(m)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, m := range x {
			out[i] = dropEmptyArrays(m)
		}
		return out
	}
	return v
}

func mustMarshal(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// inputPlan is the plan the backend reads the request back with.
func inputPlan(op *xsd.Operation) (*convert.Plan, error) {
	if op.Input == nil {
		return nil, fmt.Errorf("operation %s has no input", op.Name)
	}
	return convert.Compile(op.Input, convert.OptionsFor(op))
}
