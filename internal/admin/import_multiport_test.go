package admin

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/catalog"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// importFixture reads a WSDL written for the import tests
// (internal/wsdl/testdata).
func importFixture(t testing.TB, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "wsdl", "testdata", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// servicesOf summarizes the services of an autopilot answer: key, WSDL
// port, port type and number of operations.
func servicesOf(res autopilotResult) []string {
	count := map[string]int{}
	for _, op := range res.Operations {
		count[op.ServiceID]++
	}
	var out []string
	for _, s := range res.Services {
		out = append(out, s.Service.ServiceKey+" "+s.DraftSuggestion.WSDLService+"/"+s.DraftSuggestion.WSDLPort+" "+
			s.DraftSuggestion.PortType+" "+itoa(count[s.Service.ServiceID]))
	}
	return out
}

// TestAutopilotEveryPortType: a WSDL service with two port types (25 and
// 32 operations, one address; Payments bound to SOAP 1.2 first, then 1.1)
// onboards as two services, the SOAP 1.1 port of each; the DESIGN 8 fields
// describe the first; operations lists all 57 with their serviceId.
func TestAutopilotEveryPortType(t *testing.T) {
	wsdlText := importFixture(t, "multiport/two-porttypes.wsdl")
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		r := api.Do("POST", "/admin/v1/wsdl/import-xml:autopilot", operatorEmail,
			xmlBody(t, wsdlText, nil, map[string]any{"environment": "dev"}))
		res := wantDraft(t, r, "bank-service", "dev", 57)
		want := []string{"bank-service BankService/AccountsSoap AccountsPortType 25",
			"bank-service-payments-port-type BankService/PaymentsSoap PaymentsPortType 32"}
		if diff := cmp.Diff(want, servicesOf(res)); diff != "" {
			t.Fatalf("services (-want +got):\n%s", diff)
		}
		first, second := res.Services[0], res.Services[1]
		if res.Service.ServiceID != first.Service.ServiceID || res.Version.VersionID != first.Version.VersionID ||
			res.BackendProfile.ProfileID != first.BackendProfile.ProfileID || res.DraftSuggestion != first.DraftSuggestion {
			t.Errorf("top-level fields are not the first service's: %+v", res.DraftSuggestion)
		}
		if res.MappingDiagnostics.Summary[catalog.AutoReady] != 25 || second.MappingDiagnostics.Summary[catalog.AutoReady] != 32 {
			t.Errorf("summaries %v / %v", res.MappingDiagnostics.Summary, second.MappingDiagnostics.Summary)
		}
		for _, s := range res.Services {
			if s.PublishReadiness == nil || s.PublishReadiness.Status != catalog.ReadyToPublish {
				t.Errorf("%s readiness %+v", s.Service.ServiceKey, s.PublishReadiness)
			}
			if s.BackendProfile.EndpointURL != "http://10.0.0.20/bank" || s.DraftSuggestion.SOAPVersion != "1.1" {
				t.Errorf("%s: backend %q, SOAP %s", s.Service.ServiceKey, s.BackendProfile.EndpointURL, s.DraftSuggestion.SOAPVersion)
			}
		}
		if second.Service.ServiceName != "BankService (PaymentsPortType)" || !second.DraftSuggestion.ServiceKeyDerived {
			t.Errorf("second service %q derived=%v", second.Service.ServiceName, second.DraftSuggestion.ServiceKeyDerived)
		}
		if got := r.Header.Get("Location"); got != "/admin/v1/services/"+first.Service.ServiceID+"/versions/"+first.Version.VersionID {
			t.Errorf("Location %q", got)
		}
		// The second service is a service like any other: its draft serves
		// readiness and activates.
		path := "/admin/v1/services/" + second.Service.ServiceID + "/versions/" + second.Version.VersionID
		api.Do("POST", path+":activate", operatorEmail, "").WantStatus(t, http.StatusOK)

		// An explicit serviceKey applies to the first; the others derive
		// from it. soapVersion 1.2 leaves only the Payments port type.
		r = api.Do("POST", "/admin/v1/wsdl/import/"+res.Artifact.ArtifactID+":autopilot", operatorEmail,
			`{"environment":"test","serviceKey":"core"}`)
		res2 := wantDraft(t, r, "core", "test", 57)
		if diff := cmp.Diff([]string{"core BankService/AccountsSoap AccountsPortType 25",
			"core-payments-port-type BankService/PaymentsSoap PaymentsPortType 32"}, servicesOf(res2)); diff != "" {
			t.Errorf("explicit key (-want +got):\n%s", diff)
		}
		r = api.Do("POST", "/admin/v1/wsdl/import/"+res.Artifact.ArtifactID+":autopilot", operatorEmail,
			`{"environment":"v12","soapVersion":"1.2"}`)
		res3 := wantDraft(t, r, "bank-service", "v12", 32)
		if diff := cmp.Diff([]string{"bank-service BankService/PaymentsSoap12 PaymentsPortType 32"}, servicesOf(res3)); diff != "" {
			t.Errorf("SOAP 1.2 (-want +got):\n%s", diff)
		}
		// A named port drafts that port alone.
		r = api.Do("POST", "/admin/v1/wsdl/import/"+res.Artifact.ArtifactID+":autopilot", operatorEmail,
			`{"environment":"one","wsdlPort":"PaymentsSoap"}`)
		wantDraft(t, r, "bank-service", "one", 32)
	})
}

