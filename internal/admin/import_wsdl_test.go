package admin

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/contracts"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
	"github.com/s2r-project/s2r/internal/wsdlcorpus"
)

// xmlBody encodes an import-xml body.
func xmlBody(t testing.TB, xml string, files map[string]string, extra map[string]any) string {
	t.Helper()
	body := map[string]any{"xml": xml}
	if files != nil {
		body["files"] = files
	}
	for k, v := range extra {
		body[k] = v
	}
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestImportCountryInfoEveryWay(t *testing.T) {
	wsdlText := wsdlcorpus.Read(t, countryInfoWSDL)
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		var views []artifactView
		for _, tc := range []struct {
			name string
			do   func() response
		}{
			{"xml", func() response {
				return api.Do("POST", "/admin/v1/wsdl/import-xml", operatorEmail, xmlBody(t, string(wsdlText), nil, nil))
			}},
			{"upload", func() response {
				return api.upload("/admin/v1/wsdl/import", formPart{"file", "countryInformation.wsdl", wsdlText})
			}},
			{"zip", func() response {
				z := zipOf(t, map[string][]byte{"country/countryInformation.wsdl": wsdlText})
				return api.upload("/admin/v1/wsdl/import", formPart{"file", "country.bin", z}) // detected by magic bytes
			}},
		} {
			r := tc.do()
			r.WantStatus(t, http.StatusCreated)
			var v artifactView
			r.Decode(t, &v)
			if v.OperationCount != 42 || len(v.Services) != 1 || len(v.Services[0].Ports) != 2 {
				t.Fatalf("%s: operations %d, services %+v", tc.name, v.OperationCount, v.Services)
			}
			op := v.Services[0].Ports[0].Operations[0]
			if op.Name != "ListOfContinentsByName" || op.Style != "document" || op.Use != "literal" || op.SOAPVersion != "1.1" ||
				op.InputElement != "{http://www.oorsprong.org/websamples.countryinfo}ListOfContinentsByName" {
				t.Errorf("%s: first operation %+v", tc.name, op)
			}
			if got := r.Header.Get("Location"); got != "/admin/v1/wsdl/import/"+v.ArtifactID {
				t.Errorf("%s: Location %q", tc.name, got)
			}
			views = append(views, v)
		}
		if views[0].SourceKind != model.ArtifactXML || views[1].SourceKind != model.ArtifactUpload || views[2].SourceKind != model.ArtifactZIP {
			t.Errorf("source kinds %s %s %s", views[0].SourceKind, views[1].SourceKind, views[2].SourceKind)
		}
		if views[2].RootPath != "country/countryInformation.wsdl" {
			t.Errorf("zip root %q", views[2].RootPath)
		}

		r := api.Do("GET", "/admin/v1/wsdl/import/"+views[1].ArtifactID+"?includeFiles=true", readerEmail, "")
		r.WantStatus(t, http.StatusOK)
		var got artifactView
		r.Decode(t, &got)
		if got.ContentSHA256 != views[1].ContentSHA256 || len(got.Files) != 1 || got.Files[0].Content != string(wsdlText) || !got.Files[0].Root {
			t.Errorf("GET artifact: sha %s files %d", got.ContentSHA256, len(got.Files))
		}
		defs, err := api.srv.contracts.Definitions(context.Background(), views[1].ArtifactID)
		if err != nil || len(defs.Operations()) != 42 {
			t.Errorf("contract cache: %v", err)
		}

		r = api.Do("GET", "/admin/v1/wsdl/import/0190a000-0000-7000-8000-00000000dead", readerEmail, "")
		r.WantStatus(t, http.StatusNotFound)
		if c := r.ErrorOf(t).Error.Code; c != apierr.AdmNotFound {
			t.Errorf("missing artifact code %s", c)
		}
	})
}

func TestImportZIPWithImportsAndIncludes(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		for _, tc := range []struct {
			dir, root string
			files     int
		}{
			{wsdlImportDir, "pkg/main.wsdl", 4},
			{nsTypeConflictDir, "pkg/main.wsdl", 3}, // xs:import of two XSDs
		} {
			// wsdlImport holds three WSDLs at its top level: the root is named.
			z := zipOfCorpusDir(t, tc.dir, "pkg/")
			parts := []formPart{{"file", "bundle.zip", z}}
			if tc.dir == wsdlImportDir {
				parts = append(parts, formPart{name: "rootPath", data: []byte("pkg/main.wsdl")})
			}
			r := api.upload("/admin/v1/wsdl/import", parts...)
			r.WantStatus(t, http.StatusCreated)
			var v artifactView
			r.Decode(t, &v)
			if v.RootPath != tc.root || v.FileCount != tc.files || v.OperationCount == 0 {
				t.Errorf("%s: root %q files %d operations %d", tc.dir, v.RootPath, v.FileCount, v.OperationCount)
			}
		}
	})
}

