package admin

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/catalog"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// versionStatuses returns the status of each version of a service by id.
func (a *testAPI) versionStatuses(serviceID string) (map[string]string, []model.Version) {
	a.t.Helper()
	var list versionList
	a.Do("GET", Prefix+"/services/"+serviceID+"/versions", readerEmail, "").WantStatus(a.t, 200).Decode(a.t, &list)
	out := map[string]string{}
	for _, v := range list.Items {
		out[v.VersionID] = v.Status
	}
	return out, list.Items
}

// TestVersionTransitions walks every version transition and 409 of SPEC 3.3.
func TestVersionTransitions(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		svc, d1 := api.consumeDraft("calc", calcOps)
		base := Prefix + "/services/" + svc.ServiceID + "/versions/"
		if d1.Version.Status != model.VersionDraft || d1.Version.VersionNumber != 1 || len(d1.Operations) != 3 {
			t.Fatalf("first draft = %+v", d1)
		}
		if got := []string{d1.Operations[0].OperationKey, d1.Operations[0].RestPath}; got[0] != "add" || got[1] != "/add" {
			t.Errorf("first operation = %v", got)
		}
		// A second draft while one exists: 409.
		api.Do("POST", Prefix+"/services/"+svc.ServiceID+"/versions", operatorEmail, "").WantError(t, 409, apierr.AdmImmutable)

		var rd readinessResult
		api.Do("GET", base+d1.Version.VersionID+"/publish-readiness", readerEmail, "").WantStatus(t, 200).Decode(t, &rd)
		if rd.Status != catalog.ReadyWithRisk || len(rd.Checks) == 0 || rd.MappingSummary[catalog.AutoReady] != 3 {
			t.Errorf("readiness of a consume draft without backend = %+v", rd)
		}

		// Activate the draft.
		rev := api.revision()
		var act activationResult
		api.Do("POST", base+d1.Version.VersionID+":activate", operatorEmail, "").WantStatus(t, 200).Decode(t, &act)
		if act.Version.Status != model.VersionActive || act.Version.ActivatedAt == nil || act.PreviousVersionID != nil ||
			act.Service.ActiveVersionID == nil || *act.Service.ActiveVersionID != d1.Version.VersionID {
			t.Errorf("activation = %+v", act)
		}
		if api.revision() != rev+1 {
			t.Error("activation did not bump the revision")
		}
		ev := api.lastAudit("version.activate", d1.Version.VersionID)
		var after struct{ Version model.Version }
		json.Unmarshal(ev.AfterState, &after)
		if after.Version.Status != model.VersionActive || ev.BeforeState == nil {
			t.Errorf("activation audit = %s -> %s", ev.BeforeState, ev.AfterState)
		}
		// Activating it again: 409 (not a draft).
		api.Do("POST", base+d1.Version.VersionID+":activate", operatorEmail, "").WantError(t, 409, apierr.AdmImmutable)

		// Clone a new draft from the active version, edit it, activate it.
		var d2 draftResult
		api.Do("POST", Prefix+"/services/"+svc.ServiceID+"/versions", operatorEmail, `{"note":"v2"}`).WantStatus(t, 201).Decode(t, &d2)
		if d2.Version.VersionNumber != 2 || d2.ClonedFrom == nil || *d2.ClonedFrom != d1.Version.VersionID || len(d2.Operations) != 3 ||
			d2.Version.ArtifactID == nil || *d2.Version.ArtifactID != *d1.Version.ArtifactID || d2.Operations[0].OperationID == d1.Operations[0].OperationID {
			t.Fatalf("cloned draft = %+v", d2)
		}
		api.Do("PATCH", Prefix+"/operations/"+d2.Operations[0].OperationID, operatorEmail, `{"restPath":"/sum","timeoutMs":5000}`).WantStatus(t, 200)
		api.Do("POST", base+d2.Version.VersionID+":activate", operatorEmail, "").WantStatus(t, 200).Decode(t, &act)
		if act.PreviousVersionID == nil || *act.PreviousVersionID != d1.Version.VersionID {
			t.Errorf("previous active = %v", act.PreviousVersionID)
		}
		statuses, list := api.versionStatuses(svc.ServiceID)
		if statuses[d1.Version.VersionID] != model.VersionInactive || statuses[d2.Version.VersionID] != model.VersionActive ||
			list[0].VersionNumber != 2 {
			t.Errorf("after second activation: %v (newest first: %d)", statuses, list[0].VersionNumber)
		}
		// Versions 1 (inactive) and 2 (active) are immutable.
		for _, op := range []string{d1.Operations[1].OperationID, d2.Operations[1].OperationID} {
			api.Do("PATCH", Prefix+"/operations/"+op, operatorEmail, `{"timeoutMs":10}`).WantError(t, 409, apierr.AdmImmutable)
		}

		// Rollback to version 1: it is active again, version 2 inactive.
		rev = api.revision()
		api.Do("POST", base+d1.Version.VersionID+":rollback", operatorEmail, "").WantStatus(t, 200).Decode(t, &act)
		statuses, _ = api.versionStatuses(svc.ServiceID)
		if statuses[d1.Version.VersionID] != model.VersionActive || statuses[d2.Version.VersionID] != model.VersionInactive ||
			*act.Service.ActiveVersionID != d1.Version.VersionID || api.revision() != rev+1 {
			t.Errorf("after rollback: %v, service %v", statuses, act.Service.ActiveVersionID)
		}
		api.lastAudit("version.rollback", d1.Version.VersionID)
		// Rollback with a body: path = active version, body = target.
		api.Do("POST", base+d1.Version.VersionID+":rollback", operatorEmail, jsonBody(t, map[string]string{"targetVersionId": d2.Version.VersionID})).
			WantStatus(t, 200)
		statuses, _ = api.versionStatuses(svc.ServiceID)
		if statuses[d2.Version.VersionID] != model.VersionActive {
			t.Errorf("after body rollback: %v", statuses)
		}
		// Rollback refusals: to the active version, to a draft, from a
		// version that is not active with a body target.
		api.Do("POST", base+d2.Version.VersionID+":rollback", operatorEmail, "").WantError(t, 409, apierr.AdmImmutable)
		var d3 draftResult
		api.Do("POST", Prefix+"/services/"+svc.ServiceID+"/versions", operatorEmail, "").WantStatus(t, 201).Decode(t, &d3)
		if d3.Operations[0].RestPath != "/sum" || d3.Operations[0].TimeoutMs == nil || *d3.Operations[0].TimeoutMs != 5000 {
			t.Errorf("draft cloned from version 2 lost its edits: %+v", d3.Operations[0])
		}
		api.Do("POST", base+d3.Version.VersionID+":rollback", operatorEmail, "").WantError(t, 409, apierr.AdmImmutable)
		api.Do("POST", base+d1.Version.VersionID+":rollback", operatorEmail, jsonBody(t, map[string]string{"targetVersionId": d2.Version.VersionID})).WantError(
			t, 409, apierr.AdmImmutable)

		api.Do("POST", base+"nope:activate", operatorEmail, "").WantError(t, 404, apierr.AdmNotFound)
		api.Do("POST", base+d1.Version.VersionID+":explode", operatorEmail, "").WantError(t, 404, apierr.AdmNotFound)
		api.Do("POST", base+d1.Version.VersionID+":rollback", readerEmail, "").WantStatus(t, http.StatusForbidden)
	})
}

