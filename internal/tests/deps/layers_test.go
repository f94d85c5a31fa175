package deps

import (
	"strings"
	"testing"
)

// layers are the import rules between the layers off the hot path
// (docs/architecture.md, "Dependency rules"): a package (directory) and
// the packages it may not depend on. A forbidden module package is
// forbidden with its subpackages unless it ends in "!", which forbids
// that package alone (an area under internal/admin may import a sibling,
// never the package that assembles them).
var layers = []struct {
	pkg       string
	forbidden []string
	why       string
}{
	{pkg: "internal/observe", forbidden: []string{"internal/dataplane"},
		why: "the recorder takes model.TxRecord; the data plane declares the interface it implements"},
	{pkg: "internal/model", forbidden: []string{"database/sql", "internal/store", "internal/adminapi", "internal/admin",
		"internal/dataplane", "internal/routing", "internal/observe", "internal/upstream", "internal/server"},
		why: "domain types are imported by every layer and import none of them"},
	{pkg: "internal/store", forbidden: []string{"internal/adminapi", "internal/admin", "internal/dataplane",
		"internal/routing", "internal/observe", "internal/discovery", "internal/upstream", "internal/server"},
		why: "the store speaks SQL over model types; the layers above call it, never the reverse"},
	{pkg: "internal/adminapi", forbidden: []string{"internal/admin"},
		why: "adminapi is what every admin area shares; it cannot depend on the areas"},
	{pkg: "internal/admin/backends", forbidden: []string{"internal/admin!", "internal/admin/onboarding"},
		why: "an admin area hands its routes to internal/admin; it never imports the assembler or another area"},
	{pkg: "internal/admin/onboarding", forbidden: []string{"internal/admin!", "internal/admin/backends"},
		why: "an admin area hands its routes to internal/admin; it never imports the assembler or another area"},
	{pkg: "internal/admin/bundle", forbidden: []string{"internal/admin!", "internal/admin/policies"},
		why: "bundle writes every resource through the other areas' exported checks (onboarding, backends), " +
			"but never through the assembler; policies are small enough to apply directly"},
	{pkg: "internal/offline", forbidden: []string{"internal/admin!", "internal/dataplane", "internal/server", "internal/routing"},
		why: "the offline CLI runs the control plane's own code on files, with no server and no runtime"},
	{pkg: "internal/admin/policies", forbidden: []string{"internal/admin!", "internal/admin/backends", "internal/admin/onboarding"},
		why: "an admin area hands its routes to internal/admin; it never imports the assembler or another area"},
	{pkg: "internal/admin/drafts", forbidden: []string{"internal/admin!", "internal/admin/backends", "internal/admin/onboarding"},
		why: "drafts is below both areas that write drafts"},
	{pkg: "internal/async", forbidden: []string{"internal/admin!"},
		why: "areas in their own packages hand adminapi.Routes to admin.Config.Routes"},
	{pkg: "internal/discovery", forbidden: []string{"internal/admin!", "internal/dataplane"},
		why: "areas in their own packages hand adminapi.Routes to admin.Config.Routes"},
	{pkg: "internal/notify", forbidden: []string{"internal/admin!", "internal/dataplane"},
		why: "areas in their own packages hand adminapi.Routes to admin.Config.Routes"},
	{pkg: "internal/observe/query", forbidden: []string{"internal/admin!", "internal/dataplane"},
		why: "areas in their own packages hand adminapi.Routes to admin.Config.Routes"},
	{pkg: "internal/catalog", forbidden: []string{"database/sql", "internal/store", "internal/adminapi", "internal/admin"},
		why: "the catalog's domain logic has no storage and no HTTP handlers"},
	{pkg: "internal/convert", forbidden: []string{"net/http", "database/sql"},
		why: "converters are pure functions over bytes and compiled contracts"},
	{pkg: "internal/wssec", forbidden: []string{"database/sql", "internal/store", "internal/dataplane", "internal/routing"},
		why: "WS-Security is a library over bytes; nonces are stored through the interface its caller provides"},
	{pkg: "internal/limit", forbidden: []string{"database/sql", "internal/store", "internal/dataplane"},
		why: "limiters are in-memory, per instance"},
	{pkg: "internal/tracing", forbidden: []string{"database/sql", "internal/store", "internal/dataplane"},
		why: "tracing is a library the data plane calls through a small interface"},
	{pkg: "internal/engine", forbidden: []string{"database/sql", "internal/store", "internal/dataplane", "internal/server", "internal/httpx"},
		why: "the HTTP engine serves any http.Handler; what s2r does with a request lives in the handlers"},
}

func TestLayerImports(t *testing.T) {
	root := repoRoot(t)
	for _, l := range layers {
		t.Run(l.pkg, func(t *testing.T) {
			for _, dep := range listDeps(t, root, l.pkg) {
				for _, bad := range l.forbidden {
					if forbids(bad, dep) {
						t.Errorf("%s depends on %s: %s", l.pkg, dep, l.why)
					}
				}
			}
		})
	}
}

// forbids reports whether rule (an entry of layers' forbidden) forbids dep.
func forbids(rule, dep string) bool {
	if !strings.HasPrefix(rule, "internal/") {
		return dep == rule
	}
	if exact, ok := strings.CutSuffix(rule, "!"); ok {
		return dep == module+"/"+exact
	}
	return isOrUnder(dep, module+"/"+rule)
}

func TestForbids(t *testing.T) {
	for _, c := range []struct {
		rule, dep string
		want      bool
	}{
		{"internal/admin", module + "/internal/admin/backends", true},
		{"internal/admin!", module + "/internal/admin/backends", false},
		{"internal/admin!", module + "/internal/admin", true},
		{"internal/store", module + "/internal/storefront", false},
		{"net/http", "net/http", true},
		{"net/http", "net/http/httptrace", false},
	} {
		if got := forbids(c.rule, c.dep); got != c.want {
			t.Errorf("forbids(%q, %q) = %v, want %v", c.rule, c.dep, got, c.want)
		}
	}
}
