package admin

import (
	"net/http"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// concretePath fills the wildcards of a route path with a well-formed id.
func concretePath(path string) string { return Prefix + admintest.FillUUID(path) }

// TestEveryRouteIsGuarded enumerates the registered routes: each must
// answer 401 without identity and 403 to every role below its minimum.
func TestEveryRouteIsGuarded(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		routes := make([]adminapi.Route, len(api.srv.routes))
		for i, rt := range api.srv.routes {
			routes[i] = adminapi.Route(rt)
		}
		admintest.CheckGuarded(t, api.Client, routes, admintest.Guard{Body: "{}"})
	})
}

// TestRouteRoleMatrix calls every route as reader, operator and admin.
// Routes with a row below must answer exactly its statuses; every other
// route must refuse (403) the roles below its minimum and let the others
// through (neither 401 nor 403).
func TestRouteRoleMatrix(t *testing.T) {
	type want struct{ reader, operator, admin int }
	readAll := want{200, 200, 200}
	adminOnly := func(adminStatus int) want { return want{403, 403, adminStatus} }
	exact := map[string]struct {
		body string
		want want
	}{
		"GET /me":                                 {want: readAll},
		"GET /openapi.json":                       {want: readAll},
		"GET /settings":                           {want: readAll},
		"PATCH /settings":                         {body: `{}`, want: adminOnly(200)},
		"GET /role-bindings":                      {want: readAll},
		"PUT /role-bindings":                      {body: `[]`, want: adminOnly(200)},
		"GET /permission-bindings":                {want: readAll},
		"POST /permission-bindings":               {body: `{"email":"new@example.com","role":"reader"}`, want: adminOnly(201)},
		"DELETE /permission-bindings/{bindingId}": {want: adminOnly(404)},
		"GET /audit-events":                       {want: readAll},
		// The route admits readers for dry runs; a real apply needs
		// the operator role (the handler checks it), and {} is no bundle.
		"POST /bundle:apply": {body: `{}`, want: want{403, 400, 400}},
	}
	roles := []struct {
		email string
		role  model.Role
	}{{readerEmail, model.RoleReader}, {operatorEmail, model.RoleOperator}, {adminEmail, model.RoleAdmin}}
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		for _, rt := range api.srv.routes {
			key := rt.Method + " " + rt.Path
			t.Run(key, func(t *testing.T) {
				tc, isExact := exact[key]
				body := tc.body
				if !isExact && rt.Method != "GET" && rt.Method != "DELETE" {
					body = "{}"
				}
				for i, id := range roles {
					r := api.Do(rt.Method, concretePath(rt.Path), id.email, body)
					switch {
					case isExact:
						if want := []int{tc.want.reader, tc.want.operator, tc.want.admin}[i]; r.Status != want {
							t.Errorf("%s: status %d, want %d; body %s", id.role, r.Status, want, r.Body)
						}
					case !id.role.AtLeast(rt.Role):
						if r.Status != http.StatusForbidden {
							t.Errorf("%s below %s: status %d, want 403", id.role, rt.Role, r.Status)
						}
					case r.Status == http.StatusUnauthorized || r.Status == http.StatusForbidden:
						t.Errorf("%s allowed for %s: status %d; body %s", id.role, rt.Role, r.Status, r.Body)
					}
				}
			})
		}
	})
}

