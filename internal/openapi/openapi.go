// Package openapi generates the OpenAPI 3.1 document of a service
// version's publish REST API and the downloadable artifact package.
//
// The document describes what the runtime serves under
// /publish/{environment}/{serviceKey}: one path per operation from its
// restMethod and restPath, request and response bodies from the
// contract's JSON Schemas (internal/xsd), the SOAP fault as the JSON fault
// shape of docs/conversion.md inside a 502, and every S2R error response
// that applies (SPEC 7.1, 7.2). Schema definitions are hoisted into
// components/schemas under names that match the OpenAPI component name
// rule and never collide with the S2R components. Output is deterministic:
// equal input gives equal bytes.
//
// Typical use:
//
//	doc, err := openapi.Generate(openapi.Input{Service: svc, Version: v, Operations: ops})
//	zip, err := openapi.Package(doc, openapi.Metadata(in, diagnostics))
package openapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/xsd"
)

// Version is the OpenAPI version of the generated documents.
const Version = "3.1.0"

// Where components live.
const (
	refPrefix   = "#/components/schemas/"
	responseRef = "#/components/responses/"
	paramRef    = "#/components/parameters/"
)

// contractPrefix marks references to contract definitions until they get
// their final component names (hoistDefinitions).
const contractPrefix = "#/x-s2r-contract/"

// ErrRouteConflict means two operations share a REST method and path, so
// no document can describe both.
var ErrRouteConflict = errors.New("openapi: operations share a REST route")

// Operation is one operation of the version with its contract (nil when
// the contract is unknown: the schemas are then any JSON object).
type Operation struct {
	model.Operation
	Contract *xsd.Operation
}

// Input is what a document is generated from.
type Input struct {
	Service    model.Service
	Version    model.Version
	Operations []Operation
	// PublicBaseURL is the runtime's public base URL (S2R_PUBLIC_BASE_URL),
	// "" for a server URL relative to the document.
	PublicBaseURL string
}

// BasePath is the publish path prefix of a service.
func BasePath(svc model.Service) string {
	return "/publish/" + svc.Environment + "/" + svc.ServiceKey
}

// Generate returns the document as indented JSON.
func Generate(in Input) ([]byte, error) {
	doc, err := Build(in)
	if err != nil {
		return nil, err
	}
	return marshal(doc)
}

// Build returns the document as a JSON value tree.
func Build(in Input) (map[string]any, error) {
	gen := xsd.NewJSONSchemaGenerator(xsd.JSONSchemaOptions{RefPrefix: contractPrefix})
	paths := map[string]any{}
	for _, op := range sortedOps(in.Operations) {
		item, _ := paths[op.RestPath].(map[string]any)
		if item == nil {
			item = map[string]any{}
			paths[op.RestPath] = item
		}
		method := strings.ToLower(op.RestMethod)
		if _, dup := item[method]; dup {
			return nil, fmt.Errorf("%w: %s %s", ErrRouteConflict, op.RestMethod, op.RestPath)
		}
		item[method] = operationObject(in.Service, op, gen)
		if params := pathParams(op.RestPath); len(params) > 0 {
			item["parameters"] = params
		}
	}
	components := errorComponents(in.Service)
	if hasAsync(in) {
		if err := addPollPaths(paths, in, gen); err != nil {
			return nil, err
		}
		asyncComponents(in.Service, components)
	}
	doc := map[string]any{
		"openapi":           Version,
		"jsonSchemaDialect": "https://spec.openapis.org/oas/3.1/dialect/base",
		"info":              info(in),
		"servers":           []any{map[string]any{"url": strings.TrimRight(in.PublicBaseURL, "/") + BasePath(in.Service)}},
		"paths":             paths,
		"components": map[string]any{"schemas": components, "responses": errorResponses(),
			"parameters": headerParams()},
		"x-s2r-contract": gen.Defs(),
	}
	hoistDefinitions(doc)
	return doc, nil
}

func info(in Input) map[string]any {
	title := in.Service.ServiceName
	if title == "" {
		title = in.Service.ServiceKey
	}
	desc := "REST API of SOAP service " + in.Service.ServiceKey + " (" + in.Service.Environment + "), version " +
		strconv.Itoa(in.Version.VersionNumber) + ", served by s2r."
	if in.Service.Description != "" {
		desc = in.Service.Description + "\n\n" + desc
	}
	out := map[string]any{
		"title":                title,
		"version":              strconv.Itoa(in.Version.VersionNumber),
		"description":          desc,
		"x-s2r-service-key":    in.Service.ServiceKey,
		"x-s2r-environment":    in.Service.Environment,
		"x-s2r-version-status": in.Version.Status,
	}
	// A document generated offline (s2r openapi) has no stored ids.
	if in.Service.ServiceID != "" {
		out["x-s2r-service-id"] = in.Service.ServiceID
	}
	if in.Version.VersionID != "" {
		out["x-s2r-version-id"] = in.Version.VersionID
	}
	return out
}

// sortedOps orders operations by path, then method, then key.
func sortedOps(ops []Operation) []Operation {
	out := append([]Operation(nil), ops...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.RestPath != b.RestPath {
			return a.RestPath < b.RestPath
		}
		if a.RestMethod != b.RestMethod {
			return a.RestMethod < b.RestMethod
		}
		return a.OperationKey < b.OperationKey
	})
	return out
}

var pathParam = regexp.MustCompile(`\{([^{}/]+)\}`)

// pathParams declares the {name} templates of a REST path.
func pathParams(path string) []any {
	var out []any
	for _, m := range pathParam.FindAllStringSubmatch(path, -1) {
		out = append(out, map[string]any{"name": m[1], "in": "path", "required": true,
			"schema": map[string]any{"type": "string"}})
	}
	return out
}

// plainAny converts v to a tree of map[string]any, []any and scalars.
func plainAny(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("openapi: encode: %w", err)
	}
	var out any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&out); err != nil {
		return nil, fmt.Errorf("openapi: decode: %w", err)
	}
	return out, nil
}

// marshal renders the tree with sorted keys, two-space indentation, no
// HTML escaping and a final newline.
func marshal(doc any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("openapi: encode: %w", err)
	}
	return buf.Bytes(), nil
}
