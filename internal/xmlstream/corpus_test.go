package xmlstream

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// corpusDir finds ../shared/wsdl-corpus relative to the repository root.
func corpusDir(t *testing.T) string {
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
			t.Skip("go.mod not found")
		}
		dir = parent
	}
	corpus := filepath.Join(dir, "..", "shared", "wsdl-corpus")
	if _, err := os.Stat(corpus); err != nil {
		t.Skipf("real-world WSDL corpus not present at %s", corpus)
	}
	return corpus
}

// TestCorpus reads every real-world WSDL and XSD file and compares the
// result with encoding/xml the same way FuzzReaderDifferential does.
func TestCorpus(t *testing.T) {
	root := corpusDir(t)
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".wsdl") && !strings.HasSuffix(path, ".xsd") {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		t.Run(rel, func(t *testing.T) {
			doc, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			got, gotErr := readerEvents(doc)
			want, wantErr := refEvents(doc)
			switch {
			case gotErr != nil && wantErr != nil:
				t.Logf("both refuse: %v / %v", gotErr, wantErr)
			case gotErr != nil:
				t.Fatalf("Reader refuses (%v), encoding/xml accepts", gotErr)
			case wantErr != nil:
				t.Fatalf("encoding/xml refuses (%v), Reader accepts", wantErr)
			default:
				if len(got) != len(want) {
					t.Fatalf("%d events, encoding/xml %d", len(got), len(want))
				}
				for i := range got {
					if got[i] != want[i] {
						t.Fatalf("event %d: %s\nencoding/xml: %s", i, got[i], want[i])
					}
				}
			}
			if _, err := Parse(doc, Limits{}); err != nil && gotErr == nil {
				t.Fatalf("Parse: %v", err)
			}
			// Some real WSDLs use prefixes they never declare; namespace
			// repair mode reads them all.
			if _, err := Parse(doc, Limits{AllowUndeclaredPrefixes: true}); err != nil {
				t.Fatalf("Parse with undeclared prefixes allowed: %v", err)
			}
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
