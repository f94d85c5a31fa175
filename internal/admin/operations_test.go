package admin

import (
	"context"
	"net/http"
	"testing"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/catalog"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

func TestOperationPatch(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		svc, d := api.consumeDraft("calc", calcOps)
		var list operationList
		api.Do("GET", Prefix+"/services/"+svc.ServiceID+"/versions/"+d.Version.VersionID+"/operations", readerEmail, "").
			WantStatus(t, 200).Decode(t, &list)
		if len(list.Items) != 3 || list.Items[2].OperationKey != "get-info" || list.Items[2].SOAPAction != "urn:GetInfo" {
			t.Fatalf("operations = %+v", list.Items)
		}
		path := Prefix + "/operations/" + d.Operations[2].OperationID
		tests := []struct {
			name, body string
			status     int
			code       string
			field      string
		}{
			{"bad method", `{"restMethod":"TRACE"}`, 400, apierr.ValBadRequest, "restMethod"},
			{"lower-case method", `{"restMethod":"get"}`, 400, apierr.ValBadRequest, "restMethod"},
			{"relative path", `{"restPath":"info"}`, 400, apierr.ValBadRequest, "restPath"},
			{"dot segment", `{"restPath":"/a/../b"}`, 400, apierr.ValBadRequest, "restPath"},
			{"query in path", `{"restPath":"/a?b=1"}`, 400, apierr.ValBadRequest, "restPath"},
			{"unknown param", `{"restPath":"/info/{nope}"}`, 400, apierr.ValBadRequest, "restPath"},
			{"partial param", `{"restPath":"/info-{id}"}`, 400, apierr.ValBadRequest, "restPath"},
			{"timeout zero", `{"timeoutMs":0}`, 400, apierr.ValBadRequest, "timeoutMs"},
			{"timeout huge", `{"timeoutMs":600001}`, 400, apierr.ValBadRequest, "timeoutMs"},
			{"timeout string", `{"timeoutMs":"5"}`, 400, apierr.ValBadRequest, "timeoutMs"},
			{"retry high", `{"retryCount":11}`, 400, apierr.ValBadRequest, "retryCount"},
			{"retry negative", `{"retryCount":-1}`, 400, apierr.ValBadRequest, "retryCount"},
			{"execution mode", `{"executionMode":"async"}`, 400, apierr.ValBadRequest, "executionMode"},
			{"validation mode", `{"responseValidation":"lenient"}`, 400, apierr.ValBadRequest, "responseValidation"},
			{"validation mode type", `{"responseValidation":1}`, 400, apierr.ValBadRequest, "responseValidation"},
			{"bad key", `{"operationKey":"Get Info"}`, 400, apierr.ValBadRequest, "operationKey"},
			{"unknown member", `{"soapAction":"x"}`, 400, apierr.ValBadRequest, "soapAction"},
			{"same route", `{"restPath":"/subtract"}`, 409, apierr.AdmAlreadyExists, "restPath"},
			{"templated same route", `{"restPath":"/x/{id}"}`, 200, "", ""},
			{"same key", `{"operationKey":"add"}`, 409, apierr.AdmAlreadyExists, "operationKey"},
			{"missing", ``, 0, "", ""},
		}
		// Make Add serve POST /x/{a} so that /x/{id} conflicts once GetInfo uses it.
		api.Do("PATCH", Prefix+"/operations/"+d.Operations[0].OperationID, operatorEmail, `{"restPath":"/x/{a}","restMethod":"POST"}`).WantStatus(t, 200)
		for _, tc := range tests {
			if tc.status == 0 {
				continue
			}
			t.Run(tc.name, func(t *testing.T) {
				rev := api.revision()
				r := api.Do("PATCH", path, operatorEmail, tc.body)
				if tc.name == "templated same route" {
					r.WantFieldError(t, 409, apierr.AdmAlreadyExists, "restPath")
					return
				}
				if tc.status == 200 {
					r.WantStatus(t, 200)
					return
				}
				r.WantFieldError(t, tc.status, tc.code, tc.field)
				if api.revision() != rev {
					t.Error("refused PATCH bumped the revision")
				}
			})
		}
		var op model.Operation
		api.Do("PATCH", path, operatorEmail, `{"restMethod":"GET","restPath":"/info/{id}","timeoutMs":1500,"retryCount":3,"executionMode":"async_callback","operationKey":"info"}`).
			WantStatus(t, 200).Decode(t, &op)
		if op.RestMethod != "GET" || op.RestPath != "/info/{id}" || *op.TimeoutMs != 1500 || *op.RetryCount != 3 || op.OperationKey != "info" ||
			op.ResponseValidation != model.ValidationStrict {
			t.Errorf("patched = %+v", op)
		}
		for _, mode := range model.ValidationModes {
			api.Do("PATCH", path, operatorEmail, `{"responseValidation":"`+mode+`"}`).WantStatus(t, 200).Decode(t, &op)
			if got, _ := st.Operation(context.Background(), op.OperationID); op.ResponseValidation != mode || got.ResponseValidation != mode {
				t.Errorf("responseValidation %s: answered %q, stored %q", mode, op.ResponseValidation, got.ResponseValidation)
			}
		}
		ev := api.lastAudit("operation.update", op.OperationID)
		if ev.BeforeState == nil || ev.AfterState == nil {
			t.Errorf("audit = %+v", ev)
		}
		api.Do("PATCH", path, operatorEmail, `{"timeoutMs":null,"retryCount":null}`).WantStatus(t, 200).Decode(t, &op)
		if op.TimeoutMs != nil || op.RetryCount != nil {
			t.Errorf("null did not reset: %+v", op)
		}
		api.Do("PATCH", Prefix+"/operations/nope", operatorEmail, `{}`).WantError(t, 404, apierr.AdmNotFound)
	})
}

