package security

import (
	"encoding/json"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// adminRoute is one admin endpoint as the served OpenAPI document
// describes it.
type adminRoute struct {
	Method   string // GET, POST, …
	Path     string // relative to /admin/v1, wildcards as {name}
	MinRole  string // reader, operator or admin, from "Minimum role: X."
	Media    []string
	Query    []string       // documented query parameters
	JSONBody map[string]any // request body schema (resolved), nil when none
	FormBody map[string]any // multipart/form-data schema, nil when none
	doc      *openAPIDoc
}

func (r adminRoute) String() string { return r.Method + " " + r.Path }

// takesXML reports whether the route reads an XML document from its
// body: a raw XML body, a multipart file, or a JSON member named xml.
func (r adminRoute) takesXML() bool {
	return r.rawXML() || r.FormBody != nil || r.doc.hasProperty(r.JSONBody, "xml")
}

// rawXML reports whether the body itself is XML (text/xml and friends).
func (r adminRoute) rawXML() bool {
	return slices.ContainsFunc(r.Media, func(m string) bool { return strings.Contains(m, "xml") })
}

// takesURL reports whether a JSON member named url is fetched.
func (r adminRoute) takesURL() bool { return r.doc.hasProperty(r.JSONBody, "url") }

// queryParams returns the documented query parameters of the route.
func (r adminRoute) queryParams() []string { return r.Query }

// params returns the path wildcards of the route.
func (r adminRoute) params() []string {
	var out []string
	for _, m := range wildcard.FindAllStringSubmatch(r.Path, -1) {
		out = append(out, m[1])
	}
	return out
}

var wildcard = regexp.MustCompile(`\{([A-Za-z]+)\}`)

// openAPIDoc is the parsed admin OpenAPI document.
type openAPIDoc struct {
	Paths      map[string]map[string]json.RawMessage `json:"paths"`
	Components struct {
		Schemas map[string]map[string]any `json:"schemas"`
	} `json:"components"`
}

// resolve follows a $ref.
func (d *openAPIDoc) resolve(s map[string]any) map[string]any {
	for i := 0; i < 8 && s != nil; i++ {
		ref, ok := s["$ref"].(string)
		if !ok {
			return s
		}
		s = d.Components.Schemas[strings.TrimPrefix(ref, "#/components/schemas/")]
	}
	return s
}

// hasProperty reports whether schema (or the items of an array member of
// it) has a property called name.
func (d *openAPIDoc) hasProperty(schema map[string]any, name string) bool {
	s := d.resolve(schema)
	if s == nil {
		return false
	}
	props, _ := s["properties"].(map[string]any)
	for k, v := range props {
		if k == name {
			return true
		}
		p := d.resolve(asMap(v))
		if p["type"] == "array" && d.hasProperty(asMap(p["items"]), name) {
			return true
		}
	}
	return false
}

func asMap(v any) map[string]any { m, _ := v.(map[string]any); return m }

var minRole = regexp.MustCompile(`Minimum role: (reader|operator|admin)\.`)

// adminRoutes fetches and parses the admin API description that s
// serves: every admin route of every area.
func adminRoutes(t *testing.T, s *server) []adminRoute {
	t.Helper()
	r := s.admin(t, "GET", "/openapi.json", nil).WantStatus(t, 200)
	doc := &openAPIDoc{}
	if err := json.Unmarshal(r.Body, doc); err != nil {
		t.Fatalf("openapi.json: %v", err)
	}
	var routes []adminRoute
	for path, ops := range doc.Paths {
		for method, raw := range ops {
			var op struct {
				Description string `json:"description"`
				Parameters  []struct {
					Name string `json:"name"`
					In   string `json:"in"`
				} `json:"parameters"`
				RequestBody struct {
					Content map[string]struct {
						Schema map[string]any `json:"schema"`
					} `json:"content"`
				} `json:"requestBody"`
			}
			if err := json.Unmarshal(raw, &op); err != nil {
				continue // "parameters" and other non-operation members
			}
			m := strings.ToUpper(method)
			if !slices.Contains([]string{"GET", "POST", "PUT", "PATCH", "DELETE"}, m) {
				continue
			}
			rt := adminRoute{Method: m, Path: path, doc: doc}
			for _, p := range op.Parameters {
				if p.In == "query" {
					rt.Query = append(rt.Query, p.Name)
				}
			}
			if mm := minRole.FindStringSubmatch(op.Description); mm != nil {
				rt.MinRole = mm[1]
			}
			for media, c := range op.RequestBody.Content {
				rt.Media = append(rt.Media, media)
				switch {
				case media == "application/json":
					rt.JSONBody = doc.resolve(c.Schema)
				case media == "multipart/form-data":
					rt.FormBody = doc.resolve(c.Schema)
				}
			}
			sort.Strings(rt.Media)
			routes = append(routes, rt)
		}
	}
	sort.Slice(routes, func(i, j int) bool { return routes[i].String() < routes[j].String() })
	if len(routes) < 50 {
		t.Fatalf("the served OpenAPI document lists only %d admin routes", len(routes))
	}
	return routes
}
