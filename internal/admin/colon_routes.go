package admin

import (
	"net/http"
	"slices"
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
// bare id; each member keeps its own minimum role (checked by the
// member's own access.Require), so a reader is refused an operator verb
// and an operator an admin verb. The merged route itself admits any
// caller with a role, like paths no route serves: a verb the path takes
// only with other methods answers 405 S2R-ADM-0405 with Allow, an unknown
// verb 404 S2R-ADM-0404. The
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

// colonKey identifies a colon group: a method and a plain path.
type colonKey struct{ method, plain string }

// colonGroup is the routes of one method sharing a plain path.
type colonGroup struct {
	at     int // index of the merged route in the output
	name   string
	plain  *route           // the route without a verb, if any
	byVerb map[string]route // the colon routes by verb
}

// muxRoutes returns the routes to register with the mux: colon routes are
// merged with their siblings into dispatching routes (see above); every
// other route is returned as is.
func (s *server) muxRoutes(routes []route) []route {
	groups := map[colonKey]*colonGroup{}
	for _, rt := range routes {
		if plain, name, verb, ok := colonPath(rt.Path); ok {
			k := colonKey{rt.Method, plain}
			g := groups[k]
			if g == nil {
				g = &colonGroup{at: -1, name: name, byVerb: map[string]route{}}
				groups[k] = g
			}
			g.byVerb[verb] = rt
		}
	}
	// A plain route on a path that has verbs under other methods joins a
	// group of its own, so that such a verb gets 405 with it too.
	for _, rt := range routes {
		if _, _, _, ok := colonPath(rt.Path); ok || !groupsHave(groups, rt.Path) {
			continue
		}
		if k := (colonKey{rt.Method, rt.Path}); groups[k] == nil {
			_, name, _, _ := colonPath(rt.Path + ":x")
			groups[k] = &colonGroup{at: -1, name: name, byVerb: map[string]route{}}
		}
	}
	var out []route
	for _, rt := range routes {
		if plain, _, _, ok := colonPath(rt.Path); ok {
			g := groups[colonKey{rt.Method, plain}]
			if g.at < 0 {
				g.at = len(out)
				out = append(out, route{Method: rt.Method, Path: plain, Doc: rt.Doc})
			}
			continue
		}
		if g := groups[colonKey{rt.Method, rt.Path}]; g != nil {
			plainRoute := rt
			g.plain = &plainRoute
			if g.at < 0 {
				g.at = len(out)
				out = append(out, route{Method: rt.Method, Path: rt.Path, Doc: rt.Doc})
			}
			continue
		}
		out = append(out, rt)
	}
	// The methods each plain path takes with each verb ("" for none), for
	// the 405 of a verb that exists under another method.
	allow := map[string]map[string][]string{}
	add := func(plain, verb, method string) {
		if allow[plain] == nil {
			allow[plain] = map[string][]string{}
		}
		allow[plain][verb] = append(allow[plain][verb], method)
	}
	for k, g := range groups {
		for verb := range g.byVerb {
			add(k.plain, verb, k.method)
		}
	}
	for _, rt := range routes {
		if _, _, _, ok := colonPath(rt.Path); !ok && groupsHave(groups, rt.Path) {
			add(rt.Path, "", rt.Method)
		}
	}
	for k, g := range groups {
		// Each member checks its own role; the merged route admits any
		// reader, so that a verb or method the path does not have answers
		// 404 or 405 to every caller with a role (401 and 403 without).
		out[g.at].Role = model.RoleReader
		out[g.at].Handle = s.colonDispatcher(g, allow[k.plain])
	}
	return out
}

// groupsHave reports whether some colon group has plain path p.
func groupsHave(groups map[colonKey]*colonGroup, p string) bool {
	for k := range groups {
		if k.plain == p {
			return true
		}
	}
	return false
}

// colonDispatcher returns the handler of a merged colon group; allow
// lists, by verb, the methods the plain path takes it with.
func (s *server) colonDispatcher(g *colonGroup, allow map[string][]string) apierr.AdminHandlerFunc {
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
			if methods := allow[verb]; len(methods) > 0 {
				return wrongMethod(w, methods)
			}
			return unknownVerb(verb)
		}
		r2 := r.Clone(r.Context())
		r2.SetPathValue(g.name, id)
		return h(w, r2)
	}
}

// wrongMethod answers 405 S2R-ADM-0405 with an Allow header for a colon
// action (or plain path) that exists under other methods.
func wrongMethod(w http.ResponseWriter, methods []string) error {
	allow := slices.Clone(methods)
	if slices.Contains(allow, "GET") {
		allow = append(allow, "HEAD")
	}
	w.Header().Set("Allow", strings.Join(allow, ", "))
	return apierr.New(apierr.AdmMethodNotAllowed, "method not allowed on this admin endpoint").WithDetail("allowed", allow)
}

// unknownVerb answers a colon action that no route of this method and
// path has.
func unknownVerb(verb string) error {
	return apierr.New(apierr.AdmNotFound, "no admin endpoint at this path").WithDetail("action", verb)
}