func TestActivateBlocked(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		// A publish service without a backend profile is BLOCKED.
		art := api.importXML(calcWSDL(calcOps))
		pub := api.createService(map[string]any{"serviceKey": "calc", "environment": "dev"})
		pd := api.draftFrom(pub.ServiceID, art)
		r := api.Do("POST", Prefix+"/services/"+pub.ServiceID+"/versions/"+pd.Version.VersionID+":activate", operatorEmail, "")
		e := r.WantError(t, 409, apierr.AdmImmutable)
		if e.Error.Details["readiness"] != catalog.Blocked {
			t.Errorf("details = %v", e.Error.Details)
		}
		if ev := api.lastAudit("version.activate", pd.Version.VersionID); ev.Result != model.AuditFailure {
			t.Errorf("refused activation audit = %+v", ev)
		}

		// A duplicate REST route blocks a consume draft.
		svc, d := api.consumeDraft("calc", calcOps)
		base := Prefix + "/services/" + svc.ServiceID + "/versions/" + d.Version.VersionID
		api.Do("PATCH", Prefix+"/operations/"+d.Operations[1].OperationID, operatorEmail, `{"restPath":"/add"}`).WantFieldError(
			t, 409, apierr.AdmAlreadyExists, "restPath")

		// Force the conflict in the store, as an older release might have
		// left it, to see readiness block it.
		op := d.Operations[1]
		op.RestPath = "/add/"
		if err := st.Transact(t.Context(), func(tx *store.Tx) error { return tx.UpdateOperation(t.Context(), op) }); err != nil {
			t.Fatal(err)
		}
		var rd readinessResult
		api.Do("GET", base+"/publish-readiness", readerEmail, "").WantStatus(t, 200).Decode(t, &rd)
		if rd.Status != catalog.Blocked || rd.BlockingIssues[0].Code != "DUPLICATE_REST_ROUTE" || len(rd.SuggestedActions) == 0 {
			t.Errorf("readiness = %+v", rd)
		}
		rev := api.revision()
		e = api.Do("POST", base+":activate", operatorEmail, "").WantError(t, 409, apierr.AdmImmutable)
		if issues, _ := e.Error.Details["blockingIssues"].([]any); len(issues) == 0 {
			t.Errorf("no blockingIssues in %v", e.Error.Details)
		}
		if api.revision() != rev {
			t.Error("a refused activation bumped the revision")
		}
		statuses, _ := api.versionStatuses(svc.ServiceID)
		if statuses[d.Version.VersionID] != model.VersionDraft {
			t.Errorf("refused activation changed the status: %v", statuses)
		}
	})
}

