package admin

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

func TestServiceCreateValidation(t *testing.T) {
	api := newTestAPI(t, storetest.SQLite(t))
	tests := []struct {
		name, body, field string
	}{
		{"no key", `{"environment":"dev"}`, "serviceKey"},
		{"no environment", `{"serviceKey":"calc"}`, "environment"},
		{"upper-case key", `{"serviceKey":"Calc","environment":"dev"}`, "serviceKey"},
		{"leading dash", `{"serviceKey":"-calc","environment":"dev"}`, "serviceKey"},
		{"key too long", `{"serviceKey":"` + string(make64('a')) + `","environment":"dev"}`, "serviceKey"},
		{"bad environment", `{"serviceKey":"calc","environment":"d v"}`, "environment"},
		{"key not string", `{"serviceKey":5,"environment":"dev"}`, "serviceKey"},
		{"bad direction", `{"serviceKey":"calc","environment":"dev","direction":"both"}`, "direction"},
		{"deprecated status", `{"serviceKey":"calc","environment":"dev","status":"deprecated"}`, "status"},
		{"unknown status", `{"serviceKey":"calc","environment":"dev","status":"paused"}`, "status"},
		{"unknown field", `{"serviceKey":"calc","environment":"dev","colour":"red"}`, "colour"},
		{"default profile", `{"serviceKey":"calc","environment":"dev","defaultBackendProfileId":"p1"}`, "defaultBackendProfileId"},
		{"debug not bool", `{"serviceKey":"calc","environment":"dev","debugEnabled":"yes"}`, "debugEnabled"},
		{"routing mode", `{"serviceKey":"calc","environment":"dev","backendRoutingMode":"random"}`, "backendRoutingMode"},
		{"health mode", `{"serviceKey":"calc","environment":"dev","backendHealthCheckMode":"http"}`, "backendHealthCheckMode"},
		{"interval low", `{"serviceKey":"calc","environment":"dev","backendHealthCheckIntervalSec":1}`, "backendHealthCheckIntervalSec"},
		{"interval fraction", `{"serviceKey":"calc","environment":"dev","backendHealthCheckIntervalSec":30.5}`, "backendHealthCheckIntervalSec"},
		{"fault mode", `{"serviceKey":"calc","environment":"dev","faultDetailExposureMode":"none"}`, "faultDetailExposureMode"},
		{"callback mode", `{"serviceKey":"calc","environment":"dev","callbackAuthMode":"hmac"}`, "callbackAuthMode"},
		{"envelope not object", `{"serviceKey":"calc","environment":"dev","envelopeWrapOverride":"data"}`, "envelopeWrapOverride"},
		{"envelope no field", `{"serviceKey":"calc","environment":"dev","envelopeWrapOverride":{"include":{}}}`, "envelopeWrapOverride.dataField"},
		{"envelope include", `{"serviceKey":"calc","environment":"dev","envelopeWrapOverride":{"dataField":"data","include":{"secret":true}}}`, "envelopeWrapOverride.include.secret"},
		{"error shape array", `{"serviceKey":"calc","environment":"dev","errorShapeOverride":[1]}`, "errorShapeOverride"},
		{"error placeholder", `{"serviceKey":"calc","environment":"dev","errorShapeOverride":{"e":"${stack}"}}`, "errorShapeOverride.e"},
		{"details inside text", `{"serviceKey":"calc","environment":"dev","errorShapeOverride":{"e":"x ${details}"}}`, "errorShapeOverride.e"},
		{"empty name", `{"serviceKey":"calc","environment":"dev","serviceName":"  "}`, "serviceName"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := api.revision()
			api.Do("POST", Prefix+"/services", operatorEmail, tc.body).WantFieldError(t, 400, apierr.ValBadRequest, tc.field)
			if api.revision() != before {
				t.Error("revision bumped by a refused create")
			}
		})
	}
	page, err := api.store.Services(t.Context(), model.ServiceFilter{Page: model.PageRequest{Page: 1, PageSize: 10}})
	if err != nil || page.TotalItems != 0 {
		t.Errorf("services after refused creates: %+v, %v", page, err)
	}
}

func make64(c byte) []byte {
	b := make([]byte, 64)
	for i := range b {
		b[i] = c
	}
	return b
}