// TestAutopilotEveryService: a root with two WSDL services onboards every
// distinct port type once, whichever service offers it.
func TestAutopilotEveryService(t *testing.T) {
	wsdlText := importFixture(t, "multiport/two-services.wsdl")
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		r := api.Do("POST", "/admin/v1/wsdl/import-xml:autopilot", operatorEmail,
			xmlBody(t, wsdlText, nil, map[string]any{"environment": "dev"}))
		res := wantDraft(t, r, "customer-service", "dev", 3)
		want := []string{"customer-service CustomerService/CustomerSoap Customer 2", "customer-service-audit AuditService/AuditSoap Audit 1"}
		if diff := cmp.Diff(want, servicesOf(res)); diff != "" {
			t.Fatalf("services (-want +got):\n%s", diff)
		}
		if got := res.Services[1].BackendProfile.EndpointURL; got != "http://10.0.0.31/crm/audit" {
			t.Errorf("audit backend %q", got)
		}
		// wsdlService narrows the choice to that service's port types.
		r = api.Do("POST", "/admin/v1/wsdl/import/"+res.Artifact.ArtifactID+":autopilot", operatorEmail,
			`{"environment":"test","wsdlService":"AuditService"}`)
		res2 := wantDraft(t, r, "audit-service", "test", 3)
		want = []string{"audit-service AuditService/AuditSoap Audit 1", "audit-service-customer AuditService/CustomerMirror Customer 2"}
		if diff := cmp.Diff(want, servicesOf(res2)); diff != "" {
			t.Errorf("one WSDL service (-want +got):\n%s", diff)
		}
	})
}

// TestAutopilotEveryPortTypeAllOrNothing: when the key of a later service
// is taken, the whole call is refused and nothing is written.
func TestAutopilotEveryPortTypeAllOrNothing(t *testing.T) {
	wsdlText := importFixture(t, "multiport/two-porttypes.wsdl")
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		api.Do("POST", "/admin/v1/services", operatorEmail,
			`{"serviceKey":"bank-service-payments-port-type","environment":"dev","serviceName":"taken"}`).WantStatus(t, http.StatusCreated)
		before := tableCounts(t, st, draftTables...)
		r := api.Do("POST", "/admin/v1/wsdl/import-xml:autopilot", operatorEmail,
			xmlBody(t, wsdlText, nil, map[string]any{"environment": "dev"}))
		r.WantStatus(t, http.StatusConflict)
		if e := r.ErrorOf(t).Error; e.Code != apierr.AdmAlreadyExists || e.Details["serviceKey"] != "bank-service-payments-port-type" {
			t.Errorf("error %+v", e)
		}
		if diff := cmp.Diff(before, tableCounts(t, st, draftTables...)); diff != "" {
			t.Errorf("a refused autopilot left rows (-before +after):\n%s", diff)
		}
	})
}
