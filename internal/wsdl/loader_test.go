package wsdl

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/s2r-project/s2r/internal/xmlstream"
	"github.com/s2r-project/s2r/internal/xsd"
)

// fetchHTTP is a plain fetcher standing in for the guarded one.
func fetchHTTP(ctx context.Context, url string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	return io.ReadAll(resp.Body)
}

// TestParseFromURL imports a WSDL served over HTTP whose XSDs are
// imported and included by relative paths, resolved against the URL.
func TestParseFromURL(t *testing.T) {
	srv := httptest.NewServer(http.FileServer(http.Dir(filepath.Join("testdata", "unit"))))
	defer srv.Close()
	loader := xsd.URLLoader{Fetch: fetchHTTP}
	defs, err := Parse(t.Context(), loader, srv.URL+"/calc.wsdl", xmlstream.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if got := len(defs.Operations()); got != 4 {
		t.Errorf("%d operations, want 4", got)
	}
	want := []string{srv.URL + "/calc.wsdl"}
	if defs.Documents[0] != want[0] {
		t.Errorf("documents %v", defs.Documents)
	}

	_, err = Parse(t.Context(), loader, srv.URL+"/missing.wsdl", xmlstream.Limits{})
	wantErr := srv.URL + "/missing.wsdl: cannot load document: fetch " + srv.URL + "/missing.wsdl: HTTP 404"
	if err == nil || err.Error() != wantErr {
		t.Errorf("error %v, want %s", err, wantErr)
	}
}

// TestDirLoader reads files under a root and refuses to leave it.
func TestDirLoader(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a", "x.xsd"), []byte("<x/>"), 0o644); err != nil {
		t.Fatal(err)
	}
	l := xsd.DirLoader{Root: dir}
	data, resolved, err := l.Load(t.Context(), "a/../a/x.xsd")
	if err != nil || string(data) != "<x/>" || resolved != "a/x.xsd" {
		t.Errorf("Load = %q, %q, %v", data, resolved, err)
	}
	for _, loc := range []string{"../x.xsd", "/etc/passwd", "a/missing.xsd"} {
		if _, _, err := l.Load(t.Context(), loc); err == nil {
			t.Errorf("Load(%q) succeeded", loc)
		}
	}
}

// TestParseFollowsRedirects resolves relative imports against the URL a
// redirect led to, when the fetcher reports it.
func TestParseFollowsRedirects(t *testing.T) {
	mux := http.NewServeMux()
	mux.Handle("/v2/", http.StripPrefix("/v2", http.FileServer(http.Dir(filepath.Join("testdata", "unit")))))
	mux.Handle("/calc.wsdl", http.RedirectHandler("/v2/calc.wsdl", http.StatusFound))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	loader := xsd.URLLoader{FetchFinal: func(ctx context.Context, url string) ([]byte, string, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return nil, "", err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return nil, "", err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return nil, "", fmt.Errorf("HTTP %d", resp.StatusCode)
		}
		data, err := io.ReadAll(resp.Body)
		return data, resp.Request.URL.String(), err
	}}
	defs, err := Parse(t.Context(), loader, srv.URL+"/calc.wsdl", xmlstream.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := defs.Documents[0], srv.URL+"/v2/calc.wsdl"; got != want {
		t.Errorf("root document %q, want %q", got, want)
	}
}