func TestImportBadInputs(t *testing.T) {
	wsdl20 := `<description xmlns="http://www.w3.org/ns/wsdl" targetNamespace="urn:x"/>`
	dangling := `<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" targetNamespace="urn:x">
  <wsdl:import namespace="urn:y" location="missing/types.wsdl"/>
</wsdl:definitions>`
	bigXML := "<a>" + strings.Repeat("x", maxImportXMLBytes) + "</a>"
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		xml := func(x string, files map[string]string) func() response {
			return func() response {
				return api.Do("POST", "/admin/v1/wsdl/import-xml", operatorEmail, xmlBody(t, x, files, nil))
			}
		}
		up := func(name string, data []byte) func() response {
			return func() response { return api.upload("/admin/v1/wsdl/import", formPart{"file", name, data}) }
		}
		url := func(u string) func() response {
			return func() response {
				return api.Do("POST", "/admin/v1/wsdl/import-url", operatorEmail, `{"url":"`+u+`"}`)
			}
		}
		tests := []struct {
			name       string
			do         func() response
			file       string
			line       int
			reasonHas  string
			wantStatus int
		}{
			{"not XML", xml("this is not XML", nil), "root.wsdl", 1, "not well-formed XML: ", 400},
			{"unclosed element", xml("<definitions xmlns=\"http://schemas.xmlsoap.org/wsdl/\">\n<types>\n</definitions>", nil), "root.wsdl", 3,
				"not well-formed XML: end tag </definitions> does not match", 400},
			{"WSDL 2.0", xml(wsdl20, nil), "root.wsdl", 1, "WSDL 2.0", 400},
			{"dangling import", xml(dangling, nil), "root.wsdl", 2, "missing/types.wsdl", 400},
			{"XML over the limit", xml(bigXML, nil), "root.wsdl", 0, "20 MB", 400},
			{"uploaded XML over the limit", up("big.wsdl", []byte(bigXML)), "big.wsdl", 0, "20 MB", 400},
			{"files path escapes", xml(dangling, map[string]string{"../x.xsd": "<x/>"}), "../x.xsd", 0, "clean relative", 400},
			{"zip with ../ entry", up("evil.zip", zipOf(t, map[string][]byte{"a.wsdl": []byte(dangling), "../evil.xsd": []byte("<x/>")})), "../evil.xsd", 0, "", 400},
			{"zip with absolute path", up("evil.zip", zipOf(t, map[string][]byte{"/etc/a.wsdl": []byte(dangling)})), "/etc/a.wsdl", 0, "", 400},
			{"zip over the limit", up("bomb.zip", zipOf(t, map[string][]byte{"a.wsdl": bytes.Repeat([]byte{' '}, 19<<20),
				"b.xsd": bytes.Repeat([]byte{' '}, 19<<20), "c.xsd": bytes.Repeat([]byte{' '}, 19<<20)})), "", 0, "limit", 400},
			{"zip without WSDL", up("none.zip", zipOf(t, map[string][]byte{"a.xsd": []byte("<x/>")})), "none.zip", 0, "", 400},
			{"loopback URL", url("http://127.0.0.1:1/calc?wsdl"), "", 0, "outbound_allowed_cidrs", 400},
			{"metadata URL", url("http://169.254.169.254/latest/meta-data"), "", 0, "outbound_allowed_cidrs", 400},
			{"not http", url("file:///etc/passwd"), "", 0, "", 400},
		}
		before := tableCounts(t, st, "wsdl_artifacts")
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				r := tc.do()
				r.WantStatus(t, tc.wantStatus)
				e := r.ErrorOf(t).Error
				if e.Code != apierr.ValBadRequest {
					t.Fatalf("code %s, want %s; %s", e.Code, apierr.ValBadRequest, r.Body)
				}
				reason, _ := e.Details["reason"].(string)
				if reason == "" || !strings.Contains(reason, tc.reasonHas) {
					t.Errorf("reason %q, want it to contain %q; %s", reason, tc.reasonHas, r.Body)
				}
				if tc.file != "" && e.Details["file"] != tc.file {
					t.Errorf("file %v, want %q; %s", e.Details["file"], tc.file, r.Body)
				}
				if tc.line > 0 && e.Details["line"] != float64(tc.line) {
					t.Errorf("line %v, want %d; %s", e.Details["line"], tc.line, r.Body)
				}
			})
		}
		if after := tableCounts(t, st, "wsdl_artifacts"); after["wsdl_artifacts"] != before["wsdl_artifacts"] {
			t.Errorf("failed imports stored artifacts: %v → %v", before, after)
		}
	})
}

