package admin

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
	"github.com/s2r-project/s2r/internal/tests/loopback"
)

func TestConsumerGrants(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		svc := api.createService(map[string]any{"serviceKey": "gw", "environment": "dev", "direction": "gateway"})
		path := Prefix + "/services/" + svc.ServiceID + "/consumer-grants"
		var g model.ConsumerGrants
		api.Do("GET", path, readerEmail, "").WantStatus(t, http.StatusOK).Decode(t, &g)
		if len(g.CIDRs) != 0 || g.UpdatedAt != nil {
			t.Errorf("initial grants = %+v", g)
		}
		rev := api.revision()
		api.Do("PUT", path, operatorEmail, `{"cidrs":["10.0.0.0/8"," 192.0.2.7 ","2001:db8::/32","10.0.0.0/8"]}`).
			WantStatus(t, http.StatusOK)
		api.Do("GET", path, readerEmail, "").WantStatus(t, http.StatusOK).Decode(t, &g)
		if diff := cmp.Diff([]string{"10.0.0.0/8", "192.0.2.7/32", "2001:db8::/32"}, g.CIDRs); diff != "" {
			t.Errorf("cidrs (-want +got):\n%s", diff)
		}
		if g.UpdatedBy != operatorEmail || g.UpdatedAt == nil || api.revision() != rev+1 {
			t.Errorf("grants = %+v, revision %d", g, api.revision())
		}
		ev := api.lastAudit("consumer_grants.update", svc.ServiceID)
		if !strings.Contains(string(ev.AfterState), "192.0.2.7/32") {
			t.Errorf("audit after = %s", ev.AfterState)
		}
		for _, tt := range []struct{ name, body, field string }{
			{"missing", `{}`, "cidrs"},
			{"not a cidr", `{"cidrs":["10.0.0.0/33"]}`, "cidrs[0]"},
			{"host bits", `{"cidrs":["192.0.2.0/24","10.1.2.3/8"]}`, "cidrs[1]"},
			{"name", `{"cidrs":["example.com"]}`, "cidrs[0]"},
			{"zone", `{"cidrs":["fe80::1%eth0"]}`, "cidrs[0]"},
			{"type", `{"cidrs":"10.0.0.0/8"}`, "cidrs"},
		} {
			t.Run(tt.name, func(t *testing.T) {
				api.Do("PUT", path, operatorEmail, tt.body).WantFieldError(t, http.StatusBadRequest, apierr.ValBadRequest, tt.field)
			})
		}
		api.Do("PUT", path, operatorEmail, `{"cidrs":[]}`).WantStatus(t, http.StatusOK)
		api.Do("GET", Prefix+"/services/nope/consumer-grants", readerEmail, "").WantError(t, http.StatusNotFound, apierr.AdmNotFound)
		api.Do("PUT", Prefix+"/services/nope/consumer-grants", operatorEmail, `{"cidrs":[]}`).WantError(
			t, http.StatusNotFound, apierr.AdmNotFound)

	})
}

