package backends

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/convert"
	"github.com/s2r-project/s2r/internal/fetch"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/soap"
	"github.com/s2r-project/s2r/internal/upstream"
	"github.com/s2r-project/s2r/internal/xmlstream"
	"github.com/s2r-project/s2r/internal/xsd"
)

// defaultBackendClient makes the outbound calls of backend tests when
// Config.BackendClient is nil. Its transports (per profile, per update)
// are kept between tests, like the runtime's.
var defaultBackendClient = upstream.NewClient()

// maxPreviewText bounds the raw response text kept in a preview.
const maxPreviewText = 64 << 10

// soapCall is one operation call to test: the profile, the operation, its
// contract and the JSON payload.
type soapCall struct {
	profile  model.BackendProfile
	op       model.Operation
	contract *xsd.Operation
	payload  []byte
	settings model.Settings
}

// callResult is the outcome of a test call, saved as a preview.
type callResult struct {
	Status     string          `json:"-"`
	HTTPStatus int             `json:"httpStatus,omitempty"`
	JSON       json.RawMessage `json:"json,omitempty"`
	Fault      json.RawMessage `json:"fault,omitempty"`
	Body       string          `json:"body,omitempty"`
	Error      *CallError      `json:"error,omitempty"`
	Attempts   int             `json:"attempts,omitempty"`
	latency    time.Duration
}

// CallError is the S2R code a runtime call would have answered.
type CallError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// callRequest is what a preview records of the request: never headers
// (they carry credentials).
type callRequest struct {
	Payload    json.RawMessage `json:"payload"`
	Envelope   string          `json:"envelope,omitempty"`
	URL        string          `json:"url"`
	SOAPAction string          `json:"soapAction,omitempty"`
	Method     string          `json:"method,omitempty"`
}

// envelope converts the payload to a SOAP envelope of the operation's
// version. A payload that does not fit the contract is the caller's
// mistake: 400 naming payload and the JSON pointer.
func (c soapCall) envelope() ([]byte, soap.Version, error) {
	v := soap.V11
	if c.op.SOAPVersion == "1.2" {
		v = soap.V12
	}
	opts := convert.OptionsFor(c.contract)
	opts.OmitDeclarations = true
	plan, err := convert.Compile(c.contract.Input, opts)
	if err != nil {
		return nil, v, apierr.Wrap(apierr.ValBadRequest, err, "the operation's request contract cannot be converted").
			WithDetail("field", "operationId")
	}
	env := soap.Envelope{Version: v}
	for _, ns := range plan.Namespaces() {
		env.Namespaces = append(env.Namespaces, soap.NSDecl{Prefix: ns.Prefix, URI: ns.URI})
	}
	w := xmlstream.NewWriter(nil)
	err = soap.Write(w, env, func(w *xmlstream.Writer) error { return plan.JSONToXML(w, c.payload) })
	if err != nil {
		reason := "does not fit the operation's contract"
		if ce, ok := convert.AsError(err); ok {
			reason += ": " + ce.Reason
			if ce.Pointer != "" {
				reason += " at " + ce.Pointer
			}
		}
		return nil, v, adminapi.FieldError("payload", reason)
	}
	return w.Bytes(), v, nil
}

// send makes the SOAP call and converts the answer; only a payload that
// does not convert is an error, everything the backend does is a result.
func (s *Handlers) send(ctx context.Context, c soapCall) (callRequest, callResult, error) {
	env, v, err := c.envelope()
	if err != nil {
		return callRequest{}, callResult{}, err
	}
	req := callRequest{Payload: c.payload, Envelope: string(env), URL: fetch.RedactString(c.profile.EndpointURL),
		SOAPAction: c.op.SOAPAction}
	b, err := upstream.Open(s.secrets, c.profile)
	if err != nil {
		return req, failed(err), nil
	}
	h := http.Header{"Content-Type": {v.ContentType(c.op.SOAPAction)}, "Accept": {v.ContentType("")}}
	if v == soap.V11 {
		h.Set("SOAPAction", `"`+c.op.SOAPAction+`"`)
	}
	call := upstream.Request{Method: http.MethodPost, Header: h, Body: env,
		Timeout:          callTimeout(c.op.TimeoutMs, c.profile.TimeoutMs, c.settings.DefaultTimeoutMs),
		Retries:          callRetries(c.op.RetryCount, c.profile.RetryCount, c.settings.DefaultRetryCount),
		MaxResponseBytes: c.settings.MaxPayloadMB << 20, SOAP: true}
	resp, err := s.client.Do(ctx, b, call)
	if err != nil {
		return req, failed(err), nil
	}
	res := convertAnswer(c.contract, resp)
	res.latency, res.Attempts = resp.Latency, resp.Attempts
	return req, res, nil
}

// callTimeout is the operation's timeout, else the profile's, else the
// settings default.
func callTimeout(op, profile *int, def int64) time.Duration {
	switch {
	case op != nil && *op > 0:
		return time.Duration(*op) * time.Millisecond
	case profile != nil && *profile > 0:
		return time.Duration(*profile) * time.Millisecond
	case def > 0:
		return time.Duration(def) * time.Millisecond
	}
	return upstream.DefaultTimeout
}

