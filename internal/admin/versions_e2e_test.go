package admin

import (
	"net/http"
	"testing"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/catalog"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
	"github.com/s2r-project/s2r/internal/wsdlcorpus"
)

// TestCatalogEndToEnd does what a new user does: autopilot-import
// countryInformation.wsdl, activate the draft, create a new draft, edit it,
// activate it, roll back; and sees a BLOCKED draft refused.
func TestCatalogEndToEnd(t *testing.T) {
	wsdlText := string(wsdlcorpus.Read(t, countryInfoWSDL))
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		var auto struct {
			Service            model.Service              `json:"service"`
			Version            model.Version              `json:"version"`
			Operations         []model.Operation          `json:"operations"`
			BackendProfile     struct{ ProfileID string } `json:"backendProfile"`
			MappingDiagnostics struct {
				Summary map[string]int `json:"summary"`
			} `json:"mappingDiagnostics"`
			PublishReadiness struct{ Status string } `json:"publishReadiness"`
		}
		api.Do("POST", Prefix+"/wsdl/import-xml:autopilot", operatorEmail,
			jsonBody(t, map[string]any{"xml": wsdlText, "environment": "dev", "serviceKey": "country"})).
			WantStatus(t, http.StatusCreated).Decode(t, &auto)
		if len(auto.Operations) != 21 || auto.Version.Status != model.VersionDraft || auto.PublishReadiness.Status != catalog.ReadyToPublish ||
			auto.MappingDiagnostics.Summary[catalog.AutoReady] != 21 {
			t.Fatalf("autopilot = %+v", auto)
		}
		svcID, v1 := auto.Service.ServiceID, auto.Version.VersionID
		base := Prefix + "/services/" + svcID + "/versions/"

		var rd readinessResult
		api.Do("GET", base+v1+"/publish-readiness", readerEmail, "").WantStatus(t, 200).Decode(t, &rd)
		if rd.Status != catalog.ReadyToPublish {
			t.Fatalf("readiness = %+v", rd)
		}
		api.Do("POST", base+v1+":activate", operatorEmail, "").WantStatus(t, 200)

		// New draft, edited, activated.
		var d2 draftResult
		api.Do("POST", Prefix+"/services/"+svcID+"/versions", operatorEmail, "").WantStatus(t, 201).Decode(t, &d2)
		var capital model.Operation
		for _, op := range d2.Operations {
			if op.SOAPOperationName == "CapitalCity" {
				capital = op
			}
		}
		api.Do("PATCH", Prefix+"/operations/"+capital.OperationID, operatorEmail,
			`{"restMethod":"GET","restPath":"/countries/{sCountryISOCode}/capital","timeoutMs":2000}`).WantStatus(t, 200)
		api.Do("PUT", Prefix+"/operations/"+capital.OperationID+"/mapping", operatorEmail,
			`{"requestMapping":{"rename":{"sCountryISOCode":"countryCode"}}}`).WantStatus(t, 200)
		api.Do("PATCH", Prefix+"/operations/"+capital.OperationID+"/validation-rules", operatorEmail,
			`{"rules":[{"field":"/sCountryISOCode","pattern":"^[A-Z]{2}$","target":"request"}]}`).WantStatus(t, 200)
		var act activationResult
		api.Do("POST", base+d2.Version.VersionID+":activate", operatorEmail, "").WantStatus(t, 200).Decode(t, &act)
		if act.PreviousVersionID == nil || *act.PreviousVersionID != v1 || act.PublishReadiness.Status != catalog.ReadyToPublish {
			t.Errorf("second activation = %+v", act)
		}
		// The active version is immutable.
		api.Do("PATCH", Prefix+"/operations/"+capital.OperationID, operatorEmail, `{"timeoutMs":1}`).WantError(t, 409, apierr.AdmImmutable)

		// Roll back to version 1.
		api.Do("POST", base+v1+":rollback", operatorEmail, "").WantStatus(t, 200).Decode(t, &act)
		statuses, _ := api.versionStatuses(svcID)
		if statuses[v1] != model.VersionActive || statuses[d2.Version.VersionID] != model.VersionInactive || *act.Service.ActiveVersionID != v1 {
			t.Errorf("after rollback: %v", statuses)
		}

		// A draft of a publish service without a backend profile is BLOCKED.
		var d3 draftResult
		api.Do("POST", Prefix+"/services/"+svcID+"/versions", operatorEmail, "").WantStatus(t, 201).Decode(t, &d3)
		if err := st.Transact(t.Context(), func(tx *store.Tx) error {
			return tx.DeleteBackendProfile(t.Context(), auto.BackendProfile.ProfileID)
		}); err != nil {
			t.Fatal(err)
		}
		api.Do("GET", base+d3.Version.VersionID+"/publish-readiness", readerEmail, "").WantStatus(t, 200).Decode(t, &rd)
		if rd.Status != catalog.Blocked || rd.BlockingIssues[0].Code != "NO_BACKEND_PROFILE" {
			t.Errorf("readiness without backend = %+v", rd)
		}
		api.Do("POST", base+d3.Version.VersionID+":activate", operatorEmail, "").WantError(t, 409, apierr.AdmImmutable)
		statuses, _ = api.versionStatuses(svcID)
		if statuses[d3.Version.VersionID] != model.VersionDraft || statuses[v1] != model.VersionActive {
			t.Errorf("after refused activation: %v", statuses)
		}
	})
}