func TestDatasetsAndMonitor(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		svc, _ := api.consumeDraft("calc", calcOps)
		base := Prefix + "/services/" + svc.ServiceID
		var d model.TestDataset
		api.Do("POST", base+"/test-datasets", operatorEmail, `{"name":"two and three","operationKey":"add","payload":{"a":2,"b":3}}`).
			WantStatus(t, http.StatusCreated).Decode(t, &d)
		if d.Name != "two and three" || string(d.Payload) != `{"a":2,"b":3}` || d.CreatedBy != operatorEmail {
			t.Errorf("dataset = %+v", d)
		}
		api.Do("POST", base+"/test-datasets", operatorEmail, `{"name":"two and three","payload":{}}`).WantFieldError(
			t, http.StatusConflict, apierr.AdmAlreadyExists, "name")

		for _, tt := range []struct{ name, body, field string }{
			{"no name", `{"payload":{}}`, "name"},
			{"array payload", `{"name":"x","payload":[1]}`, "payload"},
			{"no payload", `{"name":"x"}`, "payload"},
			{"bad key", `{"name":"x","operationKey":"a b","payload":{}}`, "operationKey"},
			{"unknown", `{"name":"x","payload":{},"extra":1}`, "extra"},
		} {
			t.Run("dataset "+tt.name, func(t *testing.T) {
				api.Do("POST", base+"/test-datasets", operatorEmail, tt.body).WantFieldError(t, http.StatusBadRequest, apierr.ValBadRequest, tt.field)
			})
		}
		var list []model.TestDataset
		api.Do("GET", base+"/test-datasets", readerEmail, "").WantStatus(t, http.StatusOK).Decode(t, &list)
		if len(list) != 1 || list[0].DatasetID != d.DatasetID {
			t.Errorf("datasets = %+v", list)
		}

		api.Do("GET", base+"/synthetic-monitor", readerEmail, "").WantError(t, http.StatusNotFound, apierr.AdmNotFound)
		var m model.SyntheticMonitor
		api.Do("POST", base+"/synthetic-monitor", operatorEmail, jsonBody(t, map[string]any{"enabled": true,
			"operationKey": "add", "datasetId": d.DatasetID})).WantStatus(t, http.StatusOK).Decode(t, &m)
		if !m.Enabled || m.IntervalSec != 60 || m.ExpectStatus != 200 || *m.DatasetID != d.DatasetID {
			t.Errorf("monitor = %+v", m)
		}
		api.Do("POST", base+"/synthetic-monitor", operatorEmail, `{"operationKey":"subtract","payload":{"a":1,"b":1},"intervalSec":30,"expectStatus":204}`).
			WantStatus(t, http.StatusOK)
		api.Do("GET", base+"/synthetic-monitor", readerEmail, "").WantStatus(t, http.StatusOK).Decode(t, &m)
		if m.Enabled || m.OperationKey != "subtract" || m.IntervalSec != 30 || m.ExpectStatus != 204 ||
			string(m.Payload) != `{"a":1,"b":1}` || m.DatasetID != nil {
			t.Errorf("monitor after replace = %+v", m)
		}
		for _, tt := range []struct{ name, body, field string }{
			{"no op", `{}`, "operationKey"},
			{"unknown op", `{"operationKey":"divide"}`, "operationKey"},
			{"interval", `{"operationKey":"add","intervalSec":5}`, "intervalSec"},
			{"status", `{"operationKey":"add","expectStatus":600}`, "expectStatus"},
			{"both", jsonBody(t, map[string]any{"operationKey": "add", "payload": map[string]any{}, "datasetId": d.DatasetID}), "datasetId"},
			{"unknown dataset", `{"operationKey":"add","datasetId":"nope"}`, "datasetId"},
			{"payload type", `{"operationKey":"add","payload":"x"}`, "payload"},
		} {
			t.Run("monitor "+tt.name, func(t *testing.T) {
				api.Do("POST", base+"/synthetic-monitor", operatorEmail, tt.body).WantFieldError(t, http.StatusBadRequest, apierr.ValBadRequest, tt.field)
			})
		}
		api.Do("POST", base+"/synthetic-monitor", operatorEmail, jsonBody(t, map[string]any{"operationKey": "add", "datasetId": d.DatasetID})).
			WantStatus(t, http.StatusOK)
		api.Do("DELETE", Prefix+"/test-datasets/"+d.DatasetID, operatorEmail, "").WantError(t, http.StatusConflict, apierr.AdmImmutable)
		api.Do("POST", base+"/synthetic-monitor", operatorEmail, `{"operationKey":"add","payload":{"a":1,"b":2}}`).WantStatus(t, http.StatusOK)
		api.Do("DELETE", Prefix+"/test-datasets/"+d.DatasetID, operatorEmail, "").WantStatus(t, http.StatusNoContent)
		api.Do("DELETE", Prefix+"/test-datasets/"+d.DatasetID, operatorEmail, "").WantError(t, http.StatusNotFound, apierr.AdmNotFound)
		api.lastAudit("test_dataset.delete", d.DatasetID)
	})
}

// TestHardDeleteRemovesBackendsArea checks that a hard delete of a service
// removes its profiles, previews, grants, monitor, datasets and OpenAPI
// documents (ON DELETE CASCADE of migration 0005).
func TestHardDeleteRemovesBackendsArea(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		svc, d := api.consumeDraft("calc", calcOps)
		base := Prefix + "/services/" + svc.ServiceID
		p := api.createProfile(svc.ServiceID, map[string]any{"endpointUrl": "http://" + loopback.FreeAddr(t) + "/calc"})
		api.Do("POST", profilePath(p.ProfileID)+":test-application", operatorEmail, jsonBody(t, map[string]any{
			"operationId": d.Operations[0].OperationID, "payload": map[string]any{"a": 1, "b": 2}})).WantStatus(t, http.StatusOK)
		api.Do("PUT", base+"/consumer-grants", operatorEmail, `{"cidrs":["10.0.0.0/8"]}`).WantStatus(t, http.StatusOK)
		api.Do("POST", base+"/test-datasets", operatorEmail, `{"name":"d","payload":{}}`).WantStatus(t, http.StatusCreated)
		api.Do("POST", base+"/synthetic-monitor", operatorEmail, `{"operationKey":"add"}`).WantStatus(t, http.StatusOK)
		api.Do("POST", base+"/versions/"+d.Version.VersionID+":generate-openapi", adminEmail, "").WantStatus(t, http.StatusOK)
		tables := []string{"backend_profiles", "test_previews", "consumer_grants", "synthetic_monitors", "test_datasets", "openapi_documents"}
		for tbl, n := range tableCounts(t, st, tables...) {
			if n != 1 {
				t.Fatalf("%s has %d rows before the delete", tbl, n)
			}
		}
		api.Do("PATCH", base, operatorEmail, `{"status":"disabled"}`).WantStatus(t, http.StatusOK)
		api.Do("DELETE", base+":hard-delete", adminEmail, "").WantStatus(t, http.StatusNoContent)
		for tbl, n := range tableCounts(t, st, tables...) {
			if n != 0 {
				t.Errorf("%s has %d rows after the hard delete", tbl, n)
			}
		}
	})
}
