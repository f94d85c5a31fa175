package fetch

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGetCorpus serves the real WSDL corpus from a local file server and
// fetches every WSDL and XSD through the guarded fetcher.
func TestGetCorpus(t *testing.T) {
	root := corpusDir(t)
	srv := httptest.NewServer(http.FileServer(http.Dir(root)))
	defer srv.Close()
	f := New(Policy{AllowedCIDRs: allowLoopback})
	defer f.CloseIdleConnections()
	n := 0
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if ext := strings.ToLower(filepath.Ext(p)); ext != ".wsdl" && ext != ".xsd" {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		want, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		u := srv.URL + "/" + escapePath(rel)
		res, err := f.Get(context.Background(), u)
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			return nil
		}
		if !bytes.Equal(res.Body, want) {
			t.Errorf("%s: body differs (%d bytes, want %d)", rel, len(res.Body), len(want))
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Skip("corpus holds no .wsdl or .xsd files")
	}
}

// escapePath escapes each segment of a relative file path for a URL.
func escapePath(rel string) string {
	parts := strings.Split(filepath.ToSlash(rel), "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}

// corpusDir finds ../shared/wsdl-corpus relative to the module root.
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
			t.Skip("module root not found")
		}
		dir = parent
	}
	corpus := filepath.Join(dir, "..", "shared", "wsdl-corpus")
	if _, err := os.Stat(corpus); err != nil {
		t.Skipf("WSDL corpus not present at %s: %v", corpus, err)
	}
	return corpus
}
