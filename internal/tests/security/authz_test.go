package security

import (
	"fmt"
	"strings"
	"testing"
)

// Callers of the authorization matrix; roles are granted by permission
// bindings (and one by a group binding) through the admin API.
const (
	readerEmail   = "sec-reader@example.com"
	operatorEmail = "sec-operator@example.com"
	adminByBind   = "sec-admin2@example.com"
	roleless      = "sec-nobody@example.com"
	groupOperator = "sec-group-member@example.com"
	operatorGroup = "sec-operators"
	otherTenantOp = "sec-other-tenant@example.com"
	otherTenant   = "sec-other"
)

// grantRoles binds the callers above.
func grantRoles(t *testing.T, s *server) {
	t.Helper()
	for email, role := range map[string]string{readerEmail: "reader", operatorEmail: "operator", adminByBind: "admin"} {
		s.admin(t, "POST", "/permission-bindings", map[string]any{"email": email, "role": role}).WantStatus(t, 201)
	}
	s.admin(t, "POST", "/permission-bindings", map[string]any{"email": otherTenantOp, "role": "operator", "tenantId": otherTenant}).WantStatus(t, 201)
	s.admin(t, "PUT", "/role-bindings", []any{map[string]any{"group": operatorGroup, "role": "operator"}}).WantStatus(t, 200)
}

// caller is one identity of the matrix.
type caller struct {
	name, email, groups string
	role                string // "" for none
}

var callers = []caller{
	{name: "no identity"},
	{name: "role-less", email: roleless},
	{name: "reader", email: readerEmail, role: "reader"},
	{name: "operator", email: operatorEmail, role: "operator"},
	{name: "operator by group", email: groupOperator, groups: "unrelated," + operatorGroup, role: "operator"},
	{name: "admin", email: adminByBind, role: "admin"},
	{name: "bootstrap admin", email: adminEmail, role: "admin"},
}

var roleRank = map[string]int{"": 0, "reader": 1, "operator": 2, "admin": 3}

// readOnlyActions are the non-GET routes that change nothing and are
// open to readers by a recorded decision; each entry names it. A new one
// must be added here deliberately.
var readOnlyActions = map[string]string{
	"POST /soap-to-json-preview": "docs/decisions-observe.md: the preview changes nothing",
}

// queryGated are the routes a reader reaches only with one query: the
// route admits readers and its handler demands more for the other
// requests. Each entry names the query that keeps it read-only, the role
// the rest needs and the decision.
var queryGated = map[string]struct{ query, role, why string }{
	"POST /bundle:apply": {"dryRun=true", "operator",
		"DESIGN 10.5 and issue 25: a dry run changes nothing and is open to readers; an apply needs an operator"},
}

// design63Role is the least role DESIGN 6.3 gives a route: reader for
// every GET (and the recorded read-only actions); admin for settings,
// role and permission bindings, ingest instances, hard delete and
// OpenAPI generation; operator for every other change.
func design63Role(method, path string) string {
	switch {
	case method == "GET", readOnlyActions[method+" "+path] != "":
		return "reader"
	case strings.HasPrefix(path, "/settings"), strings.HasPrefix(path, "/role-bindings"),
		strings.HasPrefix(path, "/permission-bindings"), strings.HasPrefix(path, "/ingest-instances"),
		strings.HasSuffix(path, ":hard-delete"), strings.HasSuffix(path, ":generate-openapi"):
		return "admin"
	}
	return "operator"
}

// placeholder fills a path wildcard with a well-formed id of nothing.
func placeholder(name string) string {
	switch {
	case strings.HasSuffix(strings.ToLower(name), "rowid"):
		return "987654321"
	case name == "correlationId":
		return "sec-no-such-correlation"
	}
	return "0195f1a2-0000-7000-8000-00000000dead"
}

// fillPath replaces every wildcard of path with its placeholder.
func fillPath(path string) string {
	return wildcard.ReplaceAllStringFunc(path, func(m string) string {
		return placeholder(m[1 : len(m)-1])
	})
}

