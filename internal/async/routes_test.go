package async

import (
	"testing"

	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// TestRoutesGuarded: through the real admin handler, every async route
// answers 401 S2R-ADM-0401 without identity and 403 S2R-ADM-0403 to
// every role below its own, and lets its own role and those above through
// (to the unknown id); reads are reader routes, actions operator.
func TestRoutesGuarded(t *testing.T) {
	s := newStack(t, storetest.SQLite(t))
	routes := s.x.Routes(nil)
	if len(routes) != 8 {
		t.Fatalf("%d routes", len(routes))
	}
	for _, rt := range routes {
		want := model.RoleOperator
		if rt.Method == "GET" {
			want = model.RoleReader
		}
		if rt.Role != want {
			t.Errorf("%s %s: role %s, want %s", rt.Method, rt.Path, rt.Role, want)
		}
	}
	admintest.CheckGuarded(t, s.c, routes, admintest.Guard{Admitted: true})
}

// TestAdminOpenAPI: the admin API's own document describes every async
// route, and it is valid OpenAPI.
func TestAdminOpenAPI(t *testing.T) {
	s := newStack(t, storetest.SQLite(t))
	admintest.CheckDocumented(t, s.c, s.x.Routes(nil))
}
