package openapi

import (
	"encoding/json"
	"strings"

	"github.com/s2r-project/s2r/internal/convert"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/xsd"
)

// errorCase is one S2R error a publish call can answer.
type errorCase struct {
	status int
	code   string
	what   string
}

// publishErrors are the SPEC 7.2 errors of a publish call, by status.
var publishErrors = []errorCase{
	{400, "S2R-VAL-0400", "bad request: invalid JSON, or an unusable X-Correlation-Id for an async operation"},
	{400, "S2R-VAL-0410", "the request body fails the operation's schema"},
	{400, "S2R-VAL-0411", "a request field fails a validation regex"},
	{404, "S2R-RUN-0404", "no route: the service, version or operation is not served"},
	{413, "S2R-RUN-0413", "request or response payload over the maximum size (details.maxPayloadMb)"},
	{502, "S2R-RUN-0502", "the backend answered a SOAP Fault (details: the fault's members) or a non-2xx status, or could not be reached"},
	{502, "S2R-RUN-0504", "the backend's SOAP response could not be parsed"},
	{502, "S2R-RUN-0505", "the backend auth configuration is invalid or credentials are missing"},
	{502, "S2R-RUN-0506", "the backend response does not match the contract"},
	{502, "S2R-VAL-0430", "the backend response fails the response schema"},
	{502, "S2R-VAL-0431", "a backend response field fails a validation regex"},
	{503, "S2R-RUN-0503", "no active or healthy backend"},
	{503, "S2R-RUN-0529", "the backend's circuit breaker is open"},
	{504, "S2R-RUN-0424", "the backend did not answer in time"},
}

// errorStatuses lists the statuses of publishErrors in order.
var errorStatuses = []int{400, 404, 413, 502, 503, 504}

// operationObject is the OpenAPI operation of op.
func operationObject(svc model.Service, op Operation, gen *xsd.JSONSchemaGenerator) map[string]any {
	input, output := anyObject("the contract of this operation is unknown"), anyObject("")
	var faults []*xsd.Fault
	if c := op.Contract; c != nil {
		input = withHeaders(gen.Message(c.Input), gen.Headers(c.Input),
			"SOAP header parts, sent as SOAP Header blocks (not part of the SOAP Body)")
		if c.Output != nil {
			output = withHeaders(gen.Message(c.Output), gen.Headers(c.Output),
				"SOAP header parts of the backend's answer; present when it sent at least one")
		} else {
			output = map[string]any{"type": "object", "description": "one-way operation: the backend sends no answer"}
		}
		faults = c.Faults
	}
	o := map[string]any{
		"operationId": op.OperationKey,
		"summary":     op.SOAPOperationName,
		"description": "Converts the JSON request to SOAP operation " + op.SOAPOperationName + " (" + op.SOAPNamespace +
			"), calls the backend and converts its answer back to JSON.",
		"parameters":             commonParams(),
		"responses":              responses(svc, op, output, faults, gen),
		"x-s2r-operation-key":    op.OperationKey,
		"x-s2r-soap-operation":   op.SOAPOperationName,
		"x-s2r-soap-namespace":   op.SOAPNamespace,
		"x-s2r-soap-action":      op.SOAPAction,
		"x-s2r-soap-version":     op.SOAPVersion,
		"x-s2r-style":            op.Style,
		"x-s2r-use":              op.Use,
		"x-s2r-execution-mode":   op.ExecutionMode,
		"x-s2r-contract-present": op.Contract != nil,
	}
	switch strings.ToUpper(op.RestMethod) {
	case "GET", "HEAD":
		o["x-s2r-request-schema"] = input
	default:
		o["requestBody"] = map[string]any{"required": true,
			"content": map[string]any{"application/json": map[string]any{"schema": input}}}
	}
	return o
}

// withHeaders documents the reserved member "$headers" (the SOAP header
// parts, docs/conversion.md section 12) in the message object schema body;
// headers is nil when the message has no header parts.
func withHeaders(body, headers map[string]any, desc string) map[string]any {
	props, ok := body["properties"].(map[string]any)
	if headers == nil || !ok {
		return body
	}
	headers["description"] = desc
	props[convert.HeadersMember] = headers
	return body
}

func anyObject(desc string) map[string]any {
	s := map[string]any{"type": "object"}
	if desc != "" {
		s["description"] = desc
	}
	return s
}

// Names of the shared header parameters (components/parameters).
const (
	paramCorrelation = "S2RCorrelationId"
	paramDebug       = "S2RDebugEnabled"
)

// commonParams references the runtime request headers of SPEC 4.1.
func commonParams() []any {
	return []any{
		map[string]any{"$ref": paramRef + paramCorrelation},
		map[string]any{"$ref": paramRef + paramDebug},
	}
}

// headerParams are the shared header parameters.
func headerParams() map[string]any {
	return map[string]any{
		paramCorrelation: map[string]any{"name": "X-Correlation-Id", "in": "header", "required": false,
			"description": "caller-supplied correlation id; generated when absent",
			"schema":      map[string]any{"type": "string", "maxLength": 128}},
		paramDebug: map[string]any{"name": "X-Debug-Enabled", "in": "header", "required": false,
			"description": "true enables debug logging for this request",
			"schema":      map[string]any{"type": "string", "enum": []any{"true", "false"}}},
	}
}