// TestAuthorizationMatrix sends every admin route the served OpenAPI
// document lists as every caller: no identity is 401 S2R-ADM-0401, a
// role below the route's is 403 S2R-ADM-0403, and a sufficient role is
// let through (anything but 401/403, never a 5xx). The route's role must
// be the one DESIGN 6.3 gives it.
func TestAuthorizationMatrix(t *testing.T) {
	s := startServer(t)
	grantRoles(t, s)
	routes := adminRoutes(t, s)
	t.Logf("%d admin routes x %d callers", len(routes), len(callers))
	for _, rt := range routes {
		want := design63Role(rt.Method, rt.Path)
		if rt.MinRole == "" {
			t.Errorf("%s: the OpenAPI description names no \"Minimum role\"", rt)
			continue
		}
		if g, ok := queryGated[rt.Method+" "+rt.Path]; ok {
			checkQueryGated(t, s, rt, g.query, g.role)
			continue
		}
		if rt.MinRole != want {
			t.Errorf("%s: minimum role %s, DESIGN 6.3 says %s", rt, rt.MinRole, want)
		}
		for _, c := range callers {
			checkCall(t, s, rt, c, request{method: rt.Method, path: "/admin/v1" + fillPath(rt.Path),
				email: c.email, groups: c.groups})
		}
	}
	checkUnmatched(t, s, routes)
	s.alive(t)
	if panics := panicLines(s.logText()); panics != "" {
		t.Errorf("panics in the log:\n%s", panics)
	}
}

// checkQueryGated checks a route of queryGated: it admits readers with
// query (read-only) and demands role without it.
func checkQueryGated(t *testing.T, s *server, rt adminRoute, query, role string) {
	t.Helper()
	if rt.MinRole != "reader" {
		t.Errorf("%s: minimum role %s, want reader (with %s)", rt, rt.MinRole, query)
	}
	full := rt
	full.MinRole = role
	for _, c := range callers {
		path := "/admin/v1" + fillPath(rt.Path)
		checkCall(t, s, rt, c, request{method: rt.Method, path: path + "?" + query, email: c.email, groups: c.groups})
		checkCall(t, s, full, c, request{method: rt.Method, path: path, email: c.email, groups: c.groups})
	}
}

// checkUnmatched: paths no route serves and methods a path does not take
// are authorized like routes, so they cannot map the API: 401 without an
// identity, 403 without a role, then 404 S2R-ADM-0404 or 405
// S2R-ADM-0405 with an Allow header.
func checkUnmatched(t *testing.T, s *server, routes []adminRoute) {
	t.Helper()
	methods := map[string]map[string]bool{}
	for _, rt := range routes {
		if methods[rt.Path] == nil {
			methods[rt.Path] = map[string]bool{}
		}
		methods[rt.Path][rt.Method] = true
	}
	type probe struct{ method, path, want string }
	probes := []probe{
		{"GET", "/admin/v1/sec-no-such-endpoint", "404 S2R-ADM-0404"},
		{"POST", "/admin/v1/services/x/y/z/sec", "404 S2R-ADM-0404"},
		{"GET", "/admin/v1/", "404 S2R-ADM-0404"},
	}
	for path, ms := range methods {
		for _, m := range []string{"GET", "POST", "PUT", "PATCH", "DELETE"} {
			if !ms[m] {
				probes = append(probes, probe{m, "/admin/v1" + fillPath(path), "405 S2R-ADM-0405"})
				break
			}
		}
	}
	for _, p := range probes {
		for _, c := range []caller{callers[0], callers[1], callers[2]} { // none, role-less, reader
			r := s.send(t, request{method: p.method, path: p.path, email: c.email})
			got := fmt.Sprintf("%d %s", r.Status, errorCode(r))
			want := map[string]string{"": "401 S2R-ADM-0401", roleless: "403 S2R-ADM-0403"}[c.email]
			if want == "" {
				want = p.want
			}
			if got != want {
				t.Errorf("%s %s as %s: %s, want %s", p.method, p.path, c.name, got, want)
			}
			if got == "405 S2R-ADM-0405" && r.Header.Get("Allow") == "" {
				t.Errorf("%s %s: 405 without Allow", p.method, p.path)
			}
		}
	}
}

// checkCall sends q as c and checks the answer against rt's role.
func checkCall(t *testing.T, s *server, rt adminRoute, c caller, q request) {
	t.Helper()
	r := s.send(t, q)
	got := fmt.Sprintf("%d %s", r.Status, errorCode(r))
	switch {
	case c.email == "":
		if got != "401 S2R-ADM-0401" {
			t.Errorf("%s as %s: %s, want 401 S2R-ADM-0401", rt, c.name, got)
		}
	case roleRank[c.role] < roleRank[rt.MinRole]:
		if got != "403 S2R-ADM-0403" {
			t.Errorf("%s as %s: %s, want 403 S2R-ADM-0403", rt, c.name, got)
		}
	case r.Status == 401 || r.Status == 403 || r.Status >= 500:
		t.Errorf("%s as %s: %s %.300s, want it let through", rt, c.name, got, r.Body)
	}
}
