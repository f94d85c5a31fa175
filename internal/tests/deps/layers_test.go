package deps

import "testing"

// layers are the import rules between the layers off the hot path: a
// package (directory) and the module packages it may not depend on
// (subpackages included).
var layers = []struct {
	pkg       string
	forbidden []string
	why       string
}{
	{pkg: "internal/observe", forbidden: []string{"internal/dataplane"},
		why: "the recorder takes model.TxRecord; the data plane declares the interface it implements"},
}

func TestLayerImports(t *testing.T) {
	root := repoRoot(t)
	for _, l := range layers {
		t.Run(l.pkg, func(t *testing.T) {
			for _, dep := range listDeps(t, root, l.pkg) {
				for _, bad := range l.forbidden {
					if isOrUnder(dep, module+"/"+bad) {
						t.Errorf("%s depends on %s: %s", l.pkg, dep, l.why)
					}
				}
			}
		})
	}
}
