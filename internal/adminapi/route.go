// Package adminapi holds what every /admin/v1 handler shares, wherever it
// lives: the route and documentation types that internal/admin's one route
// table registers (with authorization and failure audit) and describes (in
// its OpenAPI document, generated here), and the request, response,
// lookup and audit helpers of admin handlers.
//
// internal/admin lists every route; areas kept in their own packages build
// their routes with these types: onboarding and backends under
// internal/admin, which admin.New wires itself, and async executions,
// observability, discovery and alert mail, which reach it through
// admin.Config.Routes; so authorization, audit and the API description
// stay in one place (DESIGN 3).
package adminapi

import (
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
)

// Prefix is the path prefix of every admin route.
const Prefix = "/admin/v1"

// Route is one admin endpoint: its Go 1.22 method and path pattern (path
// relative to Prefix, wildcards in OpenAPI's {name} form; a final segment
// may carry a ":verb" suffix), the least role allowed to call it, its
// handler, its documentation and, for a change, the audit event of its
// refusal. Write its literals with keyed fields.
type Route struct {
	Method string
	Path   string
	Role   model.Role
	Handle apierr.AdminHandlerFunc
	Doc    Doc
	// Audit, when set, is recorded by the route wrapper each time Handle
	// returns an error (Audited); nil for reads.
	Audit *Audit
}

// Pattern returns the ServeMux pattern of rt.
func (rt Route) Pattern() string { return rt.Method + " " + Prefix + rt.Path }

// Doc documents one route for the OpenAPI document. Bodies are given as
// zero values of their Go types; their schemas are derived from the types.
type Doc struct {
	Summary  string
	Query    []Param
	Request  any   // request body value, nil when the route takes none
	Response any   // success body value, nil when the answer has no body
	Status   int   // success status; 0 means 200
	Errors   []int // error statuses beyond those every route can answer
	// Form, when set, documents a multipart/form-data request body: its
	// struct fields are the form fields, a field named "file" a binary
	// upload. A route may take both Form and a JSON Request.
	Form any
	// ResponseMedia is the success body's media type when it is not JSON
	// (e.g. application/zip); the body is then documented as binary.
	ResponseMedia string
	// RequestMedia lists the media types of a non-JSON request body (for
	// example text/xml); the body is then documented as text.
	RequestMedia []string
}

// Media types of non-JSON admin bodies.
const (
	MediaMultipart = "multipart/form-data"
	MediaZIP       = "application/zip"
)

// Param is one documented query parameter.
type Param struct {
	Name, Type, Description string
}

// PageParams are the pagination parameters of paginated endpoints.
var PageParams = []Param{
	{"page", "integer", "1-based page number; default 1"},
	{"pageSize", "integer", "items per page; default 50, 1..200 (out of range is 400)"},
}

// TimeParams are the time-window parameters of SPEC 4.10.
var TimeParams = []Param{
	{"window", "string", "15m, 1h, 24h, 7d, 30d or 60d, ending now; overridden by start/end"},
	{"start", "string", "ISO 8601 start, inclusive"},
	{"end", "string", "ISO 8601 end, inclusive"},
	{"since", "string", "alias of start"},
	{"until", "string", "alias of end"},
}
