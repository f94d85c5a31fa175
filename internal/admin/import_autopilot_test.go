package admin

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/catalog"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
	"github.com/s2r-project/s2r/internal/wsdlcorpus"
)

// draftTables are every table autopilot writes.
var draftTables = []string{"wsdl_artifacts", "services", "service_versions", "operations", "mappings", "backend_profiles"}

// wantDraft checks the DESIGN 8 answer of a successful autopilot.
func wantDraft(t *testing.T, r response, key, env string, ops int) autopilotResult {
	t.Helper()
	r.WantStatus(t, http.StatusCreated)
	var res autopilotResult
	r.Decode(t, &res)
	if res.Artifact.ArtifactID == "" || res.Service.ServiceID == "" || res.Version.VersionID == "" || res.BackendProfile.ProfileID == "" {
		t.Fatalf("missing ids: %s", r.Body)
	}
	got := []string{res.Service.ServiceKey, res.Service.Environment, res.Service.Direction, res.Service.Status, res.Version.Status}
	if diff := cmp.Diff([]string{key, env, model.DirectionPublish, model.ServiceActive, model.VersionDraft}, got); diff != "" {
		t.Errorf("service/version (-want +got):\n%s", diff)
	}
	if len(res.Operations) != ops {
		t.Errorf("operations = %d, want %d", len(res.Operations), ops)
	}
	for _, op := range res.Operations {
		if op.OperationID == "" || op.OperationKey == "" || op.SOAPOperationName == "" || op.RestMethod != "POST" || op.RestPath != "/"+op.OperationKey {
			t.Errorf("operation %+v", op)
		}
	}
	if res.Version.ArtifactID == nil || *res.Version.ArtifactID != res.Artifact.ArtifactID {
		t.Errorf("version artifact %v, want %s", res.Version.ArtifactID, res.Artifact.ArtifactID)
	}
	if res.Service.DefaultBackendProfileID == nil || *res.Service.DefaultBackendProfileID != res.BackendProfile.ProfileID {
		t.Errorf("default backend profile %v, want %s", res.Service.DefaultBackendProfileID, res.BackendProfile.ProfileID)
	}
	total := 0
	for _, s := range res.Services {
		sum := s.MappingDiagnostics.Summary
		total += sum[catalog.AutoReady] + sum[catalog.AutoReadyWithWarnings] + sum[catalog.ManualRequired]
	}
	if total != ops || len(res.Services) == 0 || res.Services[0].Service.ServiceID != res.Service.ServiceID {
		t.Errorf("diagnostics of %d operations over %d services, want %d", total, len(res.Services), ops)
	}
	for _, op := range res.Operations {
		if op.ServiceID == "" {
			t.Errorf("operation %s has no serviceId", op.OperationKey)
		}
	}
	return res
}

func TestAutopilotCountryInfo(t *testing.T) {
	wsdlText := string(wsdlcorpus.Read(t, countryInfoWSDL))
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		r := api.Do("POST", "/admin/v1/wsdl/import-xml:autopilot", operatorEmail,
			xmlBody(t, wsdlText, nil, map[string]any{"environment": "dev"}))
		res := wantDraft(t, r, "country-info-service", "dev", 21)
		if res.PublishReadiness == nil || res.PublishReadiness.Status != catalog.ReadyToPublish {
			t.Errorf("readiness %+v", res.PublishReadiness)
		}
		if res.MappingDiagnostics.Summary[catalog.AutoReady] != 21 {
			t.Errorf("summary %v", res.MappingDiagnostics.Summary)
		}
		if res.Operations[0].OperationKey != "list-of-continents-by-name" || res.Operations[0].SOAPOperationName != "ListOfContinentsByName" {
			t.Errorf("first operation %+v", res.Operations[0])
		}
		want := draftSuggestion{ServiceKey: "country-info-service", ServiceKeyDerived: true, WSDLService: "CountryInfoService",
			WSDLPort: "CountryInfoServiceSoap", PortType: "CountryInfoServiceSoapType", SOAPVersion: "1.1",
			BackendURL: "http://webservices.oorsprong.org/websamples.countryinfo/CountryInfoService.wso", BackendURLFromWSDL: true,
			WSDLAddress: "http://webservices.oorsprong.org/websamples.countryinfo/CountryInfoService.wso"}
		if len(res.Services) != 1 || res.Services[0].Service.ServiceID != res.Service.ServiceID {
			t.Errorf("services %+v: one port type gives one service", res.Services)
		}
		if diff := cmp.Diff(want, res.DraftSuggestion); diff != "" {
			t.Errorf("suggestion (-want +got):\n%s", diff)
		}
		if res.BackendProfile.EndpointURL != want.BackendURL {
			t.Errorf("backend endpoint %q", res.BackendProfile.EndpointURL)
		}
		// The draft is what the catalog serves.
		api.Do("GET", "/admin/v1/services/"+res.Service.ServiceID+"/versions/"+res.Version.VersionID+"/publish-readiness",
			readerEmail, "").WantStatus(t, http.StatusOK)

		// SOAP 1.2 port, explicit key, name and backend, consume direction.
		r = api.Do("POST", "/admin/v1/wsdl/import/"+res.Artifact.ArtifactID+":autopilot", operatorEmail,
			`{"environment":"dev","serviceKey":"countries12","serviceName":"Countries","soapVersion":"1.2","backendUrl":"http://10.0.0.9/c"}`)
		res12 := wantDraft(t, r, "countries12", "dev", 21)
		if res12.DraftSuggestion.WSDLPort != "CountryInfoServiceSoap12" || res12.Operations[0].SOAPVersion != "1.2" ||
			res12.Service.ServiceName != "Countries" || res12.BackendProfile.EndpointURL != "http://10.0.0.9/c" {
			t.Errorf("soap 1.2 draft: %+v %+v", res12.DraftSuggestion, res12.Service)
		}

		// generate-service on the same import, another environment.
		r = api.Do("POST", "/admin/v1/wsdl/import/"+res.Artifact.ArtifactID+"/generate-service", operatorEmail, `{"environment":"test"}`)
		wantDraft(t, r, "country-info-service", "test", 21)
	})
}

