package admin

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"
	"github.com/s2r-project/s2r/internal/access"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

func TestRoleBindingsReplaceAndResolve(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		var me access.Caller
		api.Do("GET", "/admin/v1/me", "dev@example.com", "", "platform-ops").WantStatus(t, 403)

		body := `[{"group":"platform-ops","role":"operator"},{"group":"platform-admins","role":"admin","tenantId":"acme"}]`
		var got []model.RoleBinding
		api.Do("PUT", "/admin/v1/role-bindings", adminEmail, body).WantStatus(t, 200).Decode(t, &got)
		want := []model.RoleBinding{
			{Group: "platform-ops", Role: model.RoleOperator, TenantID: "default"},
			{Group: "platform-admins", Role: model.RoleAdmin, TenantID: "acme"},
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("PUT answer (-want +got):\n%s", diff)
		}
		api.Do("GET", "/admin/v1/role-bindings", readerEmail, "").WantStatus(t, 200).Decode(t, &got)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("GET (-want +got):\n%s", diff)
		}
		// The change applies at once on this instance (cache invalidated).
		api.Do("GET", "/admin/v1/me", "Dev@Example.com", "", "platform-ops").WantStatus(t, 200).Decode(t, &me)
		if me.Email != "dev@example.com" || me.Role != model.RoleOperator || me.TenantID != "default" {
			t.Errorf("me = %+v", me)
		}
		api.Do("GET", "/admin/v1/me", "dev@example.com", "", "platform-ops", "platform-admins").WantStatus(t, 200).Decode(t, &me)
		if me.Role != model.RoleAdmin || me.TenantID != "acme" || len(me.Sources) != 2 {
			t.Errorf("highest role does not win: %+v", me)
		}

		var page model.ObservabilityPageRecord[model.AuditEvent]
		api.Do("GET", "/admin/v1/audit-events?entityType=role_bindings", readerEmail, "").WantStatus(t, 200).Decode(t, &page)
		if page.TotalItems != 1 || string(page.Items[0].BeforeState) != "[]" || page.Items[0].ActionType != "role_bindings.replace" {
			t.Errorf("audit = %+v", page.Items)
		}

		api.Do("PUT", "/admin/v1/role-bindings", adminEmail, `[]`).WantStatus(t, 200)
		api.Do("GET", "/admin/v1/me", "dev@example.com", "", "platform-ops").WantStatus(t, 403)
	})
}

func TestRoleBindingsValidation(t *testing.T) {
	api := newTestAPI(t, storetest.SQLite(t))
	tests := []struct {
		name, body, field string
	}{
		{name: "object body", body: `{"group":"g","role":"admin"}`, field: ""},
		{name: "null body", body: `null`, field: ""},
		{name: "missing group", body: `[{"role":"admin"}]`, field: "[0].group"},
		{name: "comma in group", body: `[{"group":"a,b","role":"admin"}]`, field: "[0].group"},
		{name: "unknown role", body: `[{"group":"g","role":"root"}]`, field: "[0].role"},
		{name: "role wrong type", body: `[{"group":"g","role":3}]`, field: "[0].role"},
		{name: "unknown member", body: `[{"group":"g","role":"admin","extra":1}]`, field: "[0].extra"},
		{name: "bad tenant", body: `[{"group":"g","role":"admin","tenantId":"a b"}]`, field: "[0].tenantId"},
		{name: "duplicate", body: `[{"group":"g","role":"admin"},{"group":"g","role":"reader","tenantId":"default"}]`, field: "[1].group"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := api.Do("PUT", "/admin/v1/role-bindings", adminEmail, tc.body).WantStatus(t, 400).ErrorOf(t).Error
			if e.Code != apierr.ValBadRequest {
				t.Errorf("code = %s", e.Code)
			}
			if field, _ := e.Details["field"].(string); field != tc.field {
				t.Errorf("field = %q, want %q (%s)", field, tc.field, e.Message)
			}
		})
	}
}

