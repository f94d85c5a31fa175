// Package wsdlcorpus locates the shared real-world WSDL/XSD corpus for
// tests. The corpus is test data kept beside the checkout, at
// ../shared/wsdl-corpus from the repository root; tests that need it skip
// with a clear message where it is absent.
//
// The package is for tests only.
package wsdlcorpus

import (
	"os"
	"path/filepath"
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
