package security

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// bodyClass says what a non-admin entry point reads from its body and so
// which attack classes apply to it.
type bodyClass int

const (
	noBody      bodyClass = iota // probes, metrics, static files
	jsonBody                     // publish requests, ingest batches
	xmlBody                      // consume envelopes, async callbacks
	passthrough                  // gateway: bytes forwarded unparsed (SPEC 4.3)
)

// entryPoint is one runtime, ingest or operations path. Admin routes are
// not listed here: the suite takes them from the served OpenAPI document.
type entryPoint struct {
	name    string
	pattern *regexp.Regexp // matches the path literals in the source that belong to it
	body    bodyClass
	method  string // the method that carries a body ("" for noBody)
	// probe is a concrete path to detect whether a server serves it.
	probe string
}

// entryPoints classifies every non-admin path s2r serves. A path literal
// of a served surface found in the source (TestEveryEntryPointClassified)
// must match one of them, so a new endpoint is classified, and attacked,
// before it can land.
var entryPoints = []entryPoint{
	{name: "liveness", pattern: regexp.MustCompile(`^/health/live$`), probe: "/health/live"},
	{name: "readiness", pattern: regexp.MustCompile(`^/health/ready$`), probe: "/health/ready"},
	{name: "health surface", pattern: regexp.MustCompile(`^/health/?$`), probe: "/health/live"},
	{name: "metrics", pattern: regexp.MustCompile(`^/metrics$`), probe: "/metrics"},
	{name: "async callback", pattern: regexp.MustCompile(`^/_s2r/callback(/.*)?$`), body: xmlBody, method: "POST",
		probe: "/_s2r/callback/dev/sec-none/op"},
	{name: "ingest lb-events", pattern: regexp.MustCompile(`^/ingest/v1/lb-events$`), body: jsonBody, method: "POST",
		probe: "/ingest/v1/lb-events"},
	{name: "ingest generic-logs", pattern: regexp.MustCompile(`^/ingest/v1/generic-logs$`), body: jsonBody, method: "POST",
		probe: "/ingest/v1/generic-logs"},
	{name: "ingest heartbeat", pattern: regexp.MustCompile(`^/ingest/v1/heartbeat$`), method: "POST", probe: "/ingest/v1/heartbeat"},
	{name: "ingest surface", pattern: regexp.MustCompile(`^/ingest(/v1)?/?$`), probe: "/ingest/v1/"},
	{name: "console", pattern: regexp.MustCompile(`^/console(/.*)?$`), probe: "/console/"},
}

// surfaceLiteral matches the path literals of non-admin, non-direction
// surfaces: what the router dispatches on besides /admin/v1 and the
// /{direction}/ paths the dataplane parses.
var surfaceLiteral = regexp.MustCompile(`^/(health|metrics|ingest|_s2r|console)([/?].*)?$`)

// TestEveryEntryPointClassified scans every non-test Go file of the
// module for path literals of the served surfaces and fails on one that
// no entry point covers.
func TestEveryEntryPointClassified(t *testing.T) {
	found := map[string][]string{} // literal -> files
	root := repoRoot()
	for _, dir := range []string{"cmd", "internal"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "testdata" || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			for _, lit := range pathLiterals(t, path) {
				rel, _ := filepath.Rel(root, path)
				found[lit] = append(found[lit], rel)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(found) == 0 {
		t.Fatal("no surface path literal found: the scan is broken")
	}
	var lits []string
	for l := range found {
		lits = append(lits, l)
	}
	sort.Strings(lits)
	for _, l := range lits {
		if entryFor(l) == nil {
			t.Errorf("path %q (in %s) is served but not classified: add it to entryPoints in entrypoints_test.go "+
				"with its body class so the security suite attacks it", l, strings.Join(found[l], ", "))
		}
	}
}

// entryFor returns the entry point whose pattern matches literal.
func entryFor(literal string) *entryPoint {
	p, _, _ := strings.Cut(literal, "?")
	for i := range entryPoints {
		if entryPoints[i].pattern.MatchString(p) {
			return &entryPoints[i]
		}
	}
	return nil
}

// pathLiterals returns the string literals of one Go file that look like
// a path of a non-admin surface.
func pathLiterals(t *testing.T, path string) []string {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatalf("parse %s: %v", path, err)
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		s, err := strconv.Unquote(lit.Value)
		if err != nil {
			return true
		}
		// A Go 1.22 mux pattern: "POST /ingest/v1/x".
		if _, rest, ok := strings.Cut(s, " "); ok && strings.HasPrefix(rest, "/") && !strings.Contains(rest, " ") {
			s = rest
		}
		if surfaceLiteral.MatchString(s) && !strings.ContainsAny(s, " \n%") {
			out = append(out, s)
		}
		return true
	})
	return out
}

// served reports whether s serves e: its probe is not answered as an
// unknown path (the runtime's 400 S2R-RUN-0405 for a path without a
// direction, or a 404 "not available").
func (e entryPoint) served(t *testing.T, s *server) bool {
	t.Helper()
	method := e.method
	if method == "" {
		method = "GET"
	}
	r := s.send(t, request{method: method, path: e.probe, body: strings.NewReader("")})
	switch {
	case r.Status == 400 && errorCode(r) == "S2R-RUN-0405":
		return false
	case r.Status == 404 && strings.Contains(string(r.Body), "not available"):
		return false
	}
	return true
}

// hasRoutes reports whether s serves an admin route under prefix.
func hasRoutes(s *server, t *testing.T, prefix string) bool {
	for _, rt := range adminRoutes(t, s) {
		if strings.HasPrefix(rt.Path, prefix) {
			return true
		}
	}
	return false
}
