package admin

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/s2r-project/s2r/internal/access"
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

func TestColonPath(t *testing.T) {
	tests := []struct {
		path, plain, name, verb string
		ok                      bool
	}{
		{"/services/{serviceId}:hard-delete", "/services/{serviceId}", "serviceId", "hard-delete", true},
		{"/services/{serviceId}/versions/{versionId}:activate", "/services/{serviceId}/versions/{versionId}", "versionId", "activate", true},
		{"/wsdl/import-xml:autopilot", "", "", "", false},
		{"/services:bulk-action", "", "", "", false},
		{"/services/{serviceId}", "", "", "", false},
		{"/x/{id}:", "", "", "", false},
	}
	for _, tc := range tests {
		plain, name, verb, ok := colonPath(tc.path)
		if diff := cmp.Diff([]any{tc.plain, tc.name, tc.verb, tc.ok}, []any{plain, name, verb, ok}); diff != "" {
			t.Errorf("colonPath(%q) (-want +got):\n%s", tc.path, diff)
		}
	}
}

// TestColonRouteDispatch registers a plain route and colon siblings with
// different roles and checks dispatch, path values and authorization.
func TestColonRouteDispatch(t *testing.T) {
	api := newTestAPI(t, storetest.SQLite(t))
	echo := func(tag string) func(http.ResponseWriter, *http.Request) error {
		return func(w http.ResponseWriter, r *http.Request) error {
			c, _ := access.CallerFrom(r.Context())
			return adminapi.WriteJSON(w, http.StatusOK, map[string]string{"handler": tag, "id": r.PathValue("thingId"), "role": string(c.Role)})
		}
	}
	routes := []route{
		{Method: "DELETE", Path: "/things/{thingId}", Role: model.RoleOperator, Handle: echo("soft")},
		{Method: "DELETE", Path: "/things/{thingId}:hard-delete", Role: model.RoleAdmin, Handle: echo("hard")},
		{Method: "POST", Path: "/things/{thingId}:poke", Role: model.RoleReader, Handle: echo("poke")},
		{Method: "POST", Path: "/things:bulk", Role: model.RoleOperator, Handle: echo("bulk")},
	}
	api.srv.mux = api.srv.register(routes)

	tests := []struct {
		method, path, email string
		status              int
		handler, id         string
	}{
		{"DELETE", "/admin/v1/things/t1", operatorEmail, 200, "soft", "t1"},
		{"DELETE", "/admin/v1/things/t1:hard-delete", adminEmail, 200, "hard", "t1"},
		{"DELETE", "/admin/v1/things/t1:hard-delete", operatorEmail, 403, "", ""},
		{"DELETE", "/admin/v1/things/t1", readerEmail, 403, "", ""},
		{"DELETE", "/admin/v1/things/t1:hard-delete", "", 401, "", ""},
		{"POST", "/admin/v1/things/t2:poke", readerEmail, 200, "poke", "t2"},
		{"POST", "/admin/v1/things/t2", readerEmail, 405, "", ""},            // DELETE only
		{"GET", "/admin/v1/things/t1:hard-delete", readerEmail, 405, "", ""}, // DELETE only
		{"GET", "/admin/v1/things/t1:poke", "", 401, "", ""},
		{"POST", "/admin/v1/things/t2:nope", readerEmail, 404, "", ""},
		{"DELETE", "/admin/v1/things/t2:nope", adminEmail, 404, "", ""},
		{"POST", "/admin/v1/things:bulk", operatorEmail, 200, "bulk", ""},
	}
	for _, tc := range tests {
		r := api.Do(tc.method, tc.path, tc.email, "")
		if r.Status != tc.status {
			t.Errorf("%s %s as %q: status %d, want %d; body %s", tc.method, tc.path, tc.email, r.Status, tc.status, r.Body)
			continue
		}
		if tc.status != 200 {
			continue
		}
		var got map[string]string
		r.Decode(t, &got)
		if got["handler"] != tc.handler || got["id"] != tc.id {
			t.Errorf("%s %s: got %v, want handler %s id %q", tc.method, tc.path, got, tc.handler, tc.id)
		}
	}
}
