package admin

import (
	"encoding/json"
	"net/http"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
)

// opDoc documents one route for the OpenAPI document. Bodies are given as
// zero values of their Go types; their schemas are derived from the types.
type opDoc struct {
	summary  string
	query    []param
	request  any   // request body value, nil when the route takes none
	response any   // success body value, nil when the answer has no body
	status   int   // success status; 0 means 200
	errors   []int // error statuses beyond those every route can answer
	// form, when set, documents a multipart/form-data request body: its
	// struct fields are the form fields, a field named "file" a binary
	// upload. A route may take both form and a JSON request.
	form any
	// responseMedia is the success body's media type when it is not JSON
	// (e.g. application/zip); the body is then documented as binary.
	responseMedia string
}

// Media types of non-JSON admin bodies.
const (
	mediaMultipart = "multipart/form-data"
	mediaZIP       = "application/zip"
)

// param is one documented query parameter.
type param struct {
	name, typ, description string
}

// pageParams are the pagination parameters of paginated endpoints.
var pageParams = []param{
	{"page", "integer", "1-based page number; default 1"},
	{"pageSize", "integer", "items per page; default 50, 1..200 (out of range is 400)"},
}

// timeParams are the time-window parameters of SPEC 4.10.
var timeParams = []param{
	{"window", "string", "15m, 1h, 24h, 7d, 30d or 60d, ending now; overridden by start/end"},
	{"start", "string", "ISO 8601 start, inclusive"},
	{"end", "string", "ISO 8601 end, inclusive"},
	{"since", "string", "alias of start"},
	{"until", "string", "alias of end"},
}

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

// openAPIDocument builds the OpenAPI 3.1 description of routes.
func openAPIDocument(routes []route, version string) *openapi3.T {
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
		item := doc.Paths.Value(rt.path)
		if item == nil {
			item = &openapi3.PathItem{}
			doc.Paths.Set(rt.path, item)
		}
		item.SetOperation(rt.method, operation(g, rt))
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
func operation(g *schemaGen, rt route) *openapi3.Operation {
	op := openapi3.NewOperation()
	op.OperationID = operationID(rt)
	op.Summary = rt.doc.summary
	op.Description = rt.doc.summary + " Minimum role: " + string(rt.role) + "."
	op.Tags = []string{strings.Split(strings.TrimPrefix(rt.path, "/"), "/")[0]}
	for _, m := range pathParamRe.FindAllStringSubmatch(rt.path, -1) {
		op.AddParameter(openapi3.NewPathParameter(m[1]).WithSchema(openapi3.NewStringSchema()))
	}
	for _, p := range rt.doc.query {
		schema := openapi3.NewStringSchema()
		if p.typ == "integer" {
			schema = openapi3.NewInt64Schema()
		}
		op.AddParameter(openapi3.NewQueryParameter(p.name).WithSchema(schema).WithDescription(p.description))
	}
	if rt.doc.request != nil || rt.doc.form != nil {
		body := openapi3.NewRequestBody().WithRequired(true).WithContent(requestContent(g, rt.doc))
		op.RequestBody = &openapi3.RequestBodyRef{Value: body}
	}
	op.Responses = openapi3.NewResponses()
	op.Responses.Delete("default")
	status := rt.doc.status
	if status == 0 {
		status = http.StatusOK
	}
	ok := openapi3.NewResponse().WithDescription(http.StatusText(status))
	switch {
	case rt.doc.responseMedia != "":
		ok.Content = openapi3.Content{rt.doc.responseMedia: openapi3.NewMediaType().WithSchema(binarySchema())}
	case rt.doc.response != nil:
		ok.Content = openapi3.NewContentWithJSONSchemaRef(g.ref(reflect.TypeOf(rt.doc.response)))
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
func requestContent(g *schemaGen, d opDoc) openapi3.Content {
	content := openapi3.Content{}
	if d.request != nil {
		content = openapi3.NewContentWithJSONSchemaRef(g.ref(reflect.TypeOf(d.request)))
	}
	if d.form == nil {
		return content
	}
	form := openapi3.NewObjectSchema()
	t := reflect.TypeOf(d.form)
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
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
	content[mediaMultipart] = openapi3.NewMediaType().WithSchema(form)
	return content
}

// binarySchema describes an opaque byte body or upload.
func binarySchema() *openapi3.Schema {
	s := openapi3.NewStringSchema()
	s.ContentMediaType = "application/octet-stream"
	return s
}

// errorStatuses lists the error statuses a route can answer.
func errorStatuses(rt route) []int {
	codes := []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusInternalServerError, http.StatusServiceUnavailable}
	hasBody := rt.doc.request != nil || rt.doc.form != nil
	if hasBody || len(rt.doc.query) > 0 {
		codes = append(codes, http.StatusBadRequest)
	}
	if hasBody {
		codes = append(codes, http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType)
	}
	codes = append(codes, rt.doc.errors...)
	slices.Sort(codes)
	return slices.Compact(codes)
}

// operationID derives a unique id from method and path:
// DELETE /permission-bindings/{bindingId} → deletePermissionBindingsByBindingId.
func operationID(rt route) string {
	var b strings.Builder
	b.WriteString(strings.ToLower(rt.method))
	for _, seg := range strings.Split(rt.path, "/") {
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

// openAPIJSON renders the document as indented JSON.
func openAPIJSON(routes []route, version string) ([]byte, error) {
	return json.MarshalIndent(openAPIDocument(routes, version), "", "  ")
}

var docGetOpenAPI = opDoc{
	summary:  "This OpenAPI 3.1 document, describing every admin endpoint.",
	response: map[string]any{},
}

// openAPICache holds the rendered document; routes do not change after
// start-up.
type openAPICache struct {
	once sync.Once
	body []byte
	err  error
}

// getOpenAPI serves the document.
func (s *server) getOpenAPI(w http.ResponseWriter, r *http.Request) error {
	s.openapi.once.Do(func() { s.openapi.body, s.openapi.err = openAPIJSON(s.routes, s.version) })
	if s.openapi.err != nil {
		return s.openapi.err
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(s.openapi.body)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(s.openapi.body)
	return nil
}
