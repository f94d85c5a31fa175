package openapi

import (
	"fmt"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/xsd"
)

// componentAsyncStatus names the poll answer component.
const componentAsyncStatus = "S2RAsyncStatus"

// pollErrors are the errors of a poll (SPEC 4.1, 7.2; DESIGN 6.5).
var pollErrors = []errorCase{
	{401, "S2R-RUN-0401", "the X-S2R-Poll-Token header is missing, wrong or already used"},
	{404, "S2R-RUN-0404", "no execution with this correlation id for this operation"},
	{410, "S2R-RUN-0410", "the execution expired before its callback arrived"},
}

// hasAsync reports whether any operation of in is async_callback.
func hasAsync(in Input) bool {
	for _, op := range in.Operations {
		if op.ExecutionMode == model.ExecutionAsyncCallback {
			return true
		}
	}
	return false
}

// PollPath is the poll path of an async operation, relative to the
// service's base path (SPEC 2.2).
func PollPath(operationKey string) string { return "/" + operationKey + "/async/{correlationId}" }

// addPollPaths documents the poll path of every async operation.
func addPollPaths(paths map[string]any, in Input, gen *xsd.JSONSchemaGenerator) error {
	for _, op := range sortedOps(in.Operations) {
		if op.ExecutionMode != model.ExecutionAsyncCallback {
			continue
		}
		p := PollPath(op.OperationKey)
		item, _ := paths[p].(map[string]any)
		if item == nil {
			item = map[string]any{}
			paths[p] = item
		}
		if _, dup := item["get"]; dup {
			return fmt.Errorf("%w: GET %s (the poll path of %s)", ErrRouteConflict, p, op.OperationKey)
		}
		item["get"] = pollOperation(in.Service, op, gen)
		item["parameters"] = []any{map[string]any{"name": "correlationId", "in": "path", "required": true,
			"description": "the correlationId of the 202 answer", "schema": map[string]any{"type": "string"}}}
	}
	return nil
}

// pollOperation is the GET of an async operation's poll path.
func pollOperation(svc model.Service, op Operation, gen *xsd.JSONSchemaGenerator) map[string]any {
	result := anyObject("the converted SOAP response of the callback")
	if c := op.Contract; c != nil && c.Output != nil {
		result = withHeaders(gen.Message(c.Output), gen.Headers(c.Output),
			"SOAP header parts of the callback; present when it sent at least one")
	}
	token := map[string]any{"description": "the new single-use poll token", "schema": map[string]any{"type": "string"}}
	responses := map[string]any{
		"200": map[string]any{
			"description": "the execution's status; result when completed, fault or error when failed",
			"headers":     map[string]any{"X-S2R-Poll-Token": token},
			"content": jsonContent(map[string]any{"allOf": []any{
				map[string]any{"$ref": refPrefix + componentAsyncStatus},
				map[string]any{"properties": map[string]any{"result": result}},
			}}),
		},
	}
	for _, e := range pollErrors {
		responses[itoa(e.status)] = map[string]any{"description": "- " + e.code + ": " + e.what,
			"content": jsonContent(map[string]any{"$ref": refPrefix + errorComponent(e.status)})}
	}
	return map[string]any{
		"operationId": op.OperationKey + "Poll",
		"summary":     "Poll " + op.SOAPOperationName,
		"description": "Status of an execution of async operation " + op.OperationKey + ". The token is single use: " +
			"each successful poll answers a new one (body and header) for the next poll.",
		"parameters": []any{map[string]any{"name": "X-S2R-Poll-Token", "in": "header", "required": true,
			"description": "the current poll token", "schema": map[string]any{"type": "string"}}},
		"responses":           responses,
		"x-s2r-operation-key": op.OperationKey,
	}
}

// asyncComponents are the 202 body, the poll answer and the poll's
// error bodies.
func asyncComponents(svc model.Service, out map[string]any) {
	out[componentAsyncAccepted] = map[string]any{
		"type":     "object",
		"required": []any{"correlationId", "status", "pollPath", "pollToken", "expiresAt"},
		"properties": map[string]any{
			"correlationId": map[string]any{"type": "string"},
			"status":        map[string]any{"type": "string", "const": model.AsyncWaiting},
			"pollPath":      map[string]any{"type": "string", "description": "GET it with header X-S2R-Poll-Token"},
			"pollToken":     map[string]any{"type": "string", "description": "single-use token of the first poll"},
			"expiresAt": map[string]any{"type": "string", "format": "date-time",
				"description": "the execution expires unless its callback arrives before"},
		},
	}
	statuses := make([]any, len(model.AsyncStatuses))
	for i, s := range model.AsyncStatuses {
		statuses[i] = s
	}
	out[componentAsyncStatus] = map[string]any{
		"type":     "object",
		"required": []any{"correlationId", "status", "pollToken", "expiresAt"},
		"properties": map[string]any{
			"correlationId": map[string]any{"type": "string"},
			"status":        map[string]any{"type": "string", "enum": statuses},
			"pollToken":     map[string]any{"type": "string", "description": "single-use token of the next poll"},
			"expiresAt":     map[string]any{"type": "string", "format": "date-time"},
			"result":        map[string]any{"description": "the converted response (completed)"},
			"fault": map[string]any{"type": "object",
				"description": "the converted SOAP Fault (failed), as faultDetailExposureMode shows it"},
			"error": map[string]any{"type": "object", "description": "the S2R error of a failure that is not a SOAP Fault",
				"properties": map[string]any{"code": map[string]any{"type": "string"},
					"message": map[string]any{"type": "string"}, "details": map[string]any{"type": "object"}}},
		},
	}
	for _, e := range pollErrors {
		if _, ok := out[errorComponent(e.status)]; ok {
			continue // 404 is shared with the publish errors
		}
		if len(svc.ErrorShapeOverride) > 0 {
			out[errorComponent(e.status)] = map[string]any{"$ref": refPrefix + componentError}
			continue
		}
		out[errorComponent(e.status)] = errorBodySchema([]string{e.code}, nil, nil)
	}
}
