package adminapi

import (
	"encoding/json"
	"net/http"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// errorDescriptions describe the error statuses of the admin API.
var errorDescriptions = map[int]string{
	http.StatusBadRequest:            "Invalid request: S2R-VAL-0400, details.field names the offending field or parameter.",
	http.StatusUnauthorized:          "No identity header: S2R-ADM-0401.",
	http.StatusForbidden:             "Caller role not permitted: S2R-ADM-0403.",
	http.StatusNotFound:              "Not found: S2R-ADM-0404.",
	http.StatusConflict:              "Conflict: S2R-ADM-0409.",
	http.StatusRequestEntityTooLarge: "Body over 1 MB: S2R-ADM-0413 with details.maxPayloadMb.",
	http.StatusUnsupportedMediaType:  "Body is not JSON: S2R-VAL-0415.",
	http.StatusInternalServerError:   "Internal error: S2R-ADM-0500.",
	http.StatusServiceUnavailable:    "Database unavailable: S2R-ADM-0503.",
}

// OpenAPIDocument builds the OpenAPI 3.1 description of routes: the
// admin API describes itself from its one route table.
func OpenAPIDocument(routes []Route, version string) *openapi3.T {
	if version == "" {
		version = "dev"
	}
	g := newSchemaGen()
	doc := &openapi3.T{
		OpenAPI: "3.1.0",
		Info: &openapi3.Info{
			Title:       "s2r admin API",
			Version:     version,
			Description: "Control plane of s2r. Every endpoint needs the identity headers set by the identity-aware ingress.",
		},
		Servers: openapi3.Servers{{URL: Prefix}},
		Paths:   openapi3.NewPaths(),
	}
	for _, rt := range routes {
		item := doc.Paths.Value(rt.Path)
		if item == nil {
			item = &openapi3.PathItem{}
			doc.Paths.Set(rt.Path, item)
		}
		item.SetOperation(rt.Method, operation(g, rt))
	}
	doc.Components = &openapi3.Components{
		Schemas: g.components,
		SecuritySchemes: openapi3.SecuritySchemes{
			"identityEmail": {Value: openapi3.NewSecurityScheme().WithType("apiKey").WithIn("header").WithName("X-Idp-Authenticated-User-Email").
				WithDescription("Caller e-mail, set by the identity-aware ingress.")},
			"identityGroups": {Value: openapi3.NewSecurityScheme().WithType("apiKey").WithIn("header").WithName("X-Idp-Authenticated-User-Groups").
				WithDescription("Comma-separated identity-provider groups of the caller.")},
		},
	}
	doc.Security = openapi3.SecurityRequirements{{"identityEmail": {}, "identityGroups": {}}}
	return doc
}

var pathParamRe = regexp.MustCompile(`\{([A-Za-z0-9_]+)\}`)

// operation documents one route.
func operation(g *schemaGen, rt Route) *openapi3.Operation {
	op := openapi3.NewOperation()
	op.OperationID = operationID(rt)
	op.Summary = rt.Doc.Summary
	op.Description = rt.Doc.Summary + " Minimum role: " + string(rt.Role) + "."
	op.Tags = []string{strings.Split(strings.TrimPrefix(rt.Path, "/"), "/")[0]}
	for _, m := range pathParamRe.FindAllStringSubmatch(rt.Path, -1) {
		op.AddParameter(openapi3.NewPathParameter(m[1]).WithSchema(openapi3.NewStringSchema()))
	}
	for _, p := range rt.Doc.Query {
		schema := openapi3.NewStringSchema()
		if p.Type == "integer" {
			schema = openapi3.NewInt64Schema()
		}
		op.AddParameter(openapi3.NewQueryParameter(p.Name).WithSchema(schema).WithDescription(p.Description))
	}
	if rt.Doc.Request != nil || rt.Doc.Form != nil || len(rt.Doc.RequestMedia) > 0 {
		body := openapi3.NewRequestBody().WithRequired(true).WithContent(requestContent(g, rt.Doc))
		op.RequestBody = &openapi3.RequestBodyRef{Value: body}
	}
	op.Responses = openapi3.NewResponses()
	op.Responses.Delete("default")
	status := rt.Doc.Status
	if status == 0 {
		status = http.StatusOK
	}
	ok := openapi3.NewResponse().WithDescription(http.StatusText(status))
	switch {
	case rt.Doc.ResponseMedia != "":
		ok.Content = openapi3.Content{rt.Doc.ResponseMedia: openapi3.NewMediaType().WithSchema(binarySchema())}
	case rt.Doc.Response != nil:
		ok.Content = openapi3.NewContentWithJSONSchemaRef(g.ref(reflect.TypeOf(rt.Doc.Response)))
	}
	op.AddResponse(status, ok)
	for _, code := range errorStatuses(rt) {
		op.AddResponse(code, openapi3.NewResponse().WithDescription(errorDescriptions[code]).
			WithContent(openapi3.NewContentWithJSONSchemaRef(componentRef("Error"))))
	}
	return op
}

// requestContent documents a request body: JSON by reference to the
// request's schema, multipart/form-data from the form's fields.
func requestContent(g *schemaGen, d Doc) openapi3.Content {
	content := openapi3.Content{}
	if d.Request != nil {
		content = openapi3.NewContentWithJSONSchemaRef(g.ref(reflect.TypeOf(d.Request)))
	}
	for _, media := range d.RequestMedia {
		content[media] = openapi3.NewMediaType().WithSchema(openapi3.NewStringSchema())
	}
	if d.Form == nil {
		return content
	}
	form := openapi3.NewObjectSchema()
	t := reflect.TypeOf(d.Form)
	// VisibleFields includes the fields of embedded structs (the embedded
	// field itself has no json tag and is passed over), as a form reads them.
	for _, f := range reflect.VisibleFields(t) {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		field := openapi3.NewStringSchema()
		if name == "file" {
			field = binarySchema()
			form.Required = append(form.Required, name)
		}
		form.WithProperty(name, field)
	}
	content[MediaMultipart] = openapi3.NewMediaType().WithSchema(form)
	return content
}

// binarySchema describes an opaque byte body or upload.
func binarySchema() *openapi3.Schema {
	s := openapi3.NewStringSchema()
	s.ContentMediaType = "application/octet-stream"
	return s
}

// errorStatuses lists the error statuses a route can answer.
func errorStatuses(rt Route) []int {
	codes := []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusInternalServerError, http.StatusServiceUnavailable}
	hasBody := rt.Doc.Request != nil || rt.Doc.Form != nil || len(rt.Doc.RequestMedia) > 0
	if hasBody || len(rt.Doc.Query) > 0 {
		codes = append(codes, http.StatusBadRequest)
	}
	if hasBody {
		codes = append(codes, http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType)
	}
	codes = append(codes, rt.Doc.Errors...)
	slices.Sort(codes)
	return slices.Compact(codes)
}

// operationID derives a unique id from method and path:
// DELETE /permission-bindings/{bindingId} → deletePermissionBindingsByBindingId.
func operationID(rt Route) string {
	var b strings.Builder
	b.WriteString(strings.ToLower(rt.Method))
	for _, seg := range strings.Split(rt.Path, "/") {
		by := strings.HasPrefix(seg, "{")
		if by {
			b.WriteString("By")
		}
		for _, word := range strings.FieldsFunc(seg, func(r rune) bool { return !isAlnum(r) }) {
			b.WriteString(exportName(word))
		}
	}
	return b.String()
}

func isAlnum(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}

// OpenAPIJSON renders OpenAPIDocument as indented JSON.
func OpenAPIJSON(routes []Route, version string) ([]byte, error) {
	return json.MarshalIndent(OpenAPIDocument(routes, version), "", "  ")
}