func TestCreateVersionErrors(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		svc := api.createService(map[string]any{"serviceKey": "calc", "environment": "dev"})
		path := Prefix + "/services/" + svc.ServiceID + "/versions"
		api.Do("POST", path, operatorEmail, "").WantFieldError(t, 400, apierr.ValBadRequest, "artifactId")
		api.Do("POST", path, operatorEmail, `{"artifactId":"nope"}`).WantFieldError(t, 400, apierr.ValBadRequest, "artifactId")
		api.Do("POST", path, operatorEmail, `{"artifactId":1}`).WantFieldError(t, 400, apierr.ValBadRequest, "artifactId")
		art := api.importXML(calcWSDL(calcOps))
		api.Do("POST", path, operatorEmail, jsonBody(t, map[string]any{"artifactId": art, "wsdlPort": "Nope"})).WantFieldError(
			t, 400, apierr.ValBadRequest, "wsdlPort")

		api.Do("POST", Prefix+"/services/nope/versions", operatorEmail, "").WantError(t, 404, apierr.AdmNotFound)
		api.draftFrom(svc.ServiceID, art)
		api.Do("POST", path, operatorEmail, jsonBody(t, map[string]any{"artifactId": art})).WantError(t, 409, apierr.AdmImmutable)
	})
}

// TestDriftAndReplacementDraft: drift compares a version with the newer
// imports attached to its own service, and a replacement draft keeps the
// settings of the operations that still exist.
func TestDriftAndReplacementDraft(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		svc, d := api.consumeDraft("calc", calcOps)
		versions := Prefix + "/services/" + svc.ServiceID + "/versions/"
		base := versions + d.Version.VersionID
		var dr driftResult
		api.Do("GET", base+"/wsdl-drift", readerEmail, "").WantStatus(t, 200).Decode(t, &dr)
		if dr.Status != catalog.Untracked {
			t.Errorf("drift without newer import = %+v", dr)
		}
		api.Do("POST", base+":generate-replacement-draft", operatorEmail, "").WantError(t, 409, apierr.AdmImmutable)
		// Customize, then activate version 1.
		add := d.Operations[0].OperationID
		api.Do("PATCH", Prefix+"/operations/"+add, operatorEmail, `{"restMethod":"PUT","restPath":"/sum/{a}","timeoutMs":700,"retryCount":2,"operationKey":"multiply"}`).WantStatus(t, 200)
		api.Do("PATCH", Prefix+"/operations/"+add+"/validation-rules", operatorEmail, `{"rules":[{"field":"/a","pattern":"^[0-9]+$","target":"request"}]}`).WantStatus(t, 200)
		api.Do("POST", base+":activate", operatorEmail, "").WantStatus(t, 200)

		// An additive import attached to the service: a new optional field
		// and a new operation.
		additive := append([]wsdlOp{}, calcOps...)
		additive[2] = wsdlOp{name: "GetInfo", action: "urn:GetInfo", in: []wsdlField{{"id", "xs:string", 1}, {"lang", "xs:string", 0}, {"region", "xs:string", 0}},
			out: []wsdlField{{"name", "xs:string", 0}}}
		additive = append(additive, wsdlOp{name: "Multiply", action: "urn:Multiply", in: []wsdlField{{"a", "xs:int", 1}}, out: []wsdlField{{"result", "xs:int", 1}}})
		additiveArt := api.importXML(calcWSDL(additive))
		v2 := api.draftFrom(svc.ServiceID, additiveArt)
		api.Do("GET", base+"/wsdl-drift", readerEmail, "").WantStatus(t, 200).Decode(t, &dr)
		if dr.Status != catalog.DriftDetected || len(dr.Changes) != 2 || dr.ComparedArtifactID == nil || *dr.ComparedArtifactID != additiveArt {
			t.Errorf("additive drift = %+v", dr)
		}
		api.Do("POST", base+":generate-replacement-draft", operatorEmail, "").WantError(t, 409, apierr.AdmImmutable)
		api.Do("POST", versions+v2.Version.VersionID+":activate", operatorEmail, "").WantStatus(t, 200)

		// A breaking import: Subtract removed, Add.b retyped, GetInfo
		// gains a required field.
		breaking := []wsdlOp{
			{name: "Add", action: "urn:Add", in: []wsdlField{{"a", "xs:int", 1}, {"b", "xs:decimal", 1}}, out: []wsdlField{{"result", "xs:int", 1}}},
			{name: "GetInfo", action: "urn:GetInfo", in: []wsdlField{{"id", "xs:string", 1}, {"lang", "xs:string", 0}, {"tenant", "xs:string", 1}}, out: []wsdlField{{"name", "xs:string", 0}}},
			{name: "Multiply", action: "urn:Multiply", in: []wsdlField{{"a", "xs:int", 1}}, out: []wsdlField{{"result", "xs:int", 1}}},
		}
		v3 := api.draftFrom(svc.ServiceID, api.importXML(calcWSDL(breaking)))
		api.Do("GET", base+"/wsdl-drift", readerEmail, "").WantStatus(t, 200).Decode(t, &dr)
		kinds := map[string]bool{}
		for _, c := range dr.Changes {
			kinds[c.Kind] = true
		}
		if dr.Status != catalog.BreakingDrift || !kinds[catalog.ChangeOperationRemoved] || !kinds[catalog.ChangeFieldRetyped] || !kinds[catalog.ChangeRequiredAdded] {
			t.Errorf("breaking drift = %+v", dr)
		}

		// Version 3 goes live, then back to version 1: a replacement draft
		// of version 1 from the newest import keeps the settings of Add.
		api.Do("POST", versions+v3.Version.VersionID+":activate", operatorEmail, "").WantStatus(t, 200)
		api.Do("POST", base+":rollback", operatorEmail, "").WantStatus(t, 200)
		var rep draftResult
		api.Do("POST", base+":generate-replacement-draft", operatorEmail, "").WantStatus(t, 201).Decode(t, &rep)
		if len(rep.Operations) != 3 || rep.Version.VersionNumber != 4 {
			t.Fatalf("replacement = %+v", rep)
		}
		got := rep.Operations[0]
		if got.SOAPOperationName != "Add" || got.RestMethod != "PUT" || got.RestPath != "/sum/{a}" || *got.TimeoutMs != 700 ||
			*got.RetryCount != 2 || len(got.ValidationRules) != 1 {
			t.Errorf("kept settings = %+v", got)
		}
		if rep.Operations[1].RestPath != "/get-info" || rep.Operations[1].TimeoutMs != nil {
			t.Errorf("GetInfo = %+v", rep.Operations[1])
		}
		// The new Multiply gives way to the key Add kept.
		if got.OperationKey != "multiply" || rep.Operations[2].OperationKey != "multiply-2" || rep.Operations[2].RestPath != "/multiply-2" {
			t.Errorf("keys = %s, %s %s", got.OperationKey, rep.Operations[2].OperationKey, rep.Operations[2].RestPath)
		}
		api.Do("POST", base+":generate-replacement-draft", operatorEmail, "").WantError(t, 409, apierr.AdmImmutable)
	})
}

