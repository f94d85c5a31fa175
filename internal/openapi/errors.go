package openapi

import (
	"encoding/json"
	"sort"
	"strconv"

	"github.com/s2r-project/s2r/internal/model"
)

// Names of the S2R components. Contract definitions never take them
// (renameComponents).
const (
	componentError         = "S2RError"
	componentAsyncAccepted = "S2RAsyncAccepted"
)

// errorComponent names the error component of an HTTP status.
func errorComponent(status int) string { return componentError + itoa(status) }

// codesOf returns the codes of publishErrors with status.
func codesOf(status int) []string {
	var out []string
	for _, e := range publishErrors {
		if e.status == status {
			out = append(out, e.code)
		}
	}
	return out
}

// errorComponents are the S2R components: the SPEC 7.1 error body and
// one per error status with its codes (async.go adds the async ones). With an
// errorShapeOverride the error bodies follow the service's template, so
// they are described as objects carrying it.
func errorComponents(svc model.Service) map[string]any {
	out := map[string]any{}
	var shape any
	if len(svc.ErrorShapeOverride) > 0 && json.Unmarshal(svc.ErrorShapeOverride, &shape) == nil {
		shaped := map[string]any{"type": "object",
			"description":                "error body shaped by the service's errorShapeOverride template",
			"x-s2r-error-shape-override": shape}
		out[componentError] = shaped
		for _, st := range errorStatuses {
			out[errorComponent(st)] = map[string]any{"$ref": refPrefix + componentError}
		}
		return out
	}
	out[componentError] = errorBodySchema(nil, nil, nil)
	for _, st := range errorStatuses {
		var details map[string]any
		var required []any
		if st == 413 {
			details = map[string]any{"maxPayloadMb": map[string]any{"type": "integer", "minimum": 1}}
			required = []any{"maxPayloadMb"}
		}
		out[errorComponent(st)] = errorBodySchema(codesOf(st), details, required)
	}
	return out
}

// errorBodySchema is the SPEC 7.1 error body with the code limited to
// codes (any S2R code when nil) and the given details members.
func errorBodySchema(codes []string, details map[string]any, detailsRequired []any) map[string]any {
	code := map[string]any{"type": "string", "pattern": "^S2R-[A-Z]+-[0-9]{4}$"}
	if len(codes) > 0 {
		enum := make([]any, len(codes))
		for i, c := range codes {
			enum[i] = c
		}
		code["enum"] = enum
	}
	det := map[string]any{"type": "object", "description": "code-specific details, may be empty"}
	if len(details) > 0 {
		det["properties"] = details
	}
	if len(detailsRequired) > 0 {
		det["required"] = detailsRequired
	}
	return map[string]any{
		"type":     "object",
		"required": []any{"error"},
		"properties": map[string]any{"error": map[string]any{
			"type":     "object",
			"required": []any{"code", "message", "details", "correlationId"},
			"properties": map[string]any{
				"code":          code,
				"message":       map[string]any{"type": "string"},
				"details":       det,
				"correlationId": map[string]any{"type": "string"},
			},
		}},
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func sortStrings(in []any) []any {
	sort.Slice(in, func(i, j int) bool { return in[i].(string) < in[j].(string) })
	return in
}
