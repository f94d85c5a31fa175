package access

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
)

// memBindings is an in-memory BindingSource that counts loads.
type memBindings struct {
	mu    sync.Mutex
	roles []model.RoleBinding
	perms []model.PermissionBinding
	loads int
	err   error
}

func (m *memBindings) RoleBindings(context.Context) ([]model.RoleBinding, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]model.RoleBinding(nil), m.roles...), m.err
}

func (m *memBindings) PermissionBindings(context.Context) ([]model.PermissionBinding, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.loads++
	return append([]model.PermissionBinding(nil), m.perms...), m.err
}

func TestIdentityFromHeader(t *testing.T) {
	tests := []struct {
		name   string
		email  string
		groups []string
		want   Identity
		wantOK bool
	}{
		{name: "none", wantOK: false},
		{name: "blank", email: "   ", wantOK: false},
		{name: "normalized", email: "  Alice@Example.COM ", groups: []string{" ops , Admins,,ops", "x"},
			want: Identity{Email: "alice@example.com", Groups: []string{"ops", "Admins", "x"}}, wantOK: true},
		{name: "no groups", email: "bob@example.com", want: Identity{Email: "bob@example.com"}, wantOK: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := http.Header{}
			if tc.email != "" {
				h.Set(HeaderEmail, tc.email)
			}
			for _, g := range tc.groups {
				h.Add(HeaderGroups, g)
			}
			got, ok := IdentityFromHeader(h)
			if ok != tc.wantOK {
				t.Fatalf("ok = %v, want %v", ok, tc.wantOK)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("identity (-want +got):\n%s", diff)
			}
		})
	}
}

func TestResolveSources(t *testing.T) {
	src := &memBindings{
		perms: []model.PermissionBinding{
			{BindingID: "b1", Email: "op@example.com", Role: model.RoleOperator, TenantID: "acme"},
			{BindingID: "b2", Email: "Mixed@Example.com", Role: model.RoleReader, TenantID: "default"},
		},
		roles: []model.RoleBinding{
			{Group: "readers", Role: model.RoleReader, TenantID: "default"},
			{Group: "admins", Role: model.RoleAdmin, TenantID: "globex"},
			{Group: "ops", Role: model.RoleOperator, TenantID: "default"},
		},
	}
	r := NewResolver(src, []string{" Boot@Example.com "}, time.Minute)
	tests := []struct {
		name       string
		id         Identity
		wantRole   model.Role
		wantTenant string
		wantKinds  []string
	}{
		{name: "nobody", id: Identity{Email: "x@example.com"}, wantKinds: []string{}},
		{name: "bootstrap only", id: Identity{Email: "boot@example.com"}, wantRole: model.RoleAdmin, wantTenant: "default", wantKinds: []string{SourceBootstrap}},
		{name: "permission only", id: Identity{Email: "op@example.com"}, wantRole: model.RoleOperator, wantTenant: "acme", wantKinds: []string{SourcePermissionBinding}},
		{name: "stored email normalized", id: Identity{Email: "mixed@example.com"}, wantRole: model.RoleReader, wantTenant: "default", wantKinds: []string{SourcePermissionBinding}},
		{name: "group only", id: Identity{Email: "g@example.com", Groups: []string{"readers"}}, wantRole: model.RoleReader, wantTenant: "default", wantKinds: []string{SourceRoleBinding}},
		{name: "group outranks permission", id: Identity{Email: "op@example.com", Groups: []string{"readers", "admins"}},
			wantRole: model.RoleAdmin, wantTenant: "globex", wantKinds: []string{SourcePermissionBinding, SourceRoleBinding, SourceRoleBinding}},
		{name: "permission wins tie", id: Identity{Email: "op@example.com", Groups: []string{"ops"}},
			wantRole: model.RoleOperator, wantTenant: "acme", wantKinds: []string{SourcePermissionBinding, SourceRoleBinding}},
		{name: "bootstrap outranks", id: Identity{Email: "boot@example.com", Groups: []string{"ops"}},
			wantRole: model.RoleAdmin, wantTenant: "default", wantKinds: []string{SourceRoleBinding, SourceBootstrap}},
		{name: "unknown group", id: Identity{Email: "g@example.com", Groups: []string{"Readers"}}, wantKinds: []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := r.Resolve(context.Background(), tc.id)
			if err != nil {
				t.Fatal(err)
			}
			if c.Role != tc.wantRole || c.TenantID != tc.wantTenant {
				t.Errorf("role, tenant = %q, %q; want %q, %q", c.Role, c.TenantID, tc.wantRole, tc.wantTenant)
			}
			kinds := []string{}
			for _, s := range c.Sources {
				kinds = append(kinds, s.Kind)
			}
			if diff := cmp.Diff(tc.wantKinds, kinds); diff != "" {
				t.Errorf("sources (-want +got):\n%s", diff)
			}
		})
	}
}

