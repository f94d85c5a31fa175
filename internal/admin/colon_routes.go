package admin

import (
	"net/http"
	"strings"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
)

// Colon routes (custom methods, AIP-136 style).
//
// SPEC 4.8 names actions as a colon suffix on a resource path:
//
//	POST   /wsdl/import/{artifactId}:autopilot
//	DELETE /services/{serviceId}:hard-delete
//	POST   /services/{serviceId}/versions/{versionId}:activate
//	POST   /backend-profiles/{profileId}:test-connection
//
// net/http.ServeMux wildcards must be whole path segments, so
// "{artifactId}:autopilot" cannot be registered as it is. A colon after a
// LITERAL segment is no problem ("/wsdl/import-xml:autopilot",
// "/services:bulk-action" are plain literal patterns).
//
// HOW TO USE: write such a route in the route table exactly as the spec
// spells it, with its own role, handler and adminapi.Doc, and read the id with
// r.PathValue("artifactId") as for any other wildcard:
//
//	{"POST", "/backend-profiles/{profileId}:test-connection", model.RoleOperator, s.testConnection, docTestConnection},
//
// Registration (register in routes.go calls muxRoutes) merges every route
// whose last segment is "{name}:verb" with the routes of the same method
// whose path is the same up to that wildcard (including the plain route
// "/backend-profiles/{profileId}" of that method, if any) into one mux
// pattern on the plain path. Its handler splits the wildcard value at the
// first ':' and dispatches on the verb, with r.PathValue(name) set to the
// bare id; each member keeps its own minimum role (checked again by the
// member's own access.Require), so a reader is refused an operator verb
// and an operator an admin verb. An unknown verb answers 404
// S2R-ADM-0404. The
// route table itself is unchanged, so the admin OpenAPI document and the
// route × role tests see every colon route under its spec path.

// colonPath splits a route path whose last segment is "{name}:verb" into
// the plain path ending in "{name}", the wildcard name and the verb.
func colonPath(path string) (plain, name, verb string, ok bool) {
	i := strings.LastIndexByte(path, '/')
	last := path[i+1:]
	if !strings.HasPrefix(last, "{") {
		return "", "", "", false
	}
	end := strings.Index(last, "}:")
	if end < 0 || end+2 >= len(last) {
		return "", "", "", false
	}
	return path[:i+1] + last[:end+1], last[1:end], last[end+2:], true
}

// colonGroup is the routes of one method sharing a plain path.
type colonGroup struct {
	at      int // index of the merged route in the output
	name    string
	plain   *route           // the route without a verb, if any
	byVerb  map[string]route // the colon routes by verb
	minRole model.Role
}

// muxRoutes returns the routes to register with the mux: colon routes are
// merged with their siblings into dispatching routes (see above); every
// other route is returned as is.
func (s *server) muxRoutes(routes []route) []route {
	type key struct{ method, plain string }
	groups := map[key]*colonGroup{}
	for _, rt := range routes {
		if plain, name, verb, ok := colonPath(rt.Path); ok {
			k := key{rt.Method, plain}
			g := groups[k]
			if g == nil {
				g = &colonGroup{at: -1, name: name, byVerb: map[string]route{}, minRole: rt.Role}
				groups[k] = g
			}
			g.byVerb[verb] = rt
			if rt.Role.Rank() < g.minRole.Rank() {
				g.minRole = rt.Role
			}
		}
	}
	var out []route
	for _, rt := range routes {
		if plain, _, _, ok := colonPath(rt.Path); ok {
			g := groups[key{rt.Method, plain}]
			if g.at < 0 {
				g.at = len(out)
				out = append(out, route{Method: rt.Method, Path: plain, Doc: rt.Doc})
			}
			continue
		}
		if g := groups[key{rt.Method, rt.Path}]; g != nil {
			plainRoute := rt
			g.plain = &plainRoute
			if rt.Role.Rank() < g.minRole.Rank() {
				g.minRole = rt.Role
			}
			continue
		}
		out = append(out, rt)
	}
	for _, g := range groups {
		out[g.at].Role = g.minRole
		out[g.at].Handle = s.colonDispatcher(g)
	}
	return out
}

// colonDispatcher returns the handler of a merged colon group.
func (s *server) colonDispatcher(g *colonGroup) apierr.AdminHandlerFunc {
	handlers := map[string]apierr.AdminHandlerFunc{}
	for verb, rt := range g.byVerb {
		handlers[verb] = s.access.Require(rt.Role, rt.Handle)
	}
	if g.plain != nil {
		handlers[""] = s.access.Require(g.plain.Role, g.plain.Handle)
	}
	return func(w http.ResponseWriter, r *http.Request) error {
		id, verb, _ := strings.Cut(r.PathValue(g.name), ":")
		h, ok := handlers[verb]
		if !ok {
			return unknownVerb(verb)
		}
		r2 := r.Clone(r.Context())
		r2.SetPathValue(g.name, id)
		return h(w, r2)
	}
}

// unknownVerb answers a colon action that no route of this method and
// path has.
func unknownVerb(verb string) error {
	return apierr.New(apierr.AdmNotFound, "no admin endpoint at this path").WithDetail("action", verb)
}
