package dataplane

import (
	"strconv"
	"strings"

	"github.com/s2r-project/s2r/internal/convert"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/soap"
	"github.com/s2r-project/s2r/internal/xmlstream"
)

// Response validation modes (DESIGN 10.6, docs/decisions-validation.md).
// strict answers a response that breaks the contract with 502 (the
// S2R-RUN-0506 of a conversion, the S2R-VAL-0430/0431 of the schema and
// regex checks). detect converts it as far as it goes, answers it, and
// notes each violation on the transaction record, where the recorder
// stores it and counts it in s2r_contract_violations_total. off does the
// same conversion and notes nothing. A response that is not XML or JSON
// at all (S2R-RUN-0504) is refused in every mode.

// maxResponseIssues bounds the violations noted for one response, and the
// repairs tried on a consume response.
const maxResponseIssues = 20

// lenient reports whether op answers responses that break its contract.
func lenient(op *routing.Operation) bool {
	return op.ResponseValidation == model.ValidationDetect || op.ResponseValidation == model.ValidationOff
}

// noteIssue records one violation on rec when op is in detect mode.
func noteIssue(op *routing.Operation, rec *model.TxRecord, pointer, reason string) {
	if op.ResponseValidation != model.ValidationDetect || len(rec.ValidationIssues) >= maxResponseIssues {
		return
	}
	if pointer == "" {
		pointer = "/"
	}
	rec.ValidationIssues = append(rec.ValidationIssues, model.ValidationIssue{Pointer: pointer, Reason: reason})
}

// noteConvertError records the violation a conversion error names.
func noteConvertError(op *routing.Operation, rec *model.TxRecord, err error) {
	ce, ok := convert.AsError(err)
	if !ok {
		noteIssue(op, rec, "/", err.Error())
		return
	}
	p := ce.Pointer
	if ce.Path != "" {
		p = ce.Path
	}
	noteIssue(op, rec, p, ce.Reason)
}

// checkResponseMode is checkResponse under op's mode: strict returns its
// error, detect notes the violations instead, off checks nothing. schema
// says whether the JSON Schema is checked (always after a lax conversion,
// which enforces nothing of it).
func checkResponseMode(op *routing.Operation, rec *model.TxRecord, doc any, schema bool) error {
	switch op.ResponseValidation {
	case model.ValidationOff:
		return nil
	case model.ValidationDetect:
		var vs []routing.Violation
		if schema {
			vs = routing.SchemaViolations(op.ResponseSchema, doc)
		}
		for _, v := range append(vs, routing.CheckRules(op.ResponseRules, doc)...) {
			noteIssue(op, rec, v.Pointer, v.Reason)
		}
		return nil
	}
	return checkResponse(op, doc, schema)
}

// convertLenientXML converts a SOAP response the strict plan refused
// (detect and off): by the operation's lax plan, which skips what the
// contract does not declare, else by the generic mapping of
// docs/conversion.md. The caller has checked that body is a SOAP envelope
// without a Fault.
func convertLenientXML(op *routing.Operation, body []byte, lim xmlstream.Limits) ([]byte, error) {
	var err error
	for _, plan := range []*convert.Plan{op.LaxResponse, nil} {
		var rd *xmlstream.Reader
		if _, rd, err = soap.ParseHead(body, lim); err != nil {
			return nil, err
		}
		var out []byte
		if plan != nil {
			out, err = plan.XMLToJSON(nil, rd, "/Envelope/Body")
		} else {
			out, err = convert.NaiveXMLToJSON(nil, rd, "/Envelope/Body")
		}
		if err == nil {
			err = soap.FinishBody(rd)
		}
		if err == nil {
			return out, nil
		}
	}
	return nil, err
}

// removePointer deletes the value at a JSON pointer from doc (decoded
// JSON: objects and arrays), returning the changed document and whether
// anything was removed; the root cannot be removed.
func removePointer(doc any, pointer string) (any, bool) {
	if pointer == "" || pointer == "/" || !strings.HasPrefix(pointer, "/") {
		return doc, false
	}
	segs := strings.Split(pointer[1:], "/")
	unescape := strings.NewReplacer("~1", "/", "~0", "~")
	for i, s := range segs {
		segs[i] = unescape.Replace(s)
	}
	return removeAt(doc, segs)
}

// removeAt removes the value segs lead to below v.
func removeAt(v any, segs []string) (any, bool) {
	switch t := v.(type) {
	case map[string]any:
		child, ok := t[segs[0]]
		if !ok {
			return v, false
		}
		if len(segs) == 1 {
			delete(t, segs[0])
			return t, true
		}
		child, ok = removeAt(child, segs[1:])
		t[segs[0]] = child
		return t, ok
	case []any:
		i, err := strconv.Atoi(segs[0])
		if err != nil || i < 0 || i >= len(t) {
			return v, false
		}
		if len(segs) == 1 {
			return append(t[:i:i], t[i+1:]...), true
		}
		child, ok := removeAt(t[i], segs[1:])
		t[i] = child
		return t, ok
	}
	return v, false
}
