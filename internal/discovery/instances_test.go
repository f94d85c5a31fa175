package discovery_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/discovery"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// TestRoutesAreGuarded sends every discovery route through the real admin
// handler: 401 without identity, 403 below its role; the OpenAPI document
// describes them.
func TestRoutesAreGuarded(t *testing.T) {
	e := newEnv(t, storetest.SQLite(t))
	admintest.CheckGuarded(t, e.c, e.svc.Routes(), admintest.Guard{Body: "{}",
		Path: strings.NewReplacer("{instanceId}", "0b6c3e52-8d2f-4f0e-9a51-3c1d2e4f5a6b", "{rowId}", "1").Replace})
	admintest.CheckDocumented(t, e.c, e.svc.Routes())
}

func TestInstancesRegisterListRevoke(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		e := newEnv(t, st)
		inst := e.register("f5", "bigip-1", "")
		if !strings.HasPrefix(inst.Token, discovery.TokenPrefix) || len(inst.Token) < 40 || inst.TenantID != "default" {
			t.Fatalf("%+v", inst)
		}
		other := e.register("citrix", "adc-1", "acme")
		if other.TenantID != "acme" {
			t.Errorf("%+v", other)
		}
		// The token is never shown again, nor stored.
		r := e.admin("GET", "/ingest-instances", readerEmail, "").WantStatus(t, 200)
		if strings.Contains(string(r.Body), inst.Token) || strings.Contains(string(r.Body), "token") {
			t.Errorf("list shows a token: %s", r.Body)
		}
		var list []discovery.InstanceView
		r.Decode(t, &list)
		if len(list) != 2 || list[0].InstanceID != inst.InstanceID || list[0].CreatedBy != adminEmail {
			t.Errorf("%+v", list)
		}
		ctx := context.Background()
		err := st.Transact(ctx, func(tx *store.Tx) error {
			rows, err := tx.Query(ctx, "SELECT token_hash FROM ingest_instances")
			if err != nil {
				return err
			}
			defer rows.Close()
			for rows.Next() {
				var h string
				rows.Scan(&h)
				if strings.Contains(h, inst.Token) || len(h) != 64 {
					t.Errorf("stored %q", h)
				}
			}
			return rows.Err()
		})
		if err != nil {
			t.Fatal(err)
		}
		// A tenant's admin sees and revokes only its tenant's instances.
		e.admin("GET", "/ingest-instances", acmeEmail, "").WantStatus(t, 200).Decode(t, &list)
		if len(list) != 1 || list[0].InstanceID != other.InstanceID {
			t.Errorf("acme sees %+v", list)
		}
		e.admin("DELETE", "/ingest-instances/"+inst.InstanceID, acmeEmail, "").WantError(t, 404, apierr.AdmNotFound)
		e.admin("POST", "/ingest-instances", acmeEmail, `{"vendor":"f5","name":"x","tenantId":"default"}`).
			WantError(t, 403, apierr.AdmForbidden)
		// Revoke: 204, twice; unknown: 404.
		e.admin("DELETE", "/ingest-instances/"+inst.InstanceID, adminEmail, "").WantStatus(t, 204)
		e.admin("DELETE", "/ingest-instances/"+inst.InstanceID, adminEmail, "").WantStatus(t, 204)
		e.admin("DELETE", "/ingest-instances/nope", adminEmail, "").WantError(t, 404, apierr.AdmNotFound)
		e.admin("GET", "/ingest-instances", adminEmail, "").WantStatus(t, 200).Decode(t, &list)
		if list[0].Status != "revoked" || list[0].RevokedAt == nil || list[0].RevokedBy != adminEmail {
			t.Errorf("%+v", list[0])
		}
		// Audit: registrations and the revocation, without the token.
		var page model.ObservabilityPageRecord[model.AuditEvent]
		r = e.admin("GET", "/audit-events?entityType=ingest_instance&pageSize=50", adminEmail, "").WantStatus(t, 200)
		r.Decode(t, &page)
		actions := map[string]int{}
		for _, a := range page.Items {
			actions[a.ActionType+"/"+a.Result]++
		}
		if actions["ingest_instance.register/success"] != 2 || actions["ingest_instance.revoke/success"] != 1 ||
			actions["ingest_instance.register/failure"] != 1 || actions["ingest_instance.revoke/failure"] != 2 {
			t.Errorf("audit actions %v", actions)
		}
		if strings.Contains(string(r.Body), inst.Token) {
			t.Error("a token reached the audit log")
		}
	})
}

func TestInstanceValidation(t *testing.T) {
	e := newEnv(t, storetest.SQLite(t))
	for _, tc := range []struct{ body, field string }{
		{`{"name":"x"}`, "vendor"},
		{`{"vendor":"f 5","name":"x"}`, "vendor"},
		{`{"vendor":"f5"}`, "name"},
		{`{"vendor":"f5","name":"` + strings.Repeat("n", 200) + `"}`, "name"},
		{`{"vendor":"f5","name":"x","tenantId":"bad tenant"}`, "tenantId"},
		{`{"vendor":"f5","name":"x","token":"mine"}`, "token"},
	} {
		got := e.admin("POST", "/ingest-instances", adminEmail, tc.body).WantError(t, 400, apierr.ValBadRequest)
		if got.Error.Details["field"] != tc.field {
			t.Errorf("%s: %v", tc.body, got.Error.Details)
		}
	}
	var list []json.RawMessage
	e.admin("GET", "/ingest-instances", adminEmail, "").WantStatus(t, http.StatusOK).Decode(t, &list)
	if len(list) != 0 {
		t.Errorf("%d instances after refused registrations", len(list))
	}
}
