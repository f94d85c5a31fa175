package admin

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/catalog"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// readinessCodes lists the codes of a report's blocking issues.
func readinessCodes(rep *catalog.ReadinessReport) []string {
	var out []string
	for _, is := range rep.BlockingIssues {
		out = append(out, is.Code)
	}
	return out
}

// TestAutopilotRelativeAddress: a soap:address that is not an absolute
// http(s) URL imports; the backend profile has no URL and the draft is
// BLOCKED with the action to set one, until the URL is set. With
// backendUrl the draft is ready at once, as before.
func TestAutopilotRelativeAddress(t *testing.T) {
	wsdlText := importFixture(t, "lenient/relative-address.wsdl")
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		r := api.Do("POST", "/admin/v1/wsdl/import-xml:autopilot", operatorEmail,
			xmlBody(t, wsdlText, nil, map[string]any{"environment": "dev"}))
		res := wantDraft(t, r, "quote-service", "dev", 1)
		if res.BackendProfile.EndpointURL != "" || res.DraftSuggestion.BackendURL != "" ||
			res.DraftSuggestion.WSDLAddress != "/services/quotes" || res.DraftSuggestion.BackendURLFromWSDL {
			t.Errorf("backend %q, suggestion %+v", res.BackendProfile.EndpointURL, res.DraftSuggestion)
		}
		rep := res.PublishReadiness
		if rep.Status != catalog.Blocked || !slices.Equal(readinessCodes(rep), []string{"NO_BACKEND_URL"}) ||
			!slices.ContainsFunc(rep.SuggestedActions, func(a string) bool { return strings.Contains(a, "PATCH /backend-profiles/{profileId}") }) {
			t.Errorf("readiness %+v", rep)
		}
		path := "/admin/v1/services/" + res.Service.ServiceID + "/versions/" + res.Version.VersionID
		api.Do("POST", path+":activate", operatorEmail, "").WantStatus(t, http.StatusConflict)
		api.Do("PATCH", "/admin/v1/backend-profiles/"+res.BackendProfile.ProfileID, operatorEmail,
			`{"endpointUrl":"http://10.0.0.40/quotes"}`).WantStatus(t, http.StatusOK)
		var ready catalog.ReadinessReport
		api.Do("GET", path+"/publish-readiness", readerEmail, "").WantStatus(t, http.StatusOK).Decode(t, &ready)
		if ready.Status != catalog.ReadyToPublish {
			t.Errorf("after setting the URL: %+v", ready)
		}
		api.Do("POST", path+":activate", operatorEmail, "").WantStatus(t, http.StatusOK)

		r = api.Do("POST", "/admin/v1/wsdl/import-xml:autopilot", operatorEmail,
			xmlBody(t, wsdlText, nil, map[string]any{"environment": "test", "backendUrl": "http://10.0.0.41/q"}))
		res = wantDraft(t, r, "quote-service", "test", 1)
		if res.PublishReadiness.Status != catalog.ReadyToPublish || res.BackendProfile.EndpointURL != "http://10.0.0.41/q" {
			t.Errorf("with backendUrl: %s %q", res.PublishReadiness.Status, res.BackendProfile.EndpointURL)
		}
	})
}

// TestAutopilotBatchFollowsTheRules: batch autopilot onboards a WSDL with a
// relative address (BLOCKED, not refused) and every port type of another.
func TestAutopilotBatchFollowsTheRules(t *testing.T) {
	relative := importFixture(t, "lenient/relative-address.wsdl")
	twoTypes := importFixture(t, "multiport/two-porttypes.wsdl")
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		body := `{"items":[` + xmlBody(t, relative, nil, map[string]any{"environment": "dev"}) + "," +
			xmlBody(t, twoTypes, nil, map[string]any{"environment": "dev"}) + `]}`
		var out batchResult
		api.Do("POST", "/admin/v1/wsdl/import-files:autopilot", operatorEmail, body).WantStatus(t, http.StatusOK).Decode(t, &out)
		if out.Summary.Succeeded != 2 || out.Summary.Failed != 0 {
			t.Fatalf("summary %+v: %+v", out.Summary, out.Items)
		}
		if got := out.Items[0].Result.PublishReadiness.Status; got != catalog.Blocked {
			t.Errorf("relative address: %s", got)
		}
		if got := len(out.Items[1].Result.Services); got != 2 || len(out.Items[1].Result.Operations) != 57 {
			t.Errorf("two port types: %d services, %d operations", got, len(out.Items[1].Result.Operations))
		}
	})
}

