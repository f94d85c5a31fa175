package async

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// TestRoutesGuarded: through the real admin handler, every async route
// answers 401 S2R-ADM-0401 without identity and 403 S2R-ADM-0403 to
// every role below its own; reads are reader routes, actions operator.
func TestRoutesGuarded(t *testing.T) {
	s := newStack(t, storetest.SQLite(t))
	routes := s.x.Routes(nil)
	if len(routes) != 8 {
		t.Fatalf("%d routes", len(routes))
	}
	for _, rt := range routes {
		t.Run(rt.Method+" "+rt.Path, func(t *testing.T) {
			if want := model.RoleOperator; rt.Method == "GET" {
				if rt.Role != model.RoleReader {
					t.Errorf("read route role %s", rt.Role)
				}
			} else if rt.Role != want {
				t.Errorf("action route role %s", rt.Role)
			}
			path := strings.ReplaceAll(rt.Path, "{id}", "4f1c2b7e-0000-4000-8000-000000000000")
			s.admin(rt.Method, path, "", nil).wantError(t, http.StatusUnauthorized, "S2R-ADM-0401")
			below := []string{nobodyEmail}
			if rt.Role == model.RoleOperator {
				below = append(below, readerEmail)
			}
			for _, email := range below {
				s.admin(rt.Method, path, email, nil).wantError(t, http.StatusForbidden, "S2R-ADM-0403")
			}
			// The role itself gets through (to the unknown id).
			email := readerEmail
			if rt.Role == model.RoleOperator {
				email = operatorEmail
			}
			if a := s.admin(rt.Method, path, email, nil); a.status == 401 || a.status == 403 {
				t.Errorf("%s refused: %s", email, a.body)
			}
		})
	}
}

// TestAdminOpenAPI: the admin API's own document describes every async
// route, and it is valid OpenAPI.
func TestAdminOpenAPI(t *testing.T) {
	s := newStack(t, storetest.SQLite(t))
	body := s.admin("GET", "/openapi.json", readerEmail, nil).want(t, http.StatusOK).body
	doc, err := openapi3.NewLoader().LoadFromData(body)
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("validate: %v", err)
	}
	for _, rt := range s.x.Routes(nil) {
		item := doc.Paths.Value(rt.Path)
		if item == nil || item.GetOperation(rt.Method) == nil {
			t.Errorf("%s %s is not documented", rt.Method, rt.Path)
		}
	}
}
