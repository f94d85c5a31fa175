package admin

import (
	"net/http"
	"testing"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// TestBackendProfileProtection: the protection fields are stored, shown,
// cleared with null, and every bad value is 400 S2R-VAL-0400 naming its
// field.
func TestBackendProfileProtection(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		svc := api.createService(map[string]any{"serviceKey": "calc", "environment": "dev"})
		p := api.createProfile(svc.ServiceID, map[string]any{"endpointUrl": "http://10.0.0.5/calc",
			"maxConcurrentRequests": 8, "maxRequestsPerSecond": 2.5, "queueTimeoutMs": 100})
		if p.MaxConcurrentRequests == nil || *p.MaxConcurrentRequests != 8 || p.MaxRequestsPerSecond == nil ||
			*p.MaxRequestsPerSecond != 2.5 || p.QueueTimeoutMs != 100 {
			t.Fatalf("created: %+v", p.Protection())
		}
		var got model.BackendProfile
		api.Do("PATCH", profilePath(p.ProfileID), operatorEmail, `{"maxConcurrentRequests":null,"queueTimeoutMs":0}`).
			WantStatus(t, http.StatusOK).Decode(t, &got)
		if got.MaxConcurrentRequests != nil || got.MaxRequestsPerSecond == nil || got.QueueTimeoutMs != 0 {
			t.Fatalf("patched: %+v", got.Protection())
		}
		for _, bad := range []struct{ body, field string }{
			{`{"maxConcurrentRequests":0}`, "maxConcurrentRequests"},
			{`{"maxConcurrentRequests":-1}`, "maxConcurrentRequests"},
			{`{"maxConcurrentRequests":100001}`, "maxConcurrentRequests"},
			{`{"maxConcurrentRequests":1.5}`, "maxConcurrentRequests"},
			{`{"maxConcurrentRequests":"2"}`, "maxConcurrentRequests"},
			{`{"maxRequestsPerSecond":0}`, "maxRequestsPerSecond"},
			{`{"maxRequestsPerSecond":-3}`, "maxRequestsPerSecond"},
			{`{"maxRequestsPerSecond":1e300}`, "maxRequestsPerSecond"},
			{`{"maxRequestsPerSecond":true}`, "maxRequestsPerSecond"},
			{`{"queueTimeoutMs":-1}`, "queueTimeoutMs"},
			{`{"queueTimeoutMs":600001}`, "queueTimeoutMs"},
			{`{"queueTimeoutMs":null}`, "queueTimeoutMs"},
		} {
			e := api.Do("PATCH", profilePath(p.ProfileID), operatorEmail, bad.body).WantStatus(t, 400).ErrorOf(t).Error
			if e.Code != apierr.ValBadRequest || e.Details["field"] != bad.field {
				t.Errorf("%s: %s field %v, want %s", bad.body, e.Code, e.Details["field"], bad.field)
			}
		}
	})
}

// TestRateLimits: GET answers {} until a limit is PUT; PUT normalizes the
// burst, bumps the revision and is audited; null and {} remove it; a
// reader cannot PUT; bad bodies are 400 naming the field.
func TestRateLimits(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		svc := api.createService(map[string]any{"serviceKey": "calc", "environment": "dev"})
		path := Prefix + "/services/" + svc.ServiceID + "/rate-limits"
		if b := api.Do("GET", path, readerEmail, "").WantStatus(t, 200).Body; string(b) != "{}\n" {
			t.Fatalf("GET without a limit: %s", b)
		}
		rev := api.revision()
		var got model.ClientRateLimit
		api.Do("PUT", path, operatorEmail, `{"clientKey":"header:X-Api-Key","requestsPerMinute":120}`).
			WantStatus(t, 200).Decode(t, &got)
		want := model.ClientRateLimit{ClientKey: "header:X-Api-Key", RequestsPerMinute: 120, Burst: 120}
		if got != want {
			t.Fatalf("PUT answered %+v, want %+v", got, want)
		}
		if api.revision() <= rev {
			t.Error("PUT did not bump the revision")
		}
		if ev := api.lastAudit("rate_limits.update", svc.ServiceID); ev.ActorEmail != operatorEmail {
			t.Errorf("audit actor %q", ev.ActorEmail)
		}
		got = model.ClientRateLimit{}
		api.Do("GET", path, readerEmail, "").WantStatus(t, 200).Decode(t, &got)
		if got != want {
			t.Fatalf("GET answered %+v, want %+v", got, want)
		}
		api.Do("PUT", path, readerEmail, `{}`).WantStatus(t, 403)
		for _, none := range []string{`null`, `{}`} {
			api.Do("PUT", path, operatorEmail, `{"clientKey":"ip","requestsPerMinute":5,"burst":2}`).WantStatus(t, 200)
			if b := api.Do("PUT", path, operatorEmail, none).WantStatus(t, 200).Body; string(b) != "{}\n" {
				t.Errorf("PUT %s answered %s", none, b)
			}
			if b := api.Do("GET", path, readerEmail, "").WantStatus(t, 200).Body; string(b) != "{}\n" {
				t.Errorf("GET after PUT %s: %s", none, b)
			}
		}
		for _, bad := range []struct{ body, field string }{
			{`{"clientKey":"cookie:x","requestsPerMinute":5}`, "clientKey"},
			{`{"clientKey":"header:","requestsPerMinute":5}`, "clientKey"},
			{`{"clientKey":"header:X Api","requestsPerMinute":5}`, "clientKey"},
			{`{"clientKey":"header:a:b","requestsPerMinute":5}`, "clientKey"},
			{`{"clientKey":"ip","requestsPerMinute":0}`, "requestsPerMinute"},
			{`{"clientKey":"ip","requestsPerMinute":-5}`, "requestsPerMinute"},
			{`{"clientKey":"ip","requestsPerMinute":60000001}`, "requestsPerMinute"},
			{`{"clientKey":"ip","requestsPerMinute":1.5}`, "requestsPerMinute"},
			{`{"clientKey":"ip","requestsPerMinute":5,"burst":-1}`, "burst"},
			{`{"clientKey":"ip","requestsPerMinute":5,"burst":1e12}`, "burst"},
			{`{"clientKey":"ip","requestsPerMinute":5,"perHour":1}`, "perHour"},
			{`[1]`, "rateLimits"},
		} {
			e := api.Do("PUT", path, operatorEmail, bad.body).WantStatus(t, 400).ErrorOf(t).Error
			if e.Code != apierr.ValBadRequest || e.Details["field"] != bad.field {
				t.Errorf("%s: %s field %v, want %s", bad.body, e.Code, e.Details["field"], bad.field)
			}
		}
		api.Do("PUT", Prefix+"/services/no-such/rate-limits", operatorEmail, `{}`).WantStatus(t, 404)
	})
}
