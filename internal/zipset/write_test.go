package zipset

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/s2r-project/s2r/internal/wsdlcorpus"
)

func TestWriteRoundTripAndDeterminism(t *testing.T) {
	files := map[string][]byte{
		"repaired.wsdl":       []byte("<definitions/>"),
		"types/common.xsd":    []byte(strings.Repeat("<x/>", 100)),
		"types/b/nested.xsd":  []byte("<schema/>"),
		"z-last.xsd":          {},
		"a-first/ünïcode.xsd": []byte("<schema/>"),
	}
	first, err := Write(files)
	if err != nil {
		t.Fatal(err)
	}
	for range 5 { // map iteration order differs between runs
		again, err := Write(files)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(first, again) {
			t.Fatal("Write is not deterministic")
		}
	}
	got, err := Read(first, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(files, got); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	zr, err := zip.NewReader(bytes.NewReader(first), int64(len(first)))
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, f := range zr.File {
		order = append(order, f.Name)
		if !f.Modified.Equal(fixedTime) || f.Mode().Perm() != 0o644 || f.Method != zip.Deflate {
			t.Errorf("%s: modified %v mode %v method %d", f.Name, f.Modified, f.Mode(), f.Method)
		}
	}
	want := []string{"a-first/ünïcode.xsd", "repaired.wsdl", "types/b/nested.xsd", "types/common.xsd", "z-last.xsd"}
	if diff := cmp.Diff(want, order); diff != "" {
		t.Errorf("entry order (-want +got):\n%s", diff)
	}
}

func TestWriteRejectsUncleanNames(t *testing.T) {
	tests := map[string]string{
		"../x.xsd": `zip entry "../x.xsd": path escapes the archive with ".."`,
		"/abs.xsd": `zip entry "/abs.xsd": absolute path`,
		"a//b.xsd": `zip entry "a//b.xsd": not a clean relative path`,
		`a\b.xsd`:  `zip entry "a\\b.xsd": not a clean relative path`,
		"dir/":     `zip entry "dir/": not a clean relative path`,
		"./a.xsd":  `zip entry "./a.xsd": not a clean relative path`,
		"":         `zip entry "": empty name`,
	}
	for name, want := range tests {
		_, err := Write(map[string][]byte{name: nil, "ok.xsd": nil})
		if err == nil || err.Error() != want {
			t.Errorf("Write(%q) error = %v, want %s", name, err, want)
		}
	}
}

// TestCorpusArchive zips every file of one multi-file corpus service and
// reads it back, so real WSDL/XSD names and sizes go through both paths.
func TestCorpusArchive(t *testing.T) {
	root := wsdlcorpus.Dir(t)
	files := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || len(files) >= 200 {
			return err
		}
		if ext := strings.ToLower(filepath.Ext(p)); ext != ".wsdl" && ext != ".xsd" {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		b, err := os.ReadFile(p)
		files[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Skip("corpus holds no .wsdl or .xsd files")
	}
	data, err := Write(files)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Read(data, Limits{MaxFiles: 200, MaxTotalBytes: 1 << 30, MaxFileBytes: 1 << 28})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(files) {
		t.Errorf("read %d files, wrote %d", len(got), len(files))
	}
	for name, b := range files {
		if !bytes.Equal(got[name], b) {
			t.Errorf("%s differs after the round trip", name)
		}
	}
}