func TestServiceLifecycle(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		rev := api.revision()
		svc := api.createService(map[string]any{"serviceKey": "calc", "environment": "dev", "serviceName": "Calculator",
			"envelopeWrapOverride": map[string]any{"dataField": "data", "include": map[string]any{"correlationId": true}},
			"errorShapeOverride":   map[string]any{"error": "${code}", "detail": "${details}"}})
		if svc.Status != model.ServiceActive || svc.Direction != model.DirectionPublish || svc.BackendHealthCheckIntervalSec != 30 ||
			svc.BackendRoutingMode != "single" || svc.FaultDetailExposureMode != "safe" || string(svc.EnvelopeWrapOverride) != `{"dataField":"data","include":{"correlationId":true}}` {
			t.Errorf("created service = %+v", svc)
		}
		if api.revision() != rev+1 {
			t.Errorf("revision %d after create, want %d", api.revision(), rev+1)
		}
		if ev := api.lastAudit("service.create", svc.ServiceID); ev.BeforeState != nil || ev.AfterState == nil || ev.ActorEmail != operatorEmail {
			t.Errorf("create audit = %+v", ev)
		}
		// Duplicate route key; the same key in another direction is fine.
		api.Do("POST", Prefix+"/services", operatorEmail, `{"serviceKey":"calc","environment":"dev"}`).WantFieldError(
			t, 409, apierr.AdmAlreadyExists, "serviceKey")

		api.createService(map[string]any{"serviceKey": "calc", "environment": "dev", "direction": "consume"})

		path := Prefix + "/services/" + svc.ServiceID
		var got model.Service
		api.Do("GET", path, readerEmail, "").WantStatus(t, 200).Decode(t, &got)
		if got.ServiceID != svc.ServiceID {
			t.Errorf("GET = %+v", got)
		}
		// SPEC 3.2: any → disabled → active by PATCH; DELETE → deprecated;
		// PATCH active again from deprecated.
		for _, step := range []struct {
			method, body, status string
		}{
			{"PATCH", `{"status":"disabled","debugEnabled":true,"description":"d"}`, model.ServiceDisabled},
			{"PATCH", `{"status":"active"}`, model.ServiceActive},
			{"DELETE", ``, model.ServiceDeprecated},
			{"PATCH", `{"status":"disabled"}`, model.ServiceDisabled},
			{"DELETE", ``, model.ServiceDeprecated},
			{"PATCH", `{"status":"active"}`, model.ServiceActive},
		} {
			rev := api.revision()
			var after model.Service
			api.Do(step.method, path, operatorEmail, step.body).WantStatus(t, 200).Decode(t, &after)
			if after.Status != step.status {
				t.Errorf("%s %s: status %s, want %s", step.method, step.body, after.Status, step.status)
			}
			action := "service.update"
			if step.method == "DELETE" {
				action = "service.delete"
			}
			ev := api.lastAudit(action, svc.ServiceID)
			var before, aft model.Service
			json.Unmarshal(ev.BeforeState, &before)
			json.Unmarshal(ev.AfterState, &aft)
			if aft.Status != step.status || before.ServiceID != svc.ServiceID {
				t.Errorf("%s audit before %s after %s", step.method, before.Status, aft.Status)
			}
			if api.revision() != rev+1 {
				t.Errorf("%s: revision not bumped", step.method)
			}
		}
		// PATCH refusals.
		for _, tc := range []struct{ body, field string }{
			{`{"serviceKey":"other"}`, "serviceKey"},
			{`{"environment":"prod"}`, "environment"},
			{`{"direction":"gateway"}`, "direction"},
			{`{"status":"deprecated"}`, "status"},
			{`{"status":null}`, "status"},
		} {
			api.Do("PATCH", path, operatorEmail, tc.body).WantFieldError(t, 400, apierr.ValBadRequest, tc.field)
		}
		// null clears the nullable members.
		api.Do("PATCH", path, operatorEmail, `{"defaultBackendProfileId":"p1"}`).WantFieldError(t, 400, apierr.ValBadRequest, "defaultBackendProfileId")
		at := time.Now()
		p := model.BackendProfile{ProfileID: "p1", ServiceID: svc.ServiceID, Name: "main", EndpointURL: "http://10.0.0.5/calc",
			AuthType: model.AuthNone, CreatedAt: at, UpdatedAt: at}
		model.ApplyBackendDefaults(&p)
		if err := st.Transact(t.Context(), func(tx *store.Tx) error { return tx.CreateBackendProfile(t.Context(), p) }); err != nil {
			t.Fatal(err)
		}
		api.Do("PATCH", path, operatorEmail, `{"envelopeWrapOverride":null,"defaultBackendProfileId":"p1","backendHealthCheckMode":"tcp"}`).
			WantStatus(t, 200).Decode(t, &got)
		if string(got.EnvelopeWrapOverride) != "null" || got.DefaultBackendProfileID == nil || *got.DefaultBackendProfileID != "p1" {
			t.Errorf("after PATCH = %+v", got)
		}
		// SPEC 3.2: an active service cannot be hard-deleted.
		api.Do("DELETE", path+":hard-delete", adminEmail, "").WantError(t, 409, apierr.AdmImmutable)
		api.Do("DELETE", path+":hard-delete", operatorEmail, "").WantError(t, 403, apierr.AdmForbidden)
		api.Do("DELETE", path, operatorEmail, "").WantStatus(t, 200)
		rev = api.revision()
		api.Do("DELETE", path+":hard-delete", adminEmail, "").WantStatus(t, 204)
		if api.revision() != rev+1 {
			t.Error("hard delete did not bump the revision")
		}
		if ev := api.lastAudit("service.hard_delete", svc.ServiceID); ev.BeforeState == nil || ev.AfterState != nil {
			t.Errorf("hard delete audit = %+v", ev)
		}
		api.Do("GET", path, readerEmail, "").WantError(t, 404, apierr.AdmNotFound)
		api.Do("DELETE", path+":hard-delete", adminEmail, "").WantError(t, 404, apierr.AdmNotFound)
		api.Do("PATCH", path, operatorEmail, `{}`).WantError(t, 404, apierr.AdmNotFound)
	})
}