// TestAutopilotLenientImport: the fixtures of the lenient rules import
// through autopilot with their warnings in the artifact, and an operation
// needing a missing type is MANUAL_REQUIRED with file, line and name until
// a person saves its mapping.
func TestAutopilotLenientImport(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		r := api.Do("POST", "/admin/v1/wsdl/import-xml:autopilot", operatorEmail,
			xmlBody(t, importFixture(t, "lenient/missing-type.wsdl"), nil, map[string]any{"environment": "dev"}))
		res := wantDraft(t, r, "order-service", "dev", 3)
		wantWarnings := []string{
			"root.wsdl:16: unresolved type reference {urn:orders}Address: xs:anyType stands in for it, needed by operation PlaceOrder",
			"root.wsdl:29: unresolved type reference {urn:orders}Gone: xs:anyType stands in for it; no imported operation needs it",
			"root.wsdl:37: unresolved element reference {urn:orders}Cancel: xs:anyType stands in for it, needed by operation Cancel",
		}
		if diff := cmp.Diff(wantWarnings, res.Artifact.Warnings); diff != "" {
			t.Errorf("warnings (-want +got):\n%s", diff)
		}
		place := res.MappingDiagnostics.Operations["place-order"]
		if place.Status != catalog.ManualRequired || len(place.Reasons) == 0 {
			t.Fatalf("place-order %+v", place)
		}
		if r := place.Reasons[0]; r.Code != catalog.ReasonUnresolved || r.File != "root.wsdl" || r.Line != 16 || r.Name != "{urn:orders}Address" {
			t.Errorf("reason %+v", r)
		}
		if got := res.MappingDiagnostics.Operations["get-status"].Status; got != catalog.AutoReady {
			t.Errorf("get-status %s", got)
		}
		if res.PublishReadiness.Status != catalog.Blocked {
			t.Errorf("readiness %s", res.PublishReadiness.Status)
		}
		for _, op := range res.Operations {
			if op.OperationKey == "place-order" || op.OperationKey == "cancel" {
				api.Do("PUT", "/admin/v1/operations/"+op.OperationID+"/mapping", operatorEmail,
					`{"requestMapping":{"mode":"identity"},"responseMapping":{"mode":"identity"},"faultMapping":{"mode":"identity"}}`).
					WantStatus(t, http.StatusOK)
			}
		}
		var rep catalog.ReadinessReport
		path := "/admin/v1/services/" + res.Service.ServiceID + "/versions/" + res.Version.VersionID
		api.Do("GET", path+"/publish-readiness", readerEmail, "").WantStatus(t, http.StatusOK).Decode(t, &rep)
		if rep.Status != catalog.ReadyWithRisk {
			t.Errorf("after reviewing the mappings: %s %+v", rep.Status, rep.BlockingIssues)
		}

		r = api.Do("POST", "/admin/v1/wsdl/import-xml:autopilot", operatorEmail,
			xmlBody(t, importFixture(t, "lenient/missing-header.wsdl"), nil, map[string]any{"environment": "dev"}))
		res = wantDraft(t, r, "bank-service", "dev", 2)
		if res.PublishReadiness.Status != catalog.ReadyToPublish || len(res.Artifact.Warnings) != 2 {
			t.Errorf("missing header: %s, warnings %v", res.PublishReadiness.Status, res.Artifact.Warnings)
		}

		r = api.Do("POST", "/admin/v1/wsdl/import-xml:autopilot", operatorEmail,
			xmlBody(t, importFixture(t, "lenient/missing-message.wsdl"), nil, map[string]any{"environment": "dev"}))
		res = wantDraft(t, r, "doc-service", "dev", 1)
		if len(res.Artifact.Warnings) != 2 || !strings.Contains(res.Artifact.Warnings[0], "root.wsdl:21: unresolved message reference {urn:docs}ArchiveRequest") {
			t.Errorf("missing message warnings %v", res.Artifact.Warnings)
		}

		before := tableCounts(t, st, draftTables...)
		r = api.Do("POST", "/admin/v1/wsdl/import-xml:autopilot", operatorEmail,
			xmlBody(t, importFixture(t, "lenient/nothing-usable.wsdl"), nil, map[string]any{"environment": "dev"}))
		r.WantStatus(t, http.StatusBadRequest)
		e := r.ErrorOf(t).Error
		if e.Code != apierr.ValBadRequest || e.Details["file"] != "root.wsdl" || e.Details["line"] != float64(9) ||
			e.Details["reason"] != "unresolved message reference {urn:empty}PingRequest" {
			t.Errorf("nothing usable: %+v", e)
		}
		if diff := cmp.Diff(before, tableCounts(t, st, draftTables...)); diff != "" {
			t.Errorf("a refused import left rows (-before +after):\n%s", diff)
		}
	})
}