func TestValidationAndTransformRules(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		svc, d := api.consumeDraft("calc", calcOps)
		vpath := Prefix + "/operations/" + d.Operations[2].OperationID + "/validation-rules"
		tpath := Prefix + "/operations/" + d.Operations[2].OperationID + "/transform-rules"
		var vr validationRulesBody
		api.Do("GET", vpath, readerEmail, "").WantStatus(t, 200).Decode(t, &vr)
		if vr.Rules == nil || len(vr.Rules) != 0 {
			t.Errorf("initial rules = %#v", vr.Rules)
		}
		for _, tc := range []struct{ name, body, field, reason string }{
			{"bad regex", `{"rules":[{"field":"/id","pattern":"^[a-z","target":"request"}]}`, "rules[0].pattern", "does not compile: missing closing ]: `[a-z`"},
			{"backreference", `{"rules":[{"field":"/id","pattern":"(a)\\1","target":"request"}]}`, "rules[0].pattern", "does not compile: invalid escape sequence: `\\1`"},
			{"bad target", `{"rules":[{"field":"/id","pattern":"x","target":"both"}]}`, "rules[0].target", "must be request or response"},
			{"unknown field", `{"rules":[{"field":"/id","pattern":"x","target":"request"},{"field":"/nope","pattern":"x","target":"request"}]}`, "rules[1].field", "names a field the request contract lacks"},
			{"response field", `{"rules":[{"field":"/id","pattern":"x","target":"response"}]}`, "rules[0].field", "names a field the response contract lacks"},
			{"not a pointer", `{"rules":[{"field":"id","pattern":"x","target":"request"}]}`, "rules[0].field", "must be a JSON Pointer such as /name or /items/*/sku"},
			{"no rules", `{}`, "rules", "is required (an empty list removes every rule)"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				e := api.Do("PATCH", vpath, operatorEmail, tc.body).WantFieldError(t, 400, apierr.ValBadRequest, tc.field)
				if e.Error.Details["reason"] != tc.reason {
					t.Errorf("reason = %q, want %q", e.Error.Details["reason"], tc.reason)
				}
			})
		}
		rev := api.revision()
		api.Do("PATCH", vpath, operatorEmail, `{"rules":[{"field":"/id","pattern":"^[A-Z]{2}$","target":"request","message":"two letters"},{"field":"/name","pattern":".+","target":"response"}]}`).
			WantStatus(t, 200).Decode(t, &vr)
		if len(vr.Rules) != 2 || vr.Rules[0].Message != "two letters" || api.revision() != rev+1 {
			t.Errorf("saved rules = %+v", vr.Rules)
		}
		api.lastAudit("operation.validation_rules.update", d.Operations[2].OperationID)

		for _, tc := range []struct{ name, body, kind string }{
			{"unknown kind", `{"rules":[{"kind":"trim","field":"/id"},{"kind":"explode","field":"/id"}]}`, "explode"},
			{"missing param", `{"rules":[{"kind":"rename","field":"/id"}]}`, "rename"},
			{"bad date", `{"rules":[{"kind":"date_format","field":"/id","params":{"from":"","to":"yyyy"}}]}`, "date_format"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				e := api.Do("PUT", tpath, operatorEmail, tc.body).WantStatus(t, 400).ErrorOf(t)
				if e.Error.Code != apierr.ValBadRequest || e.Error.Details["kind"] != tc.kind {
					t.Errorf("error = %+v", e.Error)
				}
			})
		}
		e := api.Do("PUT", tpath, operatorEmail, `{"rules":[{"kind":"trim","field":"/id"},{"kind":"explode","field":"/id"}]}`).ErrorOf(t)
		if e.Error.Details["index"] != float64(1) || e.Error.Details["field"] != "rules[1]" {
			t.Errorf("unknown kind details = %v", e.Error.Details)
		}
		var tr transformRulesBody
		api.Do("PUT", tpath, operatorEmail, `{"rules":[{"kind":"trim","field":"/id"},{"kind":"default_value","field":"/lang","params":{"value":"en"}}]}`).
			WantStatus(t, 200).Decode(t, &tr)
		api.Do("GET", tpath, readerEmail, "").WantStatus(t, 200).Decode(t, &tr)
		if len(tr.Rules) != 2 || tr.Rules[1].Kind != "default_value" {
			t.Errorf("transform rules = %+v", tr.Rules)
		}
		// Rules of an active version are immutable.
		api.Do("POST", Prefix+"/services/"+svc.ServiceID+"/versions/"+d.Version.VersionID+":activate", operatorEmail, "").WantStatus(t, 200)
		api.Do("PUT", tpath, operatorEmail, `{"rules":[]}`).WantError(t, 409, apierr.AdmImmutable)
		api.Do("PATCH", vpath, operatorEmail, `{"rules":[]}`).WantError(t, 409, apierr.AdmImmutable)
		api.Do("PATCH", vpath, readerEmail, `{"rules":[]}`).WantStatus(t, http.StatusForbidden)
	})
}

