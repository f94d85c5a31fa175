// Package golden reads and checks golden test files: named sections
// started by lines "-- name --", the text before the first one being a
// comment. A test compares its output with the "want" section, and the
// -update flag rewrites that section instead. One loop over testdata/
// drives a whole table of cases this way.
//
// The package is for tests only.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the want sections of golden files")

// Updating reports whether -update was given.
func Updating() bool { return *update }

// File is a parsed golden file.
type File struct {
	Comment  string
	Names    []string // section names in file order
	Sections map[string]string
}

// Read parses the golden file at path, failing the test when it cannot be
// read.
func Read(t testing.TB, path string) *File {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return Parse(string(data))
}

// Run runs body as a subtest per golden file that matches pattern
// (filepath.Glob), named after the file less its extension, with the file
// parsed; it fails the test when no file matches.
func Run(t *testing.T, pattern string, body func(t *testing.T, path string, f *File)) {
	t.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)), func(t *testing.T) {
			body(t, path, Read(t, path))
		})
	}
}

// Seeds returns the section name of every golden file that matches
// pattern and has one, in file order, to seed a fuzz target: the text
// after the first "-- name --" line, up to the line break before the next
// line that starts with "-- " (or to the end of the file).
func Seeds(t testing.TB, pattern, name string) []string {
	t.Helper()
	files, _ := filepath.Glob(pattern)
	var out []string
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		_, after, ok := strings.Cut(string(data), "-- "+name+" --\n")
		if !ok {
			continue
		}
		in, _, _ := strings.Cut(after, "\n-- ")
		out = append(out, in)
	}
	return out
}

// Parse parses golden file text.
func Parse(text string) *File {
	f := &File{Sections: map[string]string{}}
	cur := ""
	var b strings.Builder
	flush := func() {
		if cur == "" {
			f.Comment = b.String()
		} else {
			f.Sections[cur] = b.String()
		}
		b.Reset()
	}
	for _, line := range strings.SplitAfter(text, "\n") {
		trim := strings.TrimRight(line, "\r\n")
		if strings.HasPrefix(trim, "-- ") && strings.HasSuffix(trim, " --") && len(trim) > 6 {
			flush()
			cur = trim[3 : len(trim)-3]
			f.Names = append(f.Names, cur)
			continue
		}
		b.WriteString(line)
	}
	flush()
	return f
}

// Get returns a section, failing the test when it is missing.
func (f *File) Get(t testing.TB, name string) string {
	t.Helper()
	s, ok := f.Sections[name]
	if !ok {
		t.Fatalf("missing section %q", name)
	}
	return s
}

// Check compares got with the want section, or rewrites the file at path
// with got as its want section under -update.
func (f *File) Check(t testing.TB, path, got string) {
	t.Helper()
	if !strings.HasSuffix(got, "\n") {
		got += "\n"
	}
	if *update {
		if _, ok := f.Sections["want"]; !ok {
			f.Names = append(f.Names, "want")
		}
		f.Sections["want"] = got
		if err := os.WriteFile(path, []byte(f.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if diff := cmp.Diff(f.Sections["want"], got); diff != "" {
		t.Errorf("%s: mismatch (-want +got):\n%s", path, diff)
	}
}

// String renders the file back to text.
func (f *File) String() string {
	var b strings.Builder
	b.WriteString(f.Comment)
	for _, n := range f.Names {
		b.WriteString("-- " + n + " --\n")
		b.WriteString(f.Sections[n])
	}
	return b.String()
}
