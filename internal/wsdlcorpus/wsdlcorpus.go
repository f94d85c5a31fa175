// Package wsdlcorpus locates the shared real-world WSDL/XSD corpus for
// tests. The corpus is test data kept beside the checkout, at
// ../shared/wsdl-corpus from the repository root; tests that need it skip
// with a clear message where it is absent.
//
// The package is for tests only.
package wsdlcorpus

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// Dir returns the corpus directory, or skips t when it is not present.
func Dir(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("repository root (go.mod) not found: skipping corpus test")
		}
		dir = parent
	}
	c := filepath.Join(dir, "..", "shared", "wsdl-corpus")
	if _, err := os.Stat(c); err != nil {
		t.Skipf("WSDL corpus not found at %s: skipping corpus test", c)
	}
	return c
}

// Path returns the path of rel (slash-separated, relative to the corpus
// directory), or skips t when the corpus or the file is not present.
func Path(t testing.TB, rel string) string {
	t.Helper()
	p := filepath.Join(Dir(t), filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		t.Skipf("corpus file %s not found: skipping", rel)
	}
	return p
}

// Read returns the contents of rel, or skips t when it is not present.
func Read(t testing.TB, rel string) []byte {
	t.Helper()
	data, err := os.ReadFile(Path(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// WSDLs lists every .wsdl of the corpus (see Files).
func WSDLs(t testing.TB) []string {
	t.Helper()
	return Files(t, ".wsdl")
}

// Files lists every file of the corpus whose name ends in one of exts
// (".wsdl", ".xsd"), by its slash-separated path under the corpus
// directory, sorted; it skips t when the corpus is absent.
func Files(t testing.TB, exts ...string) []string {
	t.Helper()
	dir := Dir(t)
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !slices.ContainsFunc(exts, func(ext string) bool { return strings.HasSuffix(p, ext) }) {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// Project returns the folder of rel's project (the corpus's first-level
// folder, which the relative imports of its documents stay in) and rel's
// path inside it: what a loader rooted at the project needs.
func Project(t testing.TB, rel string) (dir, name string) {
	t.Helper()
	project, name, _ := strings.Cut(rel, "/")
	return filepath.Join(Dir(t), project), name
}

// Siblings returns the other files of the folder of the corpus WSDL rel,
// by the relative name the corpus WSDLs use for them: the files an import
// sends beside the root. A sibling named root.wsdl is left out unless rel
// is one (it collides with the name the autopilot gives the root).
func Siblings(t testing.TB, rel string) map[string]string {
	t.Helper()
	folder := filepath.Dir(Path(t, rel))
	ents, err := os.ReadDir(folder)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, e := range ents {
		if e.IsDir() || e.Name() == path.Base(rel) || (e.Name() == "root.wsdl" && path.Base(rel) != "root.wsdl") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(folder, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = string(b)
	}
	return files
}
