// Package filetree reads a folder of test data into the file sets that the
// loaders take (wsdl.ParseFiles, xsd.FileSet): every file below a root,
// keyed by its slash-separated path relative to that root.
//
// The package is for tests only.
package filetree

import (
	"os"
	"path/filepath"
	"testing"
)

// Read returns every file below root keyed by its slash-separated path
// relative to root; it fails t when root cannot be read.
func Read(t testing.TB, root string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		files[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