func TestServiceHardDeleteRemovesDependants(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		svc, d := api.consumeDraft("calc", calcOps)
		api.Do("PATCH", Prefix+"/services/"+svc.ServiceID, operatorEmail, `{"status":"disabled"}`).WantStatus(t, 200)
		at := time.Now()
		p := model.BackendProfile{ProfileID: "p1", ServiceID: svc.ServiceID, Name: "main", EndpointURL: "http://10.0.0.5/calc",
			AuthType: model.AuthNone, CreatedAt: at, UpdatedAt: at}
		model.ApplyBackendDefaults(&p)
		if err := st.Transact(t.Context(), func(tx *store.Tx) error { return tx.CreateBackendProfile(t.Context(), p) }); err != nil {
			t.Fatal(err)
		}
		tables := []string{"services", "service_versions", "operations", "mappings", "backend_profiles"}
		before := tableCounts(t, st, tables...)
		if before["operations"] != 3 || before["mappings"] != 3 || before["backend_profiles"] != 1 {
			t.Fatalf("before = %v", before)
		}
		api.Do("DELETE", Prefix+"/services/"+svc.ServiceID+":hard-delete", adminEmail, "").WantStatus(t, 204)
		after := tableCounts(t, st, tables...)
		for tbl, n := range after {
			if n != 0 {
				t.Errorf("%s: %d rows left after hard delete", tbl, n)
			}
		}
		api.Do("GET", Prefix+"/operations/"+d.Operations[0].OperationID+"/mapping", readerEmail, "").WantError(t, 404, apierr.AdmNotFound)
	})
}