// TestUnknownPathAndWrongMethod: a path no route matches, or a method the
// path does not take, is authorized like any admin request before it is
// answered 404 or 405 (issue 16): without identity 401, for an identity
// without a role 403, so neither can map the API.
func TestUnknownPathAndWrongMethod(t *testing.T) {
	api := newTestAPI(t, storetest.SQLite(t))
	tests := []struct {
		name, method, path, email string
		status                    int
		code, allow               string
	}{
		{name: "unknown path", method: "GET", path: "/admin/v1/no-such-thing", email: adminEmail, status: 404, code: apierr.AdmNotFound},
		{name: "unknown nested", method: "DELETE", path: "/admin/v1/settings/x/y", email: readerEmail, status: 404, code: apierr.AdmNotFound},
		{name: "unknown colon action", method: "POST", path: "/admin/v1/backend-profiles/4f1c2b7e-0000-4000-8000-000000000000:nope",
			email: adminEmail, status: 404, code: apierr.AdmNotFound},
		{name: "wrong method", method: "PUT", path: "/admin/v1/settings", email: adminEmail, status: 405, code: apierr.AdmMethodNotAllowed,
			allow: "GET, PATCH, HEAD"},
		{name: "wrong method with wildcard", method: "GET", path: "/admin/v1/permission-bindings/abc", email: readerEmail, status: 405,
			code: apierr.AdmMethodNotAllowed, allow: "DELETE"},

		{name: "unknown path without identity", method: "GET", path: "/admin/v1/no-such-thing", status: 401, code: apierr.AdmUnauthenticated},
		{name: "wrong method without identity", method: "PUT", path: "/admin/v1/settings", status: 401, code: apierr.AdmUnauthenticated},
		{name: "wrong method with wildcard without identity", method: "GET", path: "/admin/v1/permission-bindings/abc", status: 401,
			code: apierr.AdmUnauthenticated},
		{name: "unknown colon action without identity", method: "POST", path: "/admin/v1/backend-profiles/x:nope", status: 401,
			code: apierr.AdmUnauthenticated},
		{name: "prefix alone without identity", method: "GET", path: "/admin/v1", status: 401, code: apierr.AdmUnauthenticated},
		{name: "unclean path without identity", method: "GET", path: "/admin/v1//settings/../me", status: 401, code: apierr.AdmUnauthenticated},
		{name: "OPTIONS without identity", method: "OPTIONS", path: "/admin/v1/settings", status: 401, code: apierr.AdmUnauthenticated},

		{name: "unknown path without a role", method: "GET", path: "/admin/v1/no-such-thing", email: nobodyEmail, status: 403, code: apierr.AdmForbidden},
		{name: "wrong method without a role", method: "PUT", path: "/admin/v1/settings", email: nobodyEmail, status: 403, code: apierr.AdmForbidden},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := api.Do(tc.method, tc.path, tc.email, "")
			r.WantStatus(t, tc.status)
			e := r.ErrorOf(t)
			if e.Error.Code != tc.code {
				t.Errorf("code = %s, want %s", e.Error.Code, tc.code)
			}
			if e.Error.CorrelationID == "" {
				t.Error("no correlationId in the error body")
			}
			if got := r.Header.Get("Allow"); got != tc.allow {
				t.Errorf("Allow = %q, want %q", got, tc.allow)
			}
		})
	}
}

// TestChangesNameTheirAudit: every route that is not a read names the
// failure event of its refusal (route.Audit), except those listed here,
// which audit each item themselves (batch, bulk) or change no
// configuration (previews, repair reports, backend tests).
func TestChangesNameTheirAudit(t *testing.T) {
	unaudited := map[string]bool{
		"POST /wsdl/import-urls:autopilot":                          true,
		"POST /wsdl/import-files:autopilot":                         true,
		"POST /services:bulk-action":                                true,
		"POST /wsdl/namespace-repair-preview":                       true,
		"POST /wsdl/external-reference-preview":                     true,
		"POST /wsdl/repair-report":                                  true,
		"POST /wsdl/repair-package":                                 true,
		"POST /backend-profiles/{profileId}:test-connection":        true,
		"POST /backend-profiles/{profileId}:test-application":       true,
		"POST /backend-profiles/{profileId}:test-generated-samples": true,
		"POST /backend-profiles/{profileId}:test-rest":              true,
	}
	for _, rt := range newServer(Config{Store: storetest.SQLite(t)}).routes {
		key := rt.Method + " " + rt.Path
		if rt.Method != "GET" && rt.Audit == nil && !unaudited[key] {
			t.Errorf("%s changes something but names no failure audit", key)
		}
		if rt.Audit != nil && (rt.Audit.Action == "" || rt.Audit.EntityType == "") {
			t.Errorf("%s: incomplete audit %+v", key, *rt.Audit)
		}
		if rt.Audit != nil && strings.HasPrefix(rt.Audit.EntityID, "{") && !strings.Contains(rt.Path, rt.Audit.EntityID) {
			t.Errorf("%s: audit entity id %s is no parameter of the path", key, rt.Audit.EntityID)
		}
	}
}
