package admin

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/catalog"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/openapi"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
	"github.com/s2r-project/s2r/internal/wsdlcorpus"
)

func hexSHA(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// checkOpenAPIAnswer checks the checksum header and validates the
// document with kin-openapi; it returns the document.
func checkOpenAPIAnswer(t *testing.T, r response, source string) *openapi3.T {
	t.Helper()
	r.WantStatus(t, http.StatusOK)
	if got := r.Header.Get(openAPIHeader); got != hexSHA(r.Body) {
		t.Errorf("%s = %s, body sha %s", openAPIHeader, got, hexSHA(r.Body))
	}
	if got := r.Header.Get("X-S2R-OpenAPI-Source"); got != source {
		t.Errorf("source = %s, want %s", got, source)
	}
	doc, err := openapi3.NewLoader().LoadFromData(r.Body)
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("validate: %v", err)
	}
	return doc
}

// checkPackage verifies the package's checksums and returns its files.
func checkPackage(t *testing.T, r response, doc []byte) map[string][]byte {
	t.Helper()
	r.WantStatus(t, http.StatusOK)
	if ct := r.Header.Get("Content-Type"); ct != "application/zip" {
		t.Errorf("content type %s", ct)
	}
	files := unzipForTest(t, r.Body)
	if len(files) != 3 || string(files[openapi.FileOpenAPI]) != string(doc) {
		t.Fatalf("package files: %d, openapi.json equal: %v", len(files), string(files[openapi.FileOpenAPI]) == string(doc))
	}
	var sums struct {
		Files map[string]string `json:"files"`
	}
	if err := json.Unmarshal(files[openapi.FileChecksums], &sums); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{openapi.FileOpenAPI, openapi.FileMetadata} {
		if sums.Files[name] != hexSHA(files[name]) {
			t.Errorf("%s: checksum %s, sha %s", name, sums.Files[name], hexSHA(files[name]))
		}
	}
	return files
}

// TestOpenAPIEndToEnd does what a new user does: autopilot-imports
// countryInformation.wsdl, activates the draft, generates the OpenAPI
// document, fetches it and its package and checks the checksums.
func TestOpenAPIEndToEnd(t *testing.T) {
	wsdlText := string(wsdlcorpus.Read(t, countryInfoWSDL))
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		api.srv.public = "https://gw.example.com"
		r := api.Do("POST", Prefix+"/wsdl/import-xml:autopilot", operatorEmail,
			xmlBody(t, wsdlText, nil, map[string]any{"environment": "dev"}))
		res := wantDraft(t, r, "country-info-service", "dev", 21)
		if res.PublishReadiness == nil || res.PublishReadiness.Status != catalog.ReadyToPublish {
			t.Fatalf("readiness %+v", res.PublishReadiness)
		}
		base := Prefix + "/services/" + res.Service.ServiceID + "/versions/" + res.Version.VersionID
		api.Do("POST", base+":activate", operatorEmail, "").WantStatus(t, http.StatusOK)

		fresh := api.Do("GET", base+"/openapi", readerEmail, "")
		doc := checkOpenAPIAnswer(t, fresh, "generated")
		if n := len(doc.Paths.Map()); n != 21 {
			t.Errorf("paths = %d, want 21", n)
		}
		if u := doc.Servers[0].URL; u != "https://gw.example.com/publish/dev/country-info-service" {
			t.Errorf("server URL %s", u)
		}
		add := doc.Paths.Find("/list-of-continents-by-name")
		if add == nil || add.Post == nil || add.Post.Extensions["x-s2r-soap-operation"] != "ListOfContinentsByName" {
			t.Fatalf("operation list-of-continents-by-name: %+v", add)
		}
		for _, st := range []string{"200", "400", "404", "413", "502", "503", "504"} {
			if add.Post.Responses.Value(st) == nil {
				t.Errorf("no %s response", st)
			}
		}

		api.Do("POST", base+":generate-openapi", operatorEmail, "").WantError(t, http.StatusForbidden, apierr.AdmForbidden)
		rev := api.revision()
		var gen model.OpenAPIDocument
		g := api.Do("POST", base+":generate-openapi", adminEmail, "").WantStatus(t, http.StatusOK)
		g.Decode(t, &gen)
		if gen.SHA256 == "" || gen.SHA256 != g.Header.Get(openAPIHeader) || gen.GeneratedBy != adminEmail || api.revision() != rev+1 {
			t.Errorf("generate answer %+v", gen)
		}
		api.lastAudit("openapi.generate", res.Version.VersionID)
		stored := api.Do("GET", base+"/openapi", readerEmail, "")
		checkOpenAPIAnswer(t, stored, "stored")
		if hexSHA(stored.Body) != gen.SHA256 || string(stored.Body) != string(fresh.Body) {
			t.Errorf("stored document differs from the generated one")
		}

		files := checkPackage(t, api.Do("GET", base+"/openapi/package", readerEmail, ""), stored.Body)
		var meta openapi.Metadata
		if err := json.Unmarshal(files[openapi.FileMetadata], &meta); err != nil {
			t.Fatal(err)
		}
		if len(meta.Operations) != 21 || meta.OpenAPISHA256 != gen.SHA256 || meta.VersionStatus != model.VersionActive ||
			meta.Operations[0].MappingVersion != 1 || meta.Operations[0].PublishPath == "" {
			t.Errorf("metadata %+v", meta)
		}

		api.Do("GET", Prefix+"/services/"+res.Service.ServiceID+"/versions/nope/openapi", readerEmail, "").WantError(
			t, http.StatusNotFound, apierr.AdmNotFound)

		api.Do("POST", Prefix+"/services/nope/versions/"+res.Version.VersionID+":generate-openapi", adminEmail, "").WantError(
			t, http.StatusNotFound, apierr.AdmNotFound)

	})
}

// TestOpenAPIZIPImport does the same with a ZIP holding a WSDL and the
// XSDs it imports.
func TestOpenAPIZIPImport(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		z := zipOfCorpusDir(t, nsTypeConflictDir, "")
		r := api.upload(Prefix+"/wsdl/import:autopilot", formPart{"file", "bundle.zip", z},
			formPart{name: "environment", data: []byte("dev")}, formPart{name: "serviceKey", data: []byte("conflict")})
		res := wantDraft(t, r, "conflict", "dev", 1)
		base := Prefix + "/services/" + res.Service.ServiceID + "/versions/" + res.Version.VersionID
		if res.PublishReadiness.Status != catalog.Blocked {
			api.Do("POST", base+":activate", operatorEmail, "").WantStatus(t, http.StatusOK)
		}
		api.Do("POST", base+":generate-openapi", adminEmail, "").WantStatus(t, http.StatusOK)
		stored := api.Do("GET", base+"/openapi", readerEmail, "")
		checkOpenAPIAnswer(t, stored, "stored")
		checkPackage(t, api.Do("GET", base+"/openapi/package", readerEmail, ""), stored.Body)
	})
}
