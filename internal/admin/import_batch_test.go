package admin

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
	"github.com/s2r-project/s2r/internal/wsdlcorpus"
)

func TestAutopilotBatches(t *testing.T) {
	country := wsdlcorpus.Read(t, countryInfoWSDL)
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(country) }))
		t.Cleanup(srv.Close)
		api.Do("PATCH", "/admin/v1/settings", adminEmail, `{"outbound_allowed_cidrs":["127.0.0.0/8"]}`).WantStatus(t, http.StatusOK)

		// URLs: one good, one colliding (same derived key), one blocked.
		body, _ := json.Marshal(map[string]any{"items": []map[string]any{
			{"url": srv.URL + "/c.wsdl", "environment": "dev"},
			{"url": srv.URL + "/c.wsdl?again", "environment": "dev"},
			{"url": "http://169.254.169.254/latest", "environment": "dev"},
		}})
		r := api.Do("POST", "/admin/v1/wsdl/import-urls:autopilot", operatorEmail, string(body))
		r.WantStatus(t, http.StatusOK)
		var res batchResult
		r.Decode(t, &res)
		if res.Summary != (batchSummary{Total: 3, Succeeded: 1, Failed: 2}) {
			t.Fatalf("summary %+v; %s", res.Summary, r.Body)
		}
		if res.Items[0].Status != 201 || res.Items[0].Result == nil || res.Items[0].Result.Service.ServiceKey != "country-info-service" {
			t.Errorf("item 0 %+v", res.Items[0])
		}
		if res.Items[1].Status != 409 || res.Items[1].Error.Code != apierr.AdmAlreadyExists {
			t.Errorf("item 1 %+v", res.Items[1])
		}
		if res.Items[2].Status != 400 || res.Items[2].Error.Details["fetchReason"] != "blocked_address" {
			t.Errorf("item 2 %+v", res.Items[2].Error)
		}
		if n := tableCounts(t, st, "services")["services"]; n != 1 {
			t.Errorf("services = %d, want 1", n)
		}

		// Files: two uploads (one not XML) with shared fields.
		r = api.upload("/admin/v1/wsdl/import-files:autopilot",
			formPart{"file", "a.wsdl", country}, formPart{"file", "b.wsdl", []byte("nope")},
			formPart{name: "environment", data: []byte("staging")})
		r.WantStatus(t, http.StatusOK)
		res = batchResult{}
		r.Decode(t, &res)
		if res.Summary != (batchSummary{Total: 2, Succeeded: 1, Failed: 1}) || res.Items[1].Error.Details["file"] != "b.wsdl" {
			t.Errorf("files batch %s", r.Body)
		}

		// JSON items.
		body, _ = json.Marshal(map[string]any{"items": []map[string]any{{"xml": string(country), "environment": "prod"}}})
		r = api.Do("POST", "/admin/v1/wsdl/import-files:autopilot", operatorEmail, string(body))
		r.WantStatus(t, http.StatusOK)
		res = batchResult{}
		r.Decode(t, &res)
		if res.Summary.Succeeded != 1 {
			t.Errorf("json batch %s", r.Body)
		}

		// Whole-request errors.
		api.Do("POST", "/admin/v1/wsdl/import-urls:autopilot", operatorEmail, `{"items":[]}`).WantStatus(t, http.StatusBadRequest)
		r = api.upload("/admin/v1/wsdl/import-files:autopilot", formPart{"file", "a.wsdl", country}, formPart{"file", "b.wsdl", country},
			formPart{name: "environment", data: []byte("dev")}, formPart{name: "serviceKey", data: []byte("k")})
		r.WantStatus(t, http.StatusBadRequest)
	})
}
