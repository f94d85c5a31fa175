package dataplane

import (
	"bytes"
	"encoding/json"
	"log/slog"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/convert"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/soap"
	"github.com/s2r-project/s2r/internal/upstream"
	"github.com/s2r-project/s2r/internal/xmlstream"
)

// convertResponse turns the backend's answer into the client's JSON: SOAP
// faults by faultDetailExposureMode (rule 8), conversion by the contract
// and response validation (rule 9), declared header parts as "$headers".
func (c *publishCall) convertResponse(resp *upstream.Response) ([]byte, error) {
	ok2xx := resp.StatusCode >= 200 && resp.StatusCode < 300
	if c.op.Response == nil && ok2xx && len(bytes.TrimSpace(resp.Body)) == 0 {
		// One-way operation accepted with no envelope (202 Accepted, the
		// usual answer of SOAP over HTTP; WS-I BP R2714).
		return []byte("{}"), nil
	}
	body, lim, err := c.inlineAttachments(resp, c.limits())
	if err != nil {
		return nil, err
	}
	m, rd, err := soap.ParseHead(body, lim)
	if err != nil {
		if !ok2xx {
			return nil, backendStatusError(resp)
		}
		return nil, apierr.Wrap(apierr.RunBadSOAPResponse, err, "the backend response is not a SOAP envelope").
			WithDetail("backendStatus", resp.StatusCode)
	}
	if m.FaultAhead(rd) {
		f, err := m.ReadFault(rd)
		if err != nil {
			return nil, apierr.Wrap(apierr.RunBadSOAPResponse, err, "the backend's SOAP Fault could not be parsed").
				WithDetail("backendStatus", resp.StatusCode)
		}
		c.rec.InBodyFault = ok2xx
		return nil, c.faultError(f, resp.StatusCode)
	}
	if !ok2xx {
		return nil, backendStatusError(resp)
	}
	op := c.op
	if op.Response == nil {
		return []byte("{}"), nil // one-way operation: nothing to convert
	}
	c.out = getBuf(len(body))
	out, err := op.Response.XMLToJSON(*c.out, rd, "/Envelope/Body")
	*c.out = out[:0] // keep the grown buffer for the pool
	if err == nil {
		err = soap.FinishBody(rd)
	}
	schema := schemaNone
	if op.ResponseSchemaCheck && op.ResponseSchema != nil {
		schema = schemaFull
	}
	if err != nil {
		e := responseConvertError(err, body, lim)
		if e.Code != apierr.RunContractDrift || !lenient(op) {
			return nil, e
		}
		cause := err
		if out, schema, err = convertLenientXML(op, c.rec, body, lim, cause); err != nil {
			noteConvertError(op, c.rec, cause)
			return nil, e
		}
		if op.ResponseSchema == nil || schema == schemaValues && !op.ResponseSchemaCheck {
			schema = schemaNone // no facet the plan leaves to the schema
		}
	}
	if err := c.validateResponse(out, schema); err != nil {
		return nil, err
	}
	if op.ResponseRenamer != nil {
		doc, err := routing.DecodeJSON(out)
		if err != nil {
			return nil, apierr.Wrap(apierr.RunInternal, err, "the converted response is not valid JSON")
		}
		if out, err = json.Marshal(op.ResponseRenamer.FromContract(doc)); err != nil {
			return nil, apierr.Wrap(apierr.RunInternal, err, "the response could not be encoded")
		}
	}
	if op.ResponseHeaders != nil && len(m.Headers) > 0 {
		return c.responseHeaders(out, m)
	}
	return out, nil
}

// backendStatusError is 502 S2R-RUN-0502 for a non-2xx answer that holds
// no SOAP Fault.
func backendStatusError(resp *upstream.Response) *apierr.Error {
	return apierr.Newf(apierr.RunBackendFault, "the backend answered HTTP %d without a SOAP Fault", resp.StatusCode).
		WithDetail("backendStatus", resp.StatusCode)
}

