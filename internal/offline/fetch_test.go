package offline_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/offline"
	"github.com/s2r-project/s2r/internal/xsd"
)

// remoteTypes is the schema remote-import.wsdl refers to by URL.
const remoteTypes = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:remote" elementFormDefault="qualified">
<xs:element name="Ping"><xs:complexType><xs:sequence><xs:element name="text" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
</xs:schema>`

// TestRemoteReferences: a reference by URL is refused without a fetcher
// and read through it with one (s2r openapi --allow-fetch).
func TestRemoteReferences(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, remoteTypes)
	}))
	defer srv.Close()
	wsdl, err := os.ReadFile(filepath.Join("testdata", "remote-import.wsdl"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "remote.wsdl")
	wsdl = []byte(strings.ReplaceAll(string(wsdl), "http://127.0.0.1:9", srv.URL))
	if err := os.WriteFile(path, wsdl, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	f, err := offline.ReadFile(path, offline.Sources{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := offline.OpenAPI(ctx, f, offline.OpenAPIOptions{}); err == nil || !strings.Contains(offline.Describe(err), "cannot load") {
		t.Fatalf("without a fetcher: %v", err)
	}
	fetched := 0
	fetch := xsd.URLLoader{Fetch: func(ctx context.Context, u string) ([]byte, error) {
		fetched++
		res, err := srv.Client().Get(u)
		if err != nil {
			return nil, err
		}
		defer res.Body.Close()
		return io.ReadAll(res.Body)
	}}
	if f, err = offline.ReadFile(path, offline.Sources{Fetch: fetch}); err != nil {
		t.Fatal(err)
	}
	docs, err := offline.OpenAPI(ctx, f, offline.OpenAPIOptions{})
	if err != nil {
		t.Fatal(offline.Describe(err))
	}
	if fetched != 1 || !strings.Contains(string(docs[0].JSON), `"text"`) {
		t.Errorf("fetched %d times; document:\n%.600s", fetched, docs[0].JSON)
	}
}