// TestDriftIgnoresOtherServicesImports is the regression test of issue 24:
// a broken copy of a live service's WSDL, onboarded by autopilot under
// another service key (and another copy imported for no service), must
// neither flag the live service nor seed its replacement draft.
func TestDriftIgnoresOtherServicesImports(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		autopilot := func(key string, ops []wsdlOp) autopilotResult {
			var res autopilotResult
			api.Do("POST", Prefix+"/wsdl/import-xml:autopilot", operatorEmail, xmlBody(t, calcWSDL(ops), nil,
				map[string]any{"environment": "dev", "serviceKey": key, "direction": "consume"})).WantStatus(t, 201).Decode(t, &res)
			return res
		}
		live := autopilot("calc", calcOps)
		base := Prefix + "/services/" + live.Service.ServiceID + "/versions/" + live.Version.VersionID
		api.Do("POST", base+":activate", operatorEmail, "").WantStatus(t, 200)

		broken := []wsdlOp{calcOps[0]} // every other operation removed
		broken[0].in = []wsdlField{{"a", "xs:string", 1}}
		copyOf := autopilot("calc-broken", broken)
		api.importXML(calcWSDL(broken)) // and one more copy, for no service

		var dr driftResult
		api.Do("GET", base+"/wsdl-drift", readerEmail, "").WantStatus(t, 200).Decode(t, &dr)
		if dr.Status != catalog.Untracked || dr.ComparedArtifactID != nil || len(dr.Changes) != 0 {
			t.Errorf("live service drift = %+v, want UNTRACKED: the broken copy is not its import", dr)
		}
		api.Do("POST", base+":generate-replacement-draft", operatorEmail, "").WantError(t, 409, apierr.AdmImmutable)

		// The copy's own service is not flagged by the live service's
		// older import either.
		copyBase := Prefix + "/services/" + copyOf.Service.ServiceID + "/versions/" + copyOf.Version.VersionID
		api.Do("GET", copyBase+"/wsdl-drift", readerEmail, "").WantStatus(t, 200).Decode(t, &dr)
		if dr.Status != catalog.Untracked {
			t.Errorf("copy drift = %+v", dr)
		}
	})
}