func TestMappingsAndDiagnostics(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		svc, d := api.consumeDraft("calc", calcOps)
		op := d.Operations[2].OperationID
		mpath := Prefix + "/operations/" + op + "/mapping"
		var m model.Mapping
		api.Do("GET", mpath, readerEmail, "").WantStatus(t, 200).Decode(t, &m)
		if m.MappingVersion != 1 || !m.Active || m.Source != model.MappingAuto || string(m.RequestMapping) != `{"mode":"identity"}` {
			t.Errorf("auto mapping = %+v", m)
		}
		// A mapping naming fields the contract lacks: 400 listing them.
		e := api.Do("PUT", mpath, operatorEmail, `{"requestMapping":{"rename":{"nope":"x","id":"code"},"omit":["lang/deep"]}}`).WantFieldError(
			t, 400, apierr.ValBadRequest, "requestMapping.nope")

		if u, _ := e.Error.Details["unknownFields"].([]any); len(u) != 2 || u[0] != "nope" || u[1] != "lang/deep" {
			t.Errorf("unknownFields = %v", e.Error.Details["unknownFields"])
		}
		api.Do("PUT", mpath, operatorEmail, `{"requestMapping":"x"}`).WantFieldError(t, 400, apierr.ValBadRequest, "requestMapping")
		api.Do("PUT", mpath, operatorEmail, `{"faultMapping":{"pick":["nothing"]}}`).WantFieldError(t, 400, apierr.ValBadRequest, "faultMapping.nothing")
		api.Do("PUT", mpath, operatorEmail, `{"requestMapping":{"restMethod":"GET","restPath":"/info/{nope}"}}`).WantFieldError(
			t, 400, apierr.ValBadRequest, "requestMapping.restPath")

		rev := api.revision()
		api.Do("PUT", mpath, operatorEmail, `{"requestMapping":{"rename":{"id":"code"},"restMethod":"GET","restPath":"/info/{id}","query":{"lang":"lang"}},"faultMapping":{"mode":"identity","rename":{}}}`).
			WantStatus(t, 200).Decode(t, &m)
		if m.MappingVersion != 2 || m.Source != model.MappingManual || string(m.ResponseMapping) != `{"mode":"identity"}` || api.revision() != rev+1 {
			t.Errorf("manual mapping = %+v", m)
		}
		ev := api.lastAudit("mapping.update", op)
		if ev.BeforeState == nil || ev.AfterState == nil {
			t.Errorf("mapping audit = %+v", ev)
		}
		var active int
		if err := st.Transact(t.Context(), func(tx *store.Tx) error {
			return tx.QueryRow(t.Context(), "SELECT COUNT(*) FROM mappings WHERE operation_id = $1", op).Scan(&active)
		}); err != nil || active != 2 {
			t.Errorf("mapping rows = %d, %v", active, err)
		}

		var od operationDiagnostics
		api.Do("GET", Prefix+"/operations/"+op+"/mapping-diagnostics", readerEmail, "").WantStatus(t, 200).Decode(t, &od)
		if od.Status != catalog.AutoReady || *od.MappingVersion != 2 || od.Reasons[0].Code != catalog.ReasonManualMapping {
			t.Errorf("diagnostics = %+v", od)
		}
		var sd serviceDiagnostics
		api.Do("GET", Prefix+"/services/"+svc.ServiceID+"/mapping-diagnostics", readerEmail, "").WantStatus(t, 200).Decode(t, &sd)
		if sd.VersionID != d.Version.VersionID || sd.Summary[catalog.AutoReady] != 3 || sd.Summary[catalog.ManualRequired] != 0 || len(sd.Items) != 3 {
			t.Errorf("service diagnostics = %+v", sd)
		}

		// Regenerate: auto mapping again, fault mapping kept.
		api.Do("POST", Prefix+"/operations/"+op+"/mapping:regenerate", operatorEmail, "").WantStatus(t, 200).Decode(t, &m)
		if m.MappingVersion != 3 || m.Source != model.MappingAuto || string(m.RequestMapping) != `{"mode":"identity"}` ||
			string(m.FaultMapping) != `{"mode":"identity","rename":{}}` {
			t.Errorf("regenerated = %+v", m)
		}
		var rr regenerateResult
		api.Do("POST", Prefix+"/services/"+svc.ServiceID+"/mapping:regenerate", operatorEmail, "").WantStatus(t, 200).Decode(t, &rr)
		if len(rr.Mappings) != 3 || rr.Mappings[2].MappingVersion != 4 || rr.Mappings[0].MappingVersion != 2 {
			t.Errorf("service regenerate = %+v", rr)
		}

		// Active version: mapping edits are 409, diagnostics default to it.
		api.Do("POST", Prefix+"/services/"+svc.ServiceID+"/versions/"+d.Version.VersionID+":activate", operatorEmail, "").WantStatus(t, 200)
		api.Do("PUT", mpath, operatorEmail, `{"requestMapping":{}}`).WantError(t, 409, apierr.AdmImmutable)
		api.Do("POST", Prefix+"/operations/"+op+"/mapping:regenerate", operatorEmail, "").WantError(t, 409, apierr.AdmImmutable)
		api.Do("POST", Prefix+"/services/"+svc.ServiceID+"/mapping:regenerate", operatorEmail, "").WantError(t, 409, apierr.AdmImmutable)
		api.Do("POST", Prefix+"/services/"+svc.ServiceID+"/mapping:regenerate?versionId="+d.Version.VersionID, operatorEmail, "").WantError(
			t, 409, apierr.AdmImmutable)

		api.Do("GET", Prefix+"/services/"+svc.ServiceID+"/mapping-diagnostics", readerEmail, "").WantStatus(t, 200).Decode(t, &sd)
		if sd.VersionID != d.Version.VersionID {
			t.Errorf("diagnosed version = %s", sd.VersionID)
		}
		api.Do("GET", Prefix+"/services/"+svc.ServiceID+"/mapping-diagnostics?versionId=nope", readerEmail, "").WantError(t, 404, apierr.AdmNotFound)
	})
}