// responseConvertError tells an answer that is not well-formed (502
// S2R-RUN-0504) from one that breaks the contract (502 S2R-RUN-0506). The
// envelope is parsed a second time only on this error path.
func responseConvertError(err error, body []byte, lim xmlstream.Limits) *apierr.Error {
	if _, perr := soap.Parse(body, lim); perr != nil {
		return apierr.Wrap(apierr.RunBadSOAPResponse, perr, "the backend response could not be parsed")
	}
	e := apierr.Wrap(apierr.RunContractDrift, err, "the backend response does not match the contract")
	if ce, ok := convert.AsError(err); ok {
		e = e.With(map[string]any{"path": ce.Path, "reason": ce.Reason})
	}
	return e
}

// validateResponse checks the converted JSON against the response schema
// (502 S2R-VAL-0430) and the response regexes (502 S2R-VAL-0431), under
// the operation's validation mode; schema says how much of the schema
// (convertLenientXML: after a lax conversion, the facets or all of it).
func (c *publishCall) validateResponse(out []byte, schema schemaCheck) error {
	op := c.op
	if op.ResponseValidation == model.ValidationOff {
		return nil
	}
	if schema == schemaNone && len(op.ResponseRules) == 0 {
		return nil // conversion by the plan enforced everything the schema says
	}
	doc, err := routing.DecodeJSON(out)
	if err != nil {
		return apierr.Wrap(apierr.RunInternal, err, "the converted response is not valid JSON")
	}
	return checkResponseMode(op, c.rec, doc, schema)
}

// faultError is 502 S2R-RUN-0502 for a SOAP Fault: details hold only the
// faultCode and faultSubcodes in safe mode, the whole parsed fault in full mode (its detail
// pruned to the fault mapping's pick paths when it has any). The full
// fault always goes to the operator log.
func (c *publishCall) faultError(f *soap.Fault, status int) *apierr.Error {
	full := c.faultJSON(f)
	c.d.cfg.Logger.LogAttrs(c.r.Context(), slog.LevelWarn, "backend SOAP fault",
		slog.String("correlationId", c.cid), slog.String("serviceKey", c.svc.ServiceKey),
		slog.String("operationKey", c.op.Key), slog.Int("backendStatus", status),
		slog.String("fault", string(full)))
	e := apierr.New(apierr.RunBackendFault, "the backend answered a SOAP Fault")
	if c.svc.FaultDetailExposure == model.FaultDetailFull {
		var details map[string]any
		dec := json.NewDecoder(bytes.NewReader(full))
		dec.UseNumber()
		if dec.Decode(&details) == nil {
			if c.op.FaultPicker != nil {
				c.op.FaultPicker.Pick(details)
			}
			if d, ok := details["detail"]; ok && c.op.FaultRenamer != nil {
				details["detail"] = c.op.FaultRenamer.FromContract(d)
			}
			return e.With(details)
		}
	}
	return safeFault(e, f)
}

// safeFault adds what faultDetailExposureMode safe exposes of a fault:
// its code and the local names of its subcodes (the specific code client
// code branches on: soap:Client.CardDeclined gives "Sender" and
// ["CardDeclined"], as a SOAP 1.2 Sender with a CardDeclined Subcode
// does), never its reason or detail.
func safeFault(e *apierr.Error, f *soap.Fault) *apierr.Error {
	e = e.WithDetail("faultCode", f.CodeName())
	if subs := f.SubcodeNames(); subs != nil {
		e = e.WithDetail("faultSubcodes", subs)
	}
	return e
}

// faultJSON is the fault in the JSON shape of docs/conversion.md section
// 13: its detail keyed by the detail elements' local names, converted by
// the declared fault its first element names when that fits, else naively.
func (c *publishCall) faultJSON(f *soap.Fault) []byte {
	var detail []byte
	if len(f.Detail) > 0 {
		const path = "/Envelope/Body/Fault/detail"
		if name, ok := convert.DetailElement(f.Detail); ok {
			if p := c.op.Faults[[2]string{name.Space, name.Local}]; p != nil {
				if d, err := convert.FragmentJSON(nil, f.Detail, p, path, c.limits()); err == nil {
					detail = d
				}
			}
		}
		if detail == nil {
			if d, err := convert.FragmentJSON(nil, f.Detail, nil, path, c.limits()); err == nil {
				detail = d
			}
		}
	}
	return f.AppendJSON(nil, detail)
}