// responses are the success answer and every error answer of op.
func responses(svc model.Service, op Operation, output map[string]any, faults []*xsd.Fault, gen *xsd.JSONSchemaGenerator) map[string]any {
	out := map[string]any{}
	if op.ExecutionMode == model.ExecutionAsyncCallback {
		out["202"] = map[string]any{
			"description": "accepted: the SOAP request was sent with WS-Addressing headers and the backend acknowledged " +
				"it; its answer arrives later as a callback. Poll pollPath (GET " + PollPath(op.OperationKey) +
				") with the X-S2R-Poll-Token header until the status is completed or failed.",
			"headers": map[string]any{
				"X-S2R-Poll-Token": map[string]any{"description": "single-use poll token", "schema": map[string]any{"type": "string"}},
				"Location":         map[string]any{"description": "the poll path", "schema": map[string]any{"type": "string"}},
			},
			"content": jsonContent(map[string]any{"$ref": refPrefix + componentAsyncAccepted}),
		}
	} else {
		out["200"] = map[string]any{"description": "the converted SOAP response",
			"content": jsonContent(wrapSuccess(svc, output))}
	}
	for _, status := range errorStatuses {
		if status == 502 && len(faults) > 0 && svc.ErrorShapeOverride == nil {
			out[itoa(status)] = map[string]any{"description": errorDescription(status),
				"content": jsonContent(faultErrorSchema(svc, faults, gen))}
			continue
		}
		out[itoa(status)] = map[string]any{"$ref": responseRef + errorComponent(status)}
	}
	return out
}

// errorDescription lists the codes of an error status.
func errorDescription(status int) string {
	var lines []string
	for _, e := range publishErrors {
		if e.status == status {
			lines = append(lines, "- "+e.code+": "+e.what)
		}
	}
	return strings.Join(lines, "\n")
}

// errorResponses are the shared error responses (components/responses),
// one per status.
func errorResponses() map[string]any {
	out := map[string]any{}
	for _, status := range errorStatuses {
		out[errorComponent(status)] = map[string]any{"description": errorDescription(status),
			"content": jsonContent(map[string]any{"$ref": refPrefix + errorComponent(status)})}
	}
	return out
}

func jsonContent(schema map[string]any) map[string]any {
	return map[string]any{"application/json": map[string]any{"schema": schema}}
}

// wrapSuccess applies the service's envelopeWrapOverride to the success
// schema: the converted JSON under dataField plus the included members.
func wrapSuccess(svc model.Service, output map[string]any) map[string]any {
	if len(svc.EnvelopeWrapOverride) == 0 {
		return output
	}
	var w struct {
		DataField string          `json:"dataField"`
		Include   map[string]bool `json:"include"`
	}
	if json.Unmarshal(svc.EnvelopeWrapOverride, &w) != nil || w.DataField == "" {
		return output
	}
	props := map[string]any{w.DataField: output}
	required := []any{w.DataField}
	for name, on := range w.Include {
		if !on {
			continue
		}
		s := map[string]any{"type": "string"}
		if name == "timestamp" {
			s["format"] = "date-time"
		}
		props[name] = s
		required = append(required, name)
	}
	return map[string]any{"type": "object", "properties": props, "required": sortStrings(required)}
}

// faultErrorSchema is the 502 error of an operation with declared faults.
// For S2R-RUN-0502 from a SOAP Fault, details holds the members of the
// JSON fault shape (docs/conversion.md section 13): all of them in full
// exposure mode, its detail described by the declared faults (keyed by the
// detail element's local name, so each declared fault has its own
// member); in safe mode only faultCode and faultSubcodes. The other 502
// codes carry their own details, so none of these members is required.
func faultErrorSchema(svc model.Service, faults []*xsd.Fault, gen *xsd.JSONSchemaGenerator) map[string]any {
	var fault map[string]any
	description := "S2R-RUN-0502 for a SOAP Fault (faultDetailExposureMode full): the members of the JSON fault shape"
	if svc.FaultDetailExposureMode == model.FaultDetailFull {
		var details []any
		for _, f := range faults {
			if m := f.DetailMessage(); m != nil {
				details = append(details, gen.Message(m))
			}
		}
		var detail map[string]any
		switch len(details) {
		case 0:
		case 1:
			detail = details[0].(map[string]any)
		default:
			detail = map[string]any{"anyOf": details}
		}
		if detail != nil {
			detail["description"] = faultDetailDescription
		}
		fault = xsd.FaultJSONSchema(detail)
	} else {
		fault = xsd.SafeFaultJSONSchema()
		description = "S2R-RUN-0502 for a SOAP Fault (faultDetailExposureMode safe): the fault's code and subcodes, " +
			"never its string or detail"
	}
	schema := errorBodySchema(codesOf(502), fault["properties"].(map[string]any), nil)
	details := schema["properties"].(map[string]any)["error"].(map[string]any)["properties"].(map[string]any)["details"].(map[string]any)
	details["description"] = description + "; the other codes carry their own details"
	return schema
}

// faultDetailDescription says how the detail member is keyed and when it
// may differ from its schema.
const faultDetailDescription = "one member per detail element, named by its local name (which declared fault came back); " +
	"a detail that fits no declared fault is converted naively (text values as strings)"