// callRetries is the operation's retry count, else the profile's, else
// the settings default.
func callRetries(op, profile *int, def int64) *int {
	switch {
	case op != nil:
		return op
	case profile != nil:
		return profile
	}
	n := int(def)
	return &n
}

// failed is the result of a call that got no usable answer.
func failed(err error) callResult {
	var ue *upstream.Error
	ae := apierr.Resolve(err, apierr.AdmInternal)
	if errors.As(err, &ue) {
		ae = ue.APIError()
	}
	return callResult{Status: model.PreviewStatusFailed, Error: &CallError{Code: ae.Code, Message: ae.Message}}
}

// faultDetailJSON converts a fault detail as the runtime does
// (docs/conversion.md section 13): keyed by the detail elements' local
// names, by the declared fault its first element names when that fits,
// else naively; nil (no detail member) when it is empty or not XML.
func faultDetailJSON(contract *xsd.Operation, detail []byte) []byte {
	const path = "/Envelope/Body/Fault/detail"
	if len(detail) == 0 {
		return nil
	}
	if name, ok := convert.DetailElement(detail); ok && contract != nil {
		if f := convert.MatchFault(contract.Faults, name); f != nil {
			if p, err := convert.Compile(f.DetailMessage(), convert.OptionsFor(contract)); err == nil {
				if out, err := convert.FragmentJSON(nil, detail, p, path, xmlstream.Limits{}); err == nil {
					return out
				}
			}
		}
	}
	out, err := convert.FragmentJSON(nil, detail, nil, path, xmlstream.Limits{})
	if err != nil {
		return nil
	}
	return out
}

// convertAnswer parses the backend's answer: a SOAP fault, the output
// converted to JSON, or a failure with the code the runtime would answer.
func convertAnswer(contract *xsd.Operation, resp *upstream.Response) callResult {
	res := callResult{HTTPStatus: resp.StatusCode, Body: previewText(resp.Body)}
	if contract.Output == nil && resp.StatusCode/100 == 2 && len(bytes.TrimSpace(resp.Body)) == 0 {
		// One-way operation accepted with no envelope (202 Accepted), as
		// the runtime answers it.
		res.Status, res.JSON = model.PreviewStatusSucceeded, json.RawMessage(`{}`)
		return res
	}
	m, r, err := soap.ParseHead(resp.Body, xmlstream.Limits{})
	if err != nil {
		res.Status = model.PreviewStatusFailed
		code, msg := apierr.RunBadSOAPResponse, "the backend's answer is not a SOAP envelope"
		if resp.StatusCode/100 != 2 {
			code, msg = apierr.RunBackendFault, "the backend answered HTTP "+strconv.Itoa(resp.StatusCode)
		}
		res.Error = &CallError{Code: code, Message: msg}
		return res
	}
	if m.FaultAhead(r) {
		f, err := m.ReadFault(r)
		if err != nil {
			res.Status, res.Error = model.PreviewStatusFailed, &CallError{Code: apierr.RunBadSOAPResponse, Message: "the SOAP fault could not be parsed"}
			return res
		}
		res.Status, res.Fault = model.PreviewStatusSOAPFault, f.AppendJSON(nil, faultDetailJSON(contract, f.Detail))
		res.Error = &CallError{Code: apierr.RunBackendFault, Message: "the backend answered a SOAP fault"}
		return res
	}
	if contract.Output == nil {
		res.Status, res.JSON = model.PreviewStatusSucceeded, json.RawMessage(`{}`)
		return res
	}
	plan, err := convert.Compile(contract.Output, convert.OptionsFor(contract))
	if err == nil {
		var out []byte
		out, err = plan.XMLToJSON(nil, r, "/Envelope/Body")
		if err == nil {
			err = soap.FinishBody(r)
		}
		if err == nil && resp.StatusCode/100 == 2 {
			res.Status, res.JSON = model.PreviewStatusSucceeded, out
			return res
		}
		if err == nil {
			res.Status, res.JSON = model.PreviewStatusFailed, out
			res.Error = &CallError{Code: apierr.RunBackendFault, Message: "the backend answered HTTP " + strconv.Itoa(resp.StatusCode)}
			return res
		}
	}
	res.Status = model.PreviewStatusFailed
	res.Error = &CallError{Code: apierr.RunContractDrift, Message: "the backend's answer does not match the contract: " + convertReason(err)}
	return res
}

func convertReason(err error) string {
	if ce, ok := convert.AsError(err); ok {
		if ce.Path != "" {
			return ce.Reason + " at " + ce.Path
		}
		return ce.Reason
	}
	return "conversion failed"
}

// previewText keeps at most maxPreviewText bytes of a body as text.
func previewText(b []byte) string {
	if len(b) > maxPreviewText {
		b = b[:maxPreviewText]
	}
	return string(b)
}