func TestAutopilotZIPUpload(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		z := zipOfCorpusDir(t, nsTypeConflictDir, "")
		r := api.upload("/admin/v1/wsdl/import:autopilot", formPart{"file", "bundle.zip", z},
			formPart{name: "environment", data: []byte("dev")}, formPart{name: "serviceKey", data: []byte("conflict")})
		res := wantDraft(t, r, "conflict", "dev", 1)
		if res.Artifact.SourceKind != model.ArtifactZIP || res.Artifact.FileCount != 3 {
			t.Errorf("artifact %+v", res.Artifact)
		}
		// Its one operation is one-way: a risk, not a block.
		if res.PublishReadiness.Status != catalog.ReadyWithRisk {
			t.Errorf("readiness %s: %+v", res.PublishReadiness.Status, res.PublishReadiness.BlockingIssues)
		}

		// wsdl:import of a WSDL that xs:imports an XSD, the root named.
		z = zipOfCorpusDir(t, wsdlImportDir, "")
		r = api.upload("/admin/v1/wsdl/import:autopilot", formPart{"file", "users.zip", z},
			formPart{name: "environment", data: []byte("dev")}, formPart{name: "rootPath", data: []byte("main.wsdl")})
		res = wantDraft(t, r, "user-remote-service-impl-service", "dev", 1)
		if res.PublishReadiness.Status != catalog.ReadyToPublish {
			t.Errorf("readiness %s: %+v %+v", res.PublishReadiness.Status, res.PublishReadiness.BlockingIssues, res.PublishReadiness.Risks)
		}
	})
}

func TestAutopilotFailuresLeaveNothing(t *testing.T) {
	wsdlText := string(wsdlcorpus.Read(t, countryInfoWSDL))
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		body := xmlBody(t, wsdlText, nil, map[string]any{"environment": "dev"})
		wantDraft(t, api.Do("POST", "/admin/v1/wsdl/import-xml:autopilot", operatorEmail, body), "country-info-service", "dev", 21)
		before := tableCounts(t, st, draftTables...)
		rev, err := st.Revision(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		tests := []struct {
			name, body string
			status     int
			code       string
			field      string
		}{
			// The collision is found after the artifact was written in
			// the transaction: the rollback must remove it.
			{"derived key collides", body, 409, apierr.AdmAlreadyExists, "serviceKey"},
			{"no environment", xmlBody(t, wsdlText, nil, nil), 400, apierr.ValBadRequest, "environment"},
			{"bad environment", xmlBody(t, wsdlText, nil, map[string]any{"environment": "Dev Env"}), 400, apierr.ValBadRequest, "environment"},
			{"bad direction", xmlBody(t, wsdlText, nil, map[string]any{"environment": "dev", "direction": "both"}), 400, apierr.ValBadRequest, "direction"},
			{"bad backend", xmlBody(t, wsdlText, nil, map[string]any{"environment": "dev", "serviceKey": "x", "backendUrl": "ftp://h/x"}), 400, apierr.ValBadRequest, "backendUrl"},
			{"unknown port", xmlBody(t, wsdlText, nil, map[string]any{"environment": "dev", "serviceKey": "x", "wsdlPort": "Nope"}), 400, apierr.ValBadRequest, "wsdlPort"},
			{"unknown field", xmlBody(t, wsdlText, nil, map[string]any{"environment": "dev", "color": "red"}), 400, apierr.ValBadRequest, "color"},
			{"not XML", xmlBody(t, "not xml", nil, map[string]any{"environment": "dev", "serviceKey": "x"}), 400, apierr.ValBadRequest, ""},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				r := api.Do("POST", "/admin/v1/wsdl/import-xml:autopilot", operatorEmail, tc.body)
				r.WantStatus(t, tc.status)
				e := r.ErrorOf(t).Error
				if e.Code != tc.code || (tc.field != "" && e.Details["field"] != tc.field) {
					t.Errorf("error %+v", e)
				}
				if tc.field == "" && (e.Details["file"] != rootXMLName || e.Details["line"] == nil) {
					t.Errorf("import error details %v", e.Details)
				}
			})
		}
		if diff := cmp.Diff(before, tableCounts(t, st, draftTables...)); diff != "" {
			t.Errorf("failed autopilots left rows (-before +after):\n%s", diff)
		}
		if after, _ := st.Revision(t.Context()); after != rev {
			t.Errorf("revision moved from %d to %d", rev, after)
		}
		r := api.Do("POST", "/admin/v1/wsdl/import/0190a000-0000-7000-8000-00000000dead:autopilot", operatorEmail, `{"environment":"dev"}`)
		r.WantStatus(t, http.StatusNotFound)
		r = api.Do("POST", "/admin/v1/wsdl/import/x:autopilot", readerEmail, `{"environment":"dev"}`)
		r.WantStatus(t, http.StatusForbidden)
	})
}