func TestServiceListFilters(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		for _, m := range []map[string]any{
			{"serviceKey": "calc", "environment": "dev", "serviceName": "Calculator"},
			{"serviceKey": "calc", "environment": "prod"},
			{"serviceKey": "weather", "environment": "dev", "direction": "consume", "serviceName": "Weather 100%"},
			{"serviceKey": "country-info", "environment": "dev", "status": "disabled"},
		} {
			api.createService(m)
		}
		tests := []struct {
			query string
			keys  []string
		}{
			{"", []string{"calc", "country-info", "weather", "calc"}},
			{"?q=CALC", []string{"calc", "calc"}},
			{"?q=lator", []string{"calc"}},
			{"?q=100%25", []string{"weather"}},
			{"?q=_", nil},
			{"?environment=prod", []string{"calc"}},
			{"?direction=consume", []string{"weather"}},
			{"?status=disabled", []string{"country-info"}},
			{"?traffic=without&environment=dev", []string{"calc", "country-info", "weather"}},
			{"?traffic=with", nil},
			{"?pageSize=2&page=2", []string{"weather", "calc"}},
		}
		for _, tc := range tests {
			t.Run(tc.query, func(t *testing.T) {
				var page model.ObservabilityPageRecord[model.Service]
				api.Do("GET", Prefix+"/services"+tc.query, readerEmail, "").WantStatus(t, 200).Decode(t, &page)
				var keys []string
				for _, s := range page.Items {
					keys = append(keys, s.ServiceKey)
				}
				if len(keys) != len(tc.keys) {
					t.Fatalf("keys = %v, want %v", keys, tc.keys)
				}
				for i := range keys {
					if keys[i] != tc.keys[i] {
						t.Errorf("keys = %v, want %v", keys, tc.keys)
					}
				}
			})
		}
		for _, q := range []struct{ query, field string }{
			{"?traffic=some", "traffic"}, {"?direction=x", "direction"}, {"?status=gone", "status"}, {"?pageSize=0", "pageSize"},
		} {
			api.Do("GET", Prefix+"/services"+q.query, readerEmail, "").WantFieldError(t, 400, apierr.ValBadRequest, q.field)
		}
	})
}

func TestServiceBulkAction(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		a := api.createService(map[string]any{"serviceKey": "a", "environment": "dev"})
		b := api.createService(map[string]any{"serviceKey": "b", "environment": "dev"})
		run := func(action string, ids ...string) bulkResult {
			t.Helper()
			var res bulkResult
			api.Do("POST", Prefix+"/services:bulk-action", operatorEmail, jsonBody(t, map[string]any{"action": action, "serviceIds": ids})).
				WantStatus(t, 200).Decode(t, &res)
			return res
		}
		res := run("disable", a.ServiceID, "missing", b.ServiceID, a.ServiceID)
		if res.Summary["requested"] != 3 || res.Summary["succeeded"] != 2 || res.Summary["failed"] != 1 {
			t.Errorf("summary = %v", res.Summary)
		}
		if res.Items[1].Result != "error" || res.Items[1].Error.Code != apierr.AdmNotFound || res.Items[0].Status != "disabled" {
			t.Errorf("items = %+v", res.Items)
		}
		for _, step := range []struct {
			action string
			check  func(model.Service) bool
		}{
			{"debug_on", func(s model.Service) bool { return s.DebugEnabled }},
			{"debug_off", func(s model.Service) bool { return !s.DebugEnabled }},
			{"enable", func(s model.Service) bool { return s.Status == model.ServiceActive }},
			{"delete", func(s model.Service) bool { return s.Status == model.ServiceDeprecated }},
		} {
			run(step.action, a.ServiceID, b.ServiceID)
			for _, id := range []string{a.ServiceID, b.ServiceID} {
				s, err := st.Service(t.Context(), id)
				if err != nil || !step.check(s) {
					t.Errorf("%s: %+v %v", step.action, s, err)
				}
			}
		}
		if ev := api.lastAudit("service.delete", b.ServiceID); ev.Result != model.AuditSuccess {
			t.Errorf("bulk delete audit = %+v", ev)
		}
		for _, body := range []struct{ body, field string }{
			{`{"action":"purge","serviceIds":["x"]}`, "action"},
			{`{"action":"enable","serviceIds":[]}`, "serviceIds"},
			{`{"action":"enable"}`, "serviceIds"},
		} {
			api.Do("POST", Prefix+"/services:bulk-action", operatorEmail, body.body).WantFieldError(t, 400, apierr.ValBadRequest, body.field)
		}
		api.Do("POST", Prefix+"/services:bulk-action", readerEmail, `{}`).WantStatus(t, http.StatusForbidden)
	})
}
