package admin

import (
	"errors"
	"net/http"
	"slices"
	"strings"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

// route is one admin endpoint.
type route = adminapi.Route

// routeTable lists every admin route. Roles follow DESIGN 6.3: reader for
// every GET; operator for changes to services and their parts; admin for
// settings, role and permission bindings, hard delete and OpenAPI
// generation.
func (s *server) routeTable() []route {
	routes := []route{
		{Method: "GET", Path: "/me", Role: model.RoleReader, Handle: s.getMe, Doc: docGetMe},
		{Method: "GET", Path: "/openapi.json", Role: model.RoleReader, Handle: s.getOpenAPI, Doc: docGetOpenAPI},

		{Method: "GET", Path: "/settings", Role: model.RoleReader, Handle: s.getSettings, Doc: docGetSettings},
		{Method: "PATCH", Path: "/settings", Role: model.RoleAdmin, Handle: s.patchSettings, Doc: docPatchSettings,
			Audit: adminapi.OnFailure("settings.update", "settings", "settings")},

		{Method: "GET", Path: "/role-bindings", Role: model.RoleReader, Handle: s.getRoleBindings, Doc: docGetRoleBindings},
		{Method: "PUT", Path: "/role-bindings", Role: model.RoleAdmin, Handle: s.putRoleBindings, Doc: docPutRoleBindings,
			Audit: adminapi.OnFailure("role_bindings.replace", "role_bindings", "role_bindings")},
		{Method: "GET", Path: "/permission-bindings", Role: model.RoleReader, Handle: s.getPermissionBindings, Doc: docGetPermissionBindings},
		{Method: "POST", Path: "/permission-bindings", Role: model.RoleAdmin, Handle: s.postPermissionBinding, Doc: docPostPermissionBinding,
			Audit: adminapi.OnFailure("permission_binding.create", "permission_binding", "")},
		{Method: "DELETE", Path: "/permission-bindings/{bindingId}", Role: model.RoleAdmin, Handle: s.deletePermissionBinding, Doc: docDeletePermissionBinding,
			Audit: adminapi.OnFailure("permission_binding.delete", "permission_binding", "{bindingId}")},

		{Method: "GET", Path: "/audit-events", Role: model.RoleReader, Handle: s.getAuditEvents, Doc: docGetAuditEvents},
	}
	routes = append(routes, s.onboarding.Routes()...)
	routes = append(routes, s.catalogRoutes()...)
	routes = append(routes, s.observeRoutes()...)
	routes = append(routes, s.backends.Routes()...)
	routes = append(routes, s.policies.Routes()...)
	routes = append(routes, s.publishRoutes()...)
	routes = append(routes, s.gatewayRoutes()...)
	routes = append(routes, s.bundle.Routes()...)
	// Routes of areas kept in their own packages (DESIGN 3): listed here
	// so they are authorized and documented like every other route.
	return append(routes, s.extra...)
}

// register builds the mux. Every route's handler is wrapped in
// authorization here, and nowhere else, so an unguarded route cannot be
// registered; a route that names its Audit has each refusal recorded
// (adminapi.Audited) with the handler's own error, before unavailable
// turns a database failure into 503. A write (any route but a GET)
// answers only once the local runtime serves the configuration it
// committed (readYourWrites). Paths under Prefix that match no route are
// authorized like any route (401 S2R-ADM-0401 without identity, 403
// S2R-ADM-0403 for an identity without a role), so that they cannot be
// used to map the API; then they get 404 S2R-ADM-0404, or 405
// S2R-ADM-0405 with an Allow header when the path exists for other
// methods.
func (s *server) register(routes []route) *http.ServeMux {
	mux := http.NewServeMux()
	routes = slices.Clone(routes)
	for i, rt := range routes {
		routes[i].Handle = adminapi.Audited(s.store, s.log, rt.Audit, rt.Handle)
		if rt.Method != http.MethodGet {
			routes[i].Handle = s.readYourWrites(routes[i].Handle)
		}
	}
	for _, rt := range s.muxRoutes(routes) { // colon routes: see colon_routes.go
		mux.Handle(rt.Pattern(), s.access.Require(rt.Role, unavailable(rt.Handle)))
	}
	mux.Handle(Prefix+"/", s.access.Require(model.RoleReader, func(w http.ResponseWriter, r *http.Request) error {
		return s.unmatched(mux, w, r)
	}))
	return mux
}

// unavailable answers 503 S2R-ADM-0503 instead of 500 when a handler
// failed because the database could not be reached (store.ErrUnavailable):
// the change was not made and the caller may retry.
func unavailable(next apierr.AdminHandlerFunc) apierr.AdminHandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		err := next(w, r)
		if err == nil || !errors.Is(err, store.ErrUnavailable) {
			return err
		}
		if e, ok := apierr.As(err); ok && e.Status() != http.StatusInternalServerError {
			return err
		}
		return apierr.Wrap(apierr.AdmUnavailable, err, "the database is unavailable; retry later")
	}
}

// unmatched answers a request that no route pattern matched.
func (s *server) unmatched(mux *http.ServeMux, w http.ResponseWriter, r *http.Request) error {
	var allow []string
	for _, m := range []string{"GET", "POST", "PUT", "PATCH", "DELETE"} {
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, pattern := mux.Handler(probe); pattern != Prefix+"/" && pattern != "" {
			allow = append(allow, m)
		}
	}
	if len(allow) == 0 {
		return apierr.New(apierr.AdmNotFound, "no admin endpoint at this path")
	}
	if slices.Contains(allow, "GET") {
		allow = append(allow, "HEAD")
	}
	w.Header().Set("Allow", strings.Join(allow, ", "))
	return apierr.New(apierr.AdmMethodNotAllowed, "method not allowed on this admin endpoint").
		WithDetail("allowed", allow)
}
