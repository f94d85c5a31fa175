package dataplane

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"unicode/utf8"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/convert"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/soap"
	"github.com/s2r-project/s2r/internal/upstream"
	"github.com/s2r-project/s2r/internal/xmlstream"
)

// maxExposedBody bounds a non-JSON backend error body put in a Fault
// detail in full mode.
const maxExposedBody = 4096

// convertResponse turns the REST answer into the SOAP response: a non-2xx
// status is a Fault carrying 502 S2R-RUN-0502 (the backend's body in the
// detail when faultDetailExposureMode is full); a 2xx JSON answer is
// converted by the operation's response plan after its renames are undone
// and its validation passed.
func (c *consumeCall) convertResponse(resp *upstream.Response) ([]byte, int, error) {
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, 0, c.statusError(resp)
	}
	op := c.op
	if op.Response == nil {
		return nil, http.StatusAccepted, nil // one-way: nothing to answer
	}
	body := bytes.TrimSpace(resp.Body)
	if len(body) == 0 {
		body = []byte("{}")
	}
	m := mappingFor(op)
	var doc any
	listed := false // the whole schema was checked: every violation is noted
	if len(m.respRename) > 0 || op.ResponseSchemaCheck || len(op.ResponseRules) > 0 {
		var err error
		if doc, err = decodeNumbers(body); err != nil {
			return nil, 0, notJSONError(err, resp)
		}
		if len(m.respRename) > 0 {
			m.unmapResponse(doc)
			if body, err = marshalJSON(doc); err != nil {
				return nil, 0, apierr.Wrap(apierr.RunInternal, err, "the backend response could not be re-encoded")
			}
		}
		schema := schemaNone
		if op.ResponseSchemaCheck && op.ResponseSchema != nil {
			schema, listed = schemaFull, true
		}
		if err := checkResponseMode(op, c.rec, doc, schema); err != nil {
			return nil, 0, err
		}
	}
	out, err := c.writeResponse(body)
	if err != nil {
		if !json.Valid(body) {
			return nil, 0, notJSONError(err, resp)
		}
		e := apierr.Wrap(apierr.RunContractDrift, err, "the backend response does not match the operation's contract")
		if ce, ok := convert.AsError(err); ok {
			e = e.With(map[string]any{"path": ce.Pointer, "reason": ce.Reason})
		}
		if !lenient(op) {
			return nil, 0, e
		}
		if out, err = c.writeLenient(body, err, listed); err != nil {
			return nil, 0, e
		}
	}
	return out, http.StatusOK, nil
}

// writeResponse converts a JSON response into the SOAP envelope answered.
func (c *consumeCall) writeResponse(body []byte) ([]byte, error) {
	w := xmlstream.NewWriter(make([]byte, 0, 2*len(body)+512))
	err := soap.Write(w, soap.Envelope{Version: c.version}, func(w *xmlstream.Writer) error {
		return c.op.Response.JSONToXML(w, body)
	})
	return w.Bytes(), err
}

// writeLenient converts a JSON response the contract refused (detect and
// off modes) as far as it goes. Under detect every violation is noted
// first, by the whole JSON Schema (unless listed says the caller did),
// each at its pointer. Then the members the schema does not declare are
// removed at once, however many, and each further value the converter
// names is removed and the conversion tried again, up to
// maxResponseIssues times; those are noted only when the schema noted
// nothing.
func (c *consumeCall) writeLenient(body []byte, cause error, listed bool) ([]byte, error) {
	doc, err := decodeNumbers(body)
	if err != nil {
		return nil, err
	}
	op := c.op
	if op.ResponseSchema != nil {
		if !listed && op.ResponseValidation == model.ValidationDetect {
			vs, found := routing.AllSchemaViolations(op.ResponseSchema, doc)
			noteViolations(op, c.rec, vs, found)
			listed = found > 0
		}
		removed := false
		for _, p := range routing.UndeclaredMembers(op.ResponseSchema, doc) {
			var ok bool
			doc, ok = removePointer(doc, p)
			removed = removed || ok
		}
		if removed {
			if body, err = marshalJSON(doc); err != nil {
				return nil, err
			}
			out, err := c.writeResponse(body)
			if err == nil {
				return out, nil
			}
			cause = err
		}
	}
	for range maxResponseIssues {
		if !listed {
			noteConvertError(op, c.rec, cause)
		}
		ce, ok := convert.AsError(cause)
		if !ok {
			return nil, cause
		}
		var removed bool
		if doc, removed = removePointer(doc, ce.Pointer); !removed {
			return nil, cause
		}
		if body, err = marshalJSON(doc); err != nil {
			return nil, err
		}
		out, err := c.writeResponse(body)
		if err == nil {
			return out, nil
		}
		cause = err
	}
	return nil, cause
}

// notJSONError is 502 S2R-RUN-0504: the backend's 2xx answer is not JSON.
func notJSONError(err error, resp *upstream.Response) *apierr.Error {
	return apierr.Wrap(apierr.RunBadSOAPResponse, err, "the backend response is not valid JSON").
		WithDetail("backendStatus", resp.StatusCode).
		WithDetail("contentType", resp.Header.Get("Content-Type"))
}

// checkResponse checks a backend response's JSON document against the
// operation's response schema when schema is set (502 S2R-VAL-0430), then
// against its response regexes (502 S2R-VAL-0431). Publish and consume
// answer the same errors.
func checkResponse(op *routing.Operation, doc any, schema bool) error {
	if schema {
		if v := routing.SchemaViolations(op.ResponseSchema, doc); len(v) > 0 {
			return apierr.New(apierr.ValResponseSchema, "the backend response does not match the operation's response schema").
				WithDetail("violations", v)
		}
	}
	if v := routing.CheckRules(op.ResponseRules, doc); len(v) > 0 {
		return apierr.New(apierr.ValResponseRegex, "backend response fields fail their validation patterns").
			WithDetail("violations", v)
	}
	return nil
}

// statusError is 502 S2R-RUN-0502 for a non-2xx REST answer. The body
// always goes to the operator log; the Fault detail carries it only in
// full mode (as JSON when it is JSON, else as text, truncated).
func (c *consumeCall) statusError(resp *upstream.Response) *apierr.Error {
	c.d.cfg.Logger.LogAttrs(c.r.Context(), slog.LevelWarn, "consume backend error status",
		slog.String("correlationId", c.cid), slog.String("serviceKey", c.svc.ServiceKey),
		slog.String("operationKey", c.op.Key), slog.Int("backendStatus", resp.StatusCode),
		slog.String("body", truncateText(resp.Body, maxExposedBody)))
	e := apierr.Newf(apierr.RunBackendFault, "the REST backend answered HTTP %d", resp.StatusCode).
		WithDetail("backendStatus", resp.StatusCode)
	if c.svc.FaultDetailExposure != model.FaultDetailFull || len(bytes.TrimSpace(resp.Body)) == 0 {
		return e
	}
	if json.Valid(resp.Body) {
		var buf bytes.Buffer
		if json.Compact(&buf, resp.Body) == nil {
			return e.WithDetail("backendBody", buf.String())
		}
	}
	return e.WithDetail("backendBody", truncateText(resp.Body, maxExposedBody))
}

// truncateText returns at most n bytes of b as valid UTF-8 text.
func truncateText(b []byte, n int) string {
	if len(b) > n {
		b = b[:n]
		for len(b) > 0 && !utf8.Valid(b) {
			b = b[:len(b)-1]
		}
	}
	return string(bytes.ToValidUTF8(b, []byte("\uFFFD")))
}