func TestImportBodyOverLimit(t *testing.T) {
	api := newTestAPI(t, storetest.SQLite(t))
	body, ct := multipartBody(t, formPart{"file", "huge.wsdl", bytes.Repeat([]byte{' '}, maxImportBodyBytes+1)})
	r := api.Send("POST", "/admin/v1/wsdl/import", operatorEmail, ct, body)
	r.WantStatus(t, http.StatusRequestEntityTooLarge)
	if e := r.ErrorOf(t).Error; e.Code != apierr.AdmPayloadTooLarge || e.Details["maxPayloadMb"] != float64(maxImportBodyBytes>>20) {
		t.Errorf("error %+v", e)
	}
}

func TestImportURLWithRelativeImports(t *testing.T) {
	wsdlText := wsdlcorpus.Read(t, wsdlImportDir+"/main.wsdl")
	sub := wsdlcorpus.Read(t, wsdlImportDir+"/sub.wsdl")
	xsdText := wsdlcorpus.Read(t, wsdlImportDir+"/xsd.xsd")
	mux := http.NewServeMux()
	mux.HandleFunc("/svc/main.wsdl", func(w http.ResponseWriter, r *http.Request) { w.Write(wsdlText) })
	mux.HandleFunc("/svc/sub.wsdl", func(w http.ResponseWriter, r *http.Request) { w.Write(sub) })
	mux.HandleFunc("/svc/xsd.xsd", func(w http.ResponseWriter, r *http.Request) { w.Write(xsdText) })
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		backend := httptest.NewServer(mux)
		t.Cleanup(backend.Close)
		api := newTestAPI(t, st)
		body := `{"url":"` + backend.URL + `/svc/main.wsdl"}`
		r := api.Do("POST", "/admin/v1/wsdl/import-url", operatorEmail, body)
		r.WantStatus(t, http.StatusBadRequest) // loopback refused by default
		if e := r.ErrorOf(t).Error; e.Details["fetchReason"] != "blocked_address" {
			t.Errorf("blocked fetch details %v", e.Details)
		}
		api.Do("PATCH", "/admin/v1/settings", adminEmail, `{"outbound_allowed_cidrs":["127.0.0.0/8"]}`).WantStatus(t, http.StatusOK)
		r = api.Do("POST", "/admin/v1/wsdl/import-url", operatorEmail, body)
		r.WantStatus(t, http.StatusCreated)
		var v artifactView
		r.Decode(t, &v)
		if v.SourceKind != model.ArtifactURL || v.FileCount != 3 || v.RootPath != backend.URL+"/svc/main.wsdl" {
			t.Fatalf("url import: kind %s files %d root %s", v.SourceKind, v.FileCount, v.RootPath)
		}
		// A query value of the URL (a token) never shows in answers or audit.
		r = api.Do("POST", "/admin/v1/wsdl/import-url", operatorEmail, `{"url":"`+backend.URL+`/svc/main.wsdl?token=s3cret"}`)
		r.WantStatus(t, http.StatusCreated)
		var tv artifactView
		r.Decode(t, &tv)
		if strings.Contains(string(r.Body), "s3cret") {
			t.Errorf("token in the answer: %s", r.Body)
		}
		audit := api.Do("GET", "/admin/v1/audit-events?entityId="+tv.ArtifactID, readerEmail, "")
		audit.WantStatus(t, http.StatusOK)
		if strings.Contains(string(audit.Body), "s3cret") || !strings.Contains(string(audit.Body), "wsdl.import") {
			t.Errorf("audit events: %s", audit.Body)
		}

		r = api.Do("POST", "/admin/v1/wsdl/import-xml", operatorEmail, xmlBody(t, `<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/">
<wsdl:import namespace="urn:y" location="`+backend.URL+`/missing.wsdl?token=s3cret"/></wsdl:definitions>`, nil, nil))
		r.WantStatus(t, http.StatusBadRequest)
		if strings.Contains(string(r.Body), "s3cret") {
			t.Errorf("token in the error: %s", r.Body)
		}

		// The stored files alone re-parse the contract, without the network.
		backend.Close()
		a, err := st.Artifact(context.Background(), v.ArtifactID)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := contracts.Parse(context.Background(), a); err != nil {
			t.Errorf("stored URL import does not re-parse offline: %v", err)
		}
	})
}
