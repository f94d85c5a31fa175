package admintest

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
)

// Guard is what CheckGuarded sends to each route.
type Guard struct {
	// Path turns a route's path (relative to adminapi.Prefix) into one to
	// call; nil fills every {wildcard} with a well-formed unknown UUID.
	Path func(string) string
	// Body, of ContentType (JSON when ""), goes with every request; ""
	// sends none.
	Body, ContentType string
	// Admitted also checks that the identities of the route's role and
	// above get past authorization (neither 401 nor 403). Their requests
	// run the handler, so leave it off where that would change state the
	// test looks at afterwards.
	Admitted bool
}

// FillUUID fills every {wildcard} of path with a well-formed unknown id.
func FillUUID(path string) string {
	for strings.Contains(path, "{") {
		i, j := strings.Index(path, "{"), strings.Index(path, "}")
		path = path[:i] + "4f1c2b7e-0000-4000-8000-000000000000" + path[j+1:]
	}
	return path
}

// Below returns the identities whose role is below min: NobodyEmail, with
// no role at all, and one per lower role.
func Below(min model.Role) []string {
	out := []string{NobodyEmail}
	if min.Rank() > model.RoleReader.Rank() {
		out = append(out, ReaderEmail)
	}
	if min.Rank() > model.RoleOperator.Rank() {
		out = append(out, OperatorEmail)
	}
	return out
}

// atOrAbove returns the Staff identities whose role is at least min.
func atOrAbove(min model.Role) []string {
	var out []string
	for _, b := range Staff() {
		if b.Role.AtLeast(min) {
			out = append(out, b.Email)
		}
	}
	return out
}

// CheckGuarded sends every route through c, a server of the real admin
// handler with the Staff bindings, in a subtest named after the route: it
// must answer 401 S2R-ADM-0401 without identity and 403 S2R-ADM-0403 to
// every identity below its role (DESIGN 6.3).
func CheckGuarded(t *testing.T, c *Client, routes []adminapi.Route, g Guard) {
	t.Helper()
	if len(routes) == 0 {
		t.Fatal("no routes")
	}
	fill := g.Path
	if fill == nil {
		fill = FillUUID
	}
	ct := g.ContentType
	if ct == "" {
		ct = "application/json"
	}
	var body []byte
	if g.Body != "" {
		body = []byte(g.Body)
	} else {
		ct = ""
	}
	for _, rt := range routes {
		t.Run(rt.Method+" "+rt.Path, func(t *testing.T) {
			path := adminapi.Prefix + fill(rt.Path)
			c.Send(rt.Method, path, "", ct, body).WantError(t, http.StatusUnauthorized, apierr.AdmUnauthenticated)
			for _, email := range Below(rt.Role) {
				c.Send(rt.Method, path, email, ct, body).WantError(t, http.StatusForbidden, apierr.AdmForbidden)
			}
			if !g.Admitted {
				return
			}
			for _, email := range atOrAbove(rt.Role) {
				if r := c.Send(rt.Method, path, email, ct, body); r.Status == http.StatusUnauthorized || r.Status == http.StatusForbidden {
					t.Errorf("%s refused: %d %s", email, r.Status, r.Body)
				}
			}
		})
	}
}

// CheckDocumented fetches the admin OpenAPI document through c as
// ReaderEmail, checks it is valid and gives every route an operation with
// a summary and a 403 answer, and returns it.
func CheckDocumented(t *testing.T, c *Client, routes []adminapi.Route) *openapi3.T {
	t.Helper()
	body := c.Do("GET", adminapi.Prefix+"/openapi.json", ReaderEmail, "").WantStatus(t, http.StatusOK).Body
	doc, err := openapi3.NewLoader().LoadFromData(body)
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("validate: %v", err)
	}
	for _, rt := range routes {
		item := doc.Paths.Value(rt.Path)
		if item == nil || item.GetOperation(rt.Method) == nil {
			t.Errorf("%s %s is not documented", rt.Method, rt.Path)
			continue
		}
		if op := item.GetOperation(rt.Method); op.Summary == "" || op.Responses.Status(http.StatusForbidden) == nil {
			t.Errorf("%s %s: summary %q, responses %v", rt.Method, rt.Path, op.Summary, op.Responses.Map())
		}
	}
	return doc
}
