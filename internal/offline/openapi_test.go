package offline_test

import (
	"context"
	"fmt"
	"github.com/s2r-project/s2r/internal/zipset"
	"os"
	"path/filepath"
	"testing"

	"github.com/s2r-project/s2r/internal/offline"
	"github.com/s2r-project/s2r/internal/wsdlcorpus"
)

// TestOpenAPIMatchesServer onboards every corpus WSDL through the admin
// API's autopilot (with the files of its folder, as the offline command
// reads them) and compares each created service's OpenAPI document with
// the one the offline command prints for the same file and keys.
func TestOpenAPIMatchesServer(t *testing.T) {
	wsdls := wsdlcorpus.WSDLs(t)
	srv := newServer(t)
	compared := 0
	for i, rel := range wsdls {
		env := fmt.Sprintf("corpus-%d", i)
		body := map[string]any{"xml": string(wsdlcorpus.Read(t, rel)), "files": wsdlcorpus.Siblings(t, rel), "environment": env}
		res, imported := srv.autopilot(body)
		f, err := offline.ReadFile(wsdlcorpus.Path(t, rel), offline.Sources{})
		if err != nil {
			t.Fatal(err)
		}
		docs, err := offline.OpenAPI(context.Background(), f, offline.OpenAPIOptions{Environment: env})
		if !imported {
			if err == nil {
				t.Logf("%s: the server refused the import; offline read more of its folder and generated", rel)
			}
			continue
		}
		t.Run(rel, func(t *testing.T) {
			if err != nil {
				t.Fatalf("the server imported it; offline: %s", offline.Describe(err))
			}
			if len(docs) != len(res.Services) {
				t.Fatalf("offline: %d documents, server: %d services", len(docs), len(res.Services))
			}
			for i, d := range docs {
				if d.ServiceKey != res.Services[i].Service.ServiceKey {
					t.Errorf("service %d: key %s, server %s", i, d.ServiceKey, res.Services[i].Service.ServiceKey)
				}
				sameDocument(t, d.JSON, srv.document(t, res, i))
			}
		})
		compared++
	}
	t.Logf("%d of %d corpus WSDLs compared", compared, len(wsdls))
	if compared < 10 {
		t.Errorf("only %d corpus WSDLs compared", compared)
	}
}

// TestOpenAPIZipAndKeys uploads a ZIP of a corpus folder (the root chosen
// by the server) with a direction, environment, service key and public
// base URL, and compares the offline document of the same ZIP and keys.
func TestOpenAPIZipAndKeys(t *testing.T) {
	dir := filepath.Dir(wsdlcorpus.Path(t, "vpulim+node-soap/test/wsdl/complex/registration.wsdl"))
	files := map[string][]byte{}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		name := e.Name()
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		files["contract/"+name] = b
	}
	zip, err := zipset.Write(files)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "registration.zip")
	if err := os.WriteFile(path, zip, 0o600); err != nil {
		t.Fatal(err)
	}
	srv := newServer(t)
	res := srv.upload("registration.zip", zip, map[string]string{"environment": "staging", "serviceKey": "reg", "direction": "consume"})
	f, err := offline.ReadFile(path, offline.Sources{})
	if err != nil {
		t.Fatal(err)
	}
	docs, err := offline.OpenAPI(context.Background(), f, offline.OpenAPIOptions{Environment: "staging", ServiceKey: "reg", Direction: "consume"})
	if err != nil {
		t.Fatal(offline.Describe(err))
	}
	if len(docs) != len(res.Services) || docs[0].ServiceKey != "reg" {
		t.Fatalf("offline: %d documents (first %s), server: %d services", len(docs), docs[0].ServiceKey, len(res.Services))
	}
	for i, d := range docs {
		sameDocument(t, d.JSON, srv.document(t, res, i))
	}
}
