package admin

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// TestServiceCallbackSecret: callbackSecret is write-only, stored sealed
// and bound to the service, answered and audited as its metadata only,
// and cleared by null.
func TestServiceCallbackSecret(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		const plain = "cb-secret-Zq8!"
		svc := api.createService(map[string]any{"serviceKey": "calc", "environment": "dev"})
		if svc.CallbackSecret.Set || svc.CallbackSecret.LastUpdatedAt != nil {
			t.Fatalf("new service has a callback secret: %+v", svc.CallbackSecret)
		}
		path := Prefix + "/services/" + svc.ServiceID
		r := api.Do("PATCH", path, operatorEmail, `{"callbackAuthMode":"shared_secret","callbackSecret":"`+plain+`"}`).
			WantStatus(t, http.StatusOK)
		var got model.Service
		r.Decode(t, &got)
		if !got.CallbackSecret.Set || got.CallbackSecret.LastUpdatedBy == nil || *got.CallbackSecret.LastUpdatedBy != operatorEmail ||
			got.CallbackAuthMode != model.CallbackAuthSharedSecret {
			t.Fatalf("after set: %+v", got)
		}
		get := api.Do("GET", path, readerEmail, "").WantStatus(t, http.StatusOK)
		stored, err := st.Service(context.Background(), svc.ServiceID)
		if err != nil {
			t.Fatal(err)
		}
		sealed := stored.CallbackSecret.Sealed()
		if sealed == "" || strings.Contains(sealed, plain) {
			t.Fatalf("stored secret not sealed: %q", sealed)
		}
		if b, err := api.box.Open(sealed, model.CallbackSecretAAD(svc.ServiceID)); err != nil || string(b) != plain {
			t.Fatalf("sealed secret opens to %q, %v", b, err)
		}
		if _, err := api.box.Open(sealed, model.CallbackSecretAAD("another")); err == nil {
			t.Error("sealed secret opens for another service")
		}
		for _, b := range [][]byte{r.Body, get.Body} {
			if strings.Contains(string(b), plain) || strings.Contains(string(b), sealed) {
				t.Errorf("answer carries the secret: %s", b)
			}
		}
		if a := api.lastAudit("service.update", svc.ServiceID); strings.Contains(string(a.AfterState), plain) ||
			strings.Contains(string(a.AfterState), sealed) || !strings.Contains(string(a.AfterState), `"callbackSecret":{"set":true`) {
			t.Errorf("audit after state: %s", a.AfterState)
		}

		for _, tc := range []struct{ name, body string }{
			{"number", `{"callbackSecret":5}`},
			{"empty", `{"callbackSecret":""}`},
			{"too long", `{"callbackSecret":"` + strings.Repeat("x", 1025) + `"}`},
		} {
			t.Run(tc.name, func(t *testing.T) {
				api.Do("PATCH", path, operatorEmail, tc.body).WantFieldError(t, 400, apierr.ValBadRequest, "callbackSecret")
			})
		}
		api.Do("PATCH", path, readerEmail, `{"callbackSecret":"x"}`).WantStatus(t, http.StatusForbidden)

		api.Do("PATCH", path, operatorEmail, `{"callbackSecret":null}`).WantStatus(t, http.StatusOK).Decode(t, &got)
		if got.CallbackSecret.Set || got.CallbackSecret.LastUpdatedAt == nil {
			t.Errorf("after clear: %+v", got.CallbackSecret)
		}
		if stored, _ := st.Service(context.Background(), svc.ServiceID); stored.CallbackSecret.IsSet() {
			t.Error("cleared secret still stored")
		}

		created := api.createService(map[string]any{"serviceKey": "other", "environment": "dev", "callbackSecret": plain})
		if !created.CallbackSecret.Set {
			t.Error("callbackSecret on create not set")
		}
	})
}
