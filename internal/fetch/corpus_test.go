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

	"github.com/s2r-project/s2r/internal/wsdlcorpus"
)

// TestGetCorpus serves the real WSDL corpus from a local file server and
// fetches every WSDL and XSD through the guarded fetcher.
func TestGetCorpus(t *testing.T) {
	root := wsdlcorpus.Dir(t)
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
