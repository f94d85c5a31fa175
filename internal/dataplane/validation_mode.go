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

// maxResponseIssues bounds the violations listed for one response (later
// ones are counted in a marker entry, model.OmittedIssues), and the
// repairs tried on a consume response.
const maxResponseIssues = 20

// schemaCheck says how much of the JSON Schema a converted response is
// checked against.
type schemaCheck int

const (
	schemaNone schemaCheck = iota
	// schemaValues: the facets only (routing.ValueViolations), after a Lax
	// conversion that noted the structure itself; strict checks the whole
	// schema instead.
	schemaValues
	schemaFull
)

// lenient reports whether op answers responses that break its contract.
func lenient(op *routing.Operation) bool {
	return op.ResponseValidation == model.ValidationDetect || op.ResponseValidation == model.ValidationOff
}

// noteIssue records one violation on rec when op is in detect mode: the
// first maxResponseIssues are listed, later ones only counted.
func noteIssue(op *routing.Operation, rec *model.TxRecord, pointer, reason string) {
	if op.ResponseValidation != model.ValidationDetect {
		return
	}
	if len(rec.ValidationIssues) >= maxResponseIssues {
		omitIssues(rec, 1)
		return
	}
	if pointer == "" {
		pointer = "/"
	}
	rec.ValidationIssues = append(rec.ValidationIssues, model.ValidationIssue{Pointer: pointer, Reason: reason})
}

// omitIssues counts n violations found and not listed, in the marker
// entry that ends rec's list (every caller is in detect mode).
func omitIssues(rec *model.TxRecord, n int) {
	if n <= 0 {
		return
	}
	if k := len(rec.ValidationIssues); k > 0 && rec.ValidationIssues[k-1].Omitted > 0 {
		rec.ValidationIssues[k-1].Omitted += n
		return
	}
	rec.ValidationIssues = append(rec.ValidationIssues, model.OmittedIssues(n))
}

// issueRoom is how many more violations rec can list.
func issueRoom(rec *model.TxRecord) int {
	n := len(rec.ValidationIssues)
	if n > 0 && rec.ValidationIssues[n-1].Omitted > 0 {
		return 0
	}
	return max(maxResponseIssues-n, 0)
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
// says how much of the JSON Schema is checked.
func checkResponseMode(op *routing.Operation, rec *model.TxRecord, doc any, schema schemaCheck) error {
	switch op.ResponseValidation {
	case model.ValidationOff:
		return nil
	case model.ValidationDetect:
		var vs []routing.Violation
		found := 0
		switch schema {
		case schemaValues:
			vs, found = routing.ValueViolations(op.ResponseSchema, doc)
		case schemaFull:
			vs, found = routing.AllSchemaViolations(op.ResponseSchema, doc)
		}
		noteViolations(op, rec, vs, found)
		for _, v := range routing.CheckRules(op.ResponseRules, doc) {
			noteIssue(op, rec, v.Pointer, v.Reason)
		}
		return nil
	}
	return checkResponse(op, doc, schema != schemaNone)
}

// noteViolations notes the schema violations vs of a detect-mode
// response, found in all (vs lists at most 50 of them).
func noteViolations(op *routing.Operation, rec *model.TxRecord, vs []routing.Violation, found int) {
	for _, v := range vs {
		noteIssue(op, rec, v.Pointer, v.Reason)
	}
	if found > len(vs) {
		omitIssues(rec, found-len(vs))
	}
}

// convertLenientXML converts a SOAP response the strict plan refused with
// cause (detect and off): by the operation's lax plan, which steps over
// what breaks the contract, else by the generic mapping of
// docs/conversion.md. Under detect the lax plan notes every deviation it
// steps over (convert.XMLToJSONNoting), the first maxResponseIssues of
// them listed; cause is noted instead when the lax plan saw none (so the
// response keeps the issue the strict plan found) or did not convert.
// It returns the schema check the JSON then needs: the facets after the
// lax plan, the whole schema after the generic mapping, which checks
// nothing. The caller has checked that body is a SOAP envelope without a
// Fault.
func convertLenientXML(op *routing.Operation, rec *model.TxRecord, body []byte, lim xmlstream.Limits, cause error) ([]byte, schemaCheck, error) {
	detect := op.ResponseValidation == model.ValidationDetect
	var err error
	for _, plan := range []*convert.Plan{op.LaxResponse, nil} {
		var rd *xmlstream.Reader
		if _, rd, err = soap.ParseHead(body, lim); err != nil {
			return nil, schemaNone, err
		}
		var out []byte
		var dev convert.Deviations
		switch {
		case plan != nil && detect:
			dev.Max = issueRoom(rec)
			out, err = plan.XMLToJSONNoting(nil, rd, "/Envelope/Body", &dev)
		case plan != nil:
			out, err = plan.XMLToJSON(nil, rd, "/Envelope/Body")
		default:
			out, err = convert.NaiveXMLToJSON(nil, rd, "/Envelope/Body")
		}
		if err == nil {
			err = soap.FinishBody(rd)
		}
		if err != nil {
			continue
		}
		if plan == nil || dev.Found == 0 {
			noteConvertError(op, rec, cause)
		}
		for _, d := range dev.List {
			noteIssue(op, rec, d.Path, d.Reason)
		}
		if detect {
			omitIssues(rec, dev.Found-len(dev.List))
		}
		if plan == nil {
			return out, schemaFull, nil
		}
		return out, schemaValues, nil
	}
	return nil, schemaNone, err
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