func TestResolverCache(t *testing.T) {
	src := &memBindings{}
	r := NewResolver(src, nil, time.Minute)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	r.now = func() time.Time { return now }
	ctx := context.Background()
	id := Identity{Email: "a@example.com"}

	resolveRole := func() model.Role {
		t.Helper()
		c, err := r.Resolve(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return c.Role
	}
	if got := resolveRole(); got != "" {
		t.Fatalf("role = %q before any binding", got)
	}
	src.mu.Lock()
	src.perms = []model.PermissionBinding{{Email: "a@example.com", Role: model.RoleAdmin, TenantID: "default"}}
	src.mu.Unlock()
	if got := resolveRole(); got != "" {
		t.Errorf("cached role = %q, want the cached empty role", got)
	}
	r.Invalidate()
	if got := resolveRole(); got != model.RoleAdmin {
		t.Errorf("role after Invalidate = %q, want admin", got)
	}
	src.mu.Lock()
	src.perms = nil
	src.mu.Unlock()
	now = now.Add(2 * time.Minute)
	if got := resolveRole(); got != "" {
		t.Errorf("role after TTL = %q, want none", got)
	}
	if src.loads != 3 {
		t.Errorf("loads = %d, want 3", src.loads)
	}
}

func TestRequire(t *testing.T) {
	src := &memBindings{perms: []model.PermissionBinding{
		{Email: "reader@example.com", Role: model.RoleReader, TenantID: "default"},
		{Email: "op@example.com", Role: model.RoleOperator, TenantID: "default"},
	}}
	r := NewResolver(src, []string{"admin@example.com"}, time.Minute)
	mux := http.NewServeMux()
	mux.Handle("GET /op", r.Require(model.RoleOperator, func(w http.ResponseWriter, req *http.Request) error {
		c, _ := CallerFrom(req.Context())
		return json.NewEncoder(w).Encode(c)
	}))
	srv := httptest.NewServer(mux)
	defer srv.Close()

	tests := []struct {
		name, email string
		wantStatus  int
		wantCode    string
	}{
		{name: "anonymous", wantStatus: 401, wantCode: apierr.AdmUnauthenticated},
		{name: "no role", email: "nobody@example.com", wantStatus: 403, wantCode: apierr.AdmForbidden},
		{name: "too low", email: "reader@example.com", wantStatus: 403, wantCode: apierr.AdmForbidden},
		{name: "exact", email: "op@example.com", wantStatus: 200},
		{name: "higher", email: "admin@example.com", wantStatus: 200},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest("GET", srv.URL+"/op", nil)
			if tc.email != "" {
				req.Header.Set(HeaderEmail, tc.email)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != tc.wantStatus {
				t.Fatalf("status = %d, want %d", resp.StatusCode, tc.wantStatus)
			}
			if tc.wantCode == "" {
				return
			}
			var body struct{ Error struct{ Code string } }
			if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
				t.Fatal(err)
			}
			if body.Error.Code != tc.wantCode {
				t.Errorf("code = %q, want %q", body.Error.Code, tc.wantCode)
			}
		})
	}
}

func TestRequireBindingsUnavailable(t *testing.T) {
	r := NewResolver(&memBindings{err: errors.New("db down")}, nil, time.Minute)
	h := r.Require(model.RoleReader, func(http.ResponseWriter, *http.Request) error { return nil })
	req := httptest.NewRequest("GET", "/", nil)
	req.Header.Set(HeaderEmail, "a@example.com")
	err := h(httptest.NewRecorder(), req)
	if apierr.CodeOf(err) != apierr.AdmUnavailable {
		t.Fatalf("error = %v, want %s", err, apierr.AdmUnavailable)
	}
}

// TestResolverConcurrent resolves and invalidates from many goroutines (run
// with -race); every answer must be one of the two binding states.
func TestResolverConcurrent(t *testing.T) {
	src := &memBindings{perms: []model.PermissionBinding{{Email: "a@example.com", Role: model.RoleReader, TenantID: "default"}}}
	r := NewResolver(src, nil, time.Millisecond)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				if g == 0 && i%10 == 0 {
					src.mu.Lock()
					if src.perms[0].Role == model.RoleReader {
						src.perms = []model.PermissionBinding{{Email: "a@example.com", Role: model.RoleAdmin, TenantID: "default"}}
					} else {
						src.perms = []model.PermissionBinding{{Email: "a@example.com", Role: model.RoleReader, TenantID: "default"}}
					}
					src.mu.Unlock()
					r.Invalidate()
				}
				c, err := r.Resolve(context.Background(), Identity{Email: "a@example.com"})
				if err != nil || (c.Role != model.RoleReader && c.Role != model.RoleAdmin) {
					t.Errorf("resolve: %q %v", c.Role, err)
					return
				}
			}
		})
	}
	wg.Wait()
}
