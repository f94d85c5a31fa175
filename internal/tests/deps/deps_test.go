// Package deps enforces the hot-path import boundary: the data plane and
// the converters it uses never import the database, the store, the admin
// surface or its access control (DESIGN 2, 3). A test, not a convention.
package deps

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const module = "github.com/s2r-project/s2r"

// hotPath are the packages on the request path of the runtime.
var hotPath = []string{
	"internal/dataplane",
	"internal/convert",
	"internal/xmlstream",
	"internal/soap",
	"internal/routing",
	"internal/upstream",
	"internal/transform",
	"internal/wssec",
	"internal/limit",
	"internal/tracing",
	"internal/engine",
}

// forbidden may not appear among a hot-path package's dependencies; module
// packages are forbidden with their subpackages. database/sql/driver (an
// interface package that google/uuid imports for its Valuer) is allowed.
var forbidden = []string{
	"database/sql",
	module + "/internal/store",
	module + "/internal/admin",
	module + "/internal/access",
	module + "/internal/observe",
}

func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above the test directory")
		}
		dir = parent
	}
}

// listDeps returns the packages pkg (a directory relative to root)
// depends on, itself included: `go list -deps`, tests excluded.
func listDeps(t *testing.T, root, pkg string) []string {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", "./"+pkg)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		stderr := ""
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("go list -deps ./%s: %v\n%s", pkg, err, stderr)
	}
	return strings.Fields(string(out))
}

// isOrUnder reports whether dep is bad or, for a module package, one of
// its subpackages.
func isOrUnder(dep, bad string) bool {
	return dep == bad || (strings.HasPrefix(bad, module) && strings.HasPrefix(dep, bad+"/"))
}

func TestHotPathImports(t *testing.T) {
	root := repoRoot(t)
	for _, pkg := range hotPath {
		t.Run(pkg, func(t *testing.T) {
			if _, err := os.Stat(filepath.Join(root, pkg)); err != nil {
				t.Skipf("%s does not exist yet", pkg)
			}
			for _, dep := range listDeps(t, root, pkg) {
				for _, bad := range forbidden {
					if isOrUnder(dep, bad) {
						t.Errorf("%s depends on %s (forbidden on the hot path)", pkg, dep)
					}
				}
			}
		})
	}
}

// TestForbiddenListIsChecked makes sure the check can fail: the store
// itself must show database/sql among its dependencies.
func TestForbiddenListIsChecked(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "./internal/store")
	cmd.Dir = repoRoot(t)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "database/sql\n") {
		t.Error("go list -deps ./internal/store does not list database/sql: the boundary check would be blind")
	}
}