func TestPermissionBindingsLifecycle(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		api.Do("GET", "/admin/v1/me", "new@example.com", "").WantStatus(t, 403)

		var b model.PermissionBinding
		api.Do("POST", "/admin/v1/permission-bindings", adminEmail, `{"email":" New@Example.com ","role":"operator"}`).
			WantStatus(t, 201).Decode(t, &b)
		if _, err := uuid.Parse(b.BindingID); err != nil {
			t.Errorf("bindingId %q is not a UUID", b.BindingID)
		}
		if b.Email != "new@example.com" || b.Role != model.RoleOperator || b.TenantID != "default" || b.CreatedBy != adminEmail {
			t.Errorf("binding = %+v", b)
		}
		var me access.Caller
		api.Do("GET", "/admin/v1/me", "new@example.com", "").WantStatus(t, 200).Decode(t, &me)
		if me.Role != model.RoleOperator || len(me.Sources) != 1 || me.Sources[0].BindingID != b.BindingID {
			t.Errorf("me = %+v", me)
		}

		e := api.Do("POST", "/admin/v1/permission-bindings", adminEmail, `{"email":"new@example.com","role":"admin"}`).
			WantStatus(t, 409).ErrorOf(t).Error
		if e.Code != apierr.AdmAlreadyExists || e.Details["field"] != "email" {
			t.Errorf("duplicate: %+v", e)
		}
		for _, bad := range []struct{ body, field string }{
			{`{"email":"not-an-email","role":"reader"}`, "email"},
			{`{"email":"Name <a@example.com>","role":"reader"}`, "email"},
			{`{"role":"reader"}`, "email"},
			{`{"email":"a@example.com","role":"superuser"}`, "role"},
			{`{"email":"a@example.com","role":"reader","bindingId":"x"}`, "bindingId"},
			{`{"email":["a@example.com"],"role":"reader"}`, "email"},
		} {
			e := api.Do("POST", "/admin/v1/permission-bindings", adminEmail, bad.body).WantStatus(t, 400).ErrorOf(t).Error
			if e.Details["field"] != bad.field {
				t.Errorf("%s: field = %v, want %s", bad.body, e.Details["field"], bad.field)
			}
		}

		var list []model.PermissionBinding
		api.Do("GET", "/admin/v1/permission-bindings", readerEmail, "").WantStatus(t, 200).Decode(t, &list)
		if len(list) != 4 || list[3].BindingID != b.BindingID {
			t.Errorf("list = %+v", list)
		}

		api.Do("DELETE", "/admin/v1/permission-bindings/"+b.BindingID, adminEmail, "").WantStatus(t, 204)
		api.Do("DELETE", "/admin/v1/permission-bindings/"+b.BindingID, adminEmail, "").WantStatus(t, 404)
		api.Do("GET", "/admin/v1/me", "new@example.com", "").WantStatus(t, 403)

		var page model.ObservabilityPageRecord[model.AuditEvent]
		api.Do("GET", "/admin/v1/audit-events?entityType=permission_binding&result=success", readerEmail, "").WantStatus(t, 200).Decode(t, &page)
		actions := []string{}
		for _, e := range page.Items {
			actions = append(actions, e.ActionType+" "+e.EntityID)
		}
		wantActions := []string{"permission_binding.delete " + b.BindingID, "permission_binding.create " + b.BindingID}
		if diff := cmp.Diff(wantActions, actions); diff != "" {
			t.Errorf("audit (-want +got):\n%s", diff)
		}
	})
}

func TestMeSources(t *testing.T) {
	api := newTestAPI(t, storetest.SQLite(t))
	var me access.Caller
	api.Do("GET", "/admin/v1/me", " ROOT@example.com", "", "g1", " g2 ").WantStatus(t, 200).Decode(t, &me)
	want := access.Caller{Email: rootEmail, Groups: []string{"g1", "g2"}, Role: model.RoleAdmin, TenantID: "default",
		Sources: []access.RoleSource{{Kind: access.SourceBootstrap, Role: model.RoleAdmin, TenantID: "default"}}}
	if diff := cmp.Diff(want, me); diff != "" {
		t.Errorf("me (-want +got):\n%s", diff)
	}
}
