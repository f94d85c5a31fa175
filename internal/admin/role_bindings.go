package admin

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

var docGetRoleBindings = adminapi.Doc{
	Summary:  "Every identity-provider group to role binding.",
	Response: []model.RoleBinding{},
}

var docPutRoleBindings = adminapi.Doc{
	Summary:  "Replace the whole set of group role bindings atomically.",
	Request:  []roleBindingInput{},
	Response: []model.RoleBinding{},
}

// roleBindingInput is one binding of a PUT body; tenantId defaults to
// "default".
type roleBindingInput struct {
	Group    string     `json:"group"`
	Role     model.Role `json:"role"`
	TenantID string     `json:"tenantId,omitempty"`
}

// Limits of role bindings.
const (
	maxRoleBindings = 1000
	maxGroupLen     = 256
)

// tenantIDPattern is the form of a tenant id.
var tenantIDPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// getRoleBindings answers every role binding.
func (s *server) getRoleBindings(w http.ResponseWriter, r *http.Request) error {
	bindings, err := s.store.RoleBindings(r.Context())
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, bindings)
}

// putRoleBindings replaces every role binding in one transaction with its
// audit event, then drops the cached bindings so the change applies at once.
func (s *server) putRoleBindings(w http.ResponseWriter, r *http.Request) error {
	var in []roleBindingInput
	if err := adminapi.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	bindings, err := validateRoleBindings(in)
	if err != nil {
		return err
	}
	err = s.store.Transact(r.Context(), func(tx *store.Tx) error {
		before, err := tx.RoleBindings(r.Context())
		if err != nil {
			return err
		}
		if err := tx.ReplaceRoleBindings(r.Context(), bindings); err != nil {
			return err
		}
		msg := "replaced role bindings: " + strconv.Itoa(len(before)) + " before, " + strconv.Itoa(len(bindings)) + " after"
		return tx.InsertAudit(r.Context(), adminapi.AuditEvent(r, "role_bindings.replace", "role_bindings", "role_bindings", msg, before, bindings))
	})
	if err != nil {
		return err
	}
	s.access.Invalidate()
	return adminapi.WriteJSON(w, http.StatusOK, bindings)
}

// validateRoleBindings checks and normalizes a PUT body. A group may be
// bound once per tenant.
func validateRoleBindings(in []roleBindingInput) ([]model.RoleBinding, error) {
	if in == nil {
		return nil, adminapi.FieldError("", "body must be an array of role bindings")
	}
	if len(in) > maxRoleBindings {
		return nil, adminapi.FieldError("", "at most "+strconv.Itoa(maxRoleBindings)+" role bindings")
	}
	out := make([]model.RoleBinding, 0, len(in))
	seen := map[[2]string]bool{}
	for i, b := range in {
		at := "[" + strconv.Itoa(i) + "]."
		group := strings.TrimSpace(b.Group)
		switch {
		case group == "":
			return nil, adminapi.FieldError(at+"group", "is required")
		case len(group) > maxGroupLen:
			return nil, adminapi.FieldError(at+"group", "must be at most "+strconv.Itoa(maxGroupLen)+" characters")
		case strings.ContainsAny(group, ",\r\n"):
			return nil, adminapi.FieldError(at+"group", "must not contain commas or line breaks (the groups header is comma-separated)")
		}
		role, err := model.ParseRole(string(b.Role))
		if err != nil {
			return nil, adminapi.FieldError(at+"role", err.Error())
		}
		tenant, err := tenantOrDefault(b.TenantID, at+"tenantId")
		if err != nil {
			return nil, err
		}
		key := [2]string{group, tenant}
		if seen[key] {
			return nil, adminapi.FieldError(at+"group", "is already bound in this tenant")
		}
		seen[key] = true
		out = append(out, model.RoleBinding{Group: group, Role: role, TenantID: tenant})
	}
	return out, nil
}

// tenantOrDefault validates a tenant id; "" is the default tenant.
func tenantOrDefault(tenant, field string) (string, error) {
	if tenant == "" {
		return model.DefaultTenant, nil
	}
	if !tenantIDPattern.MatchString(tenant) {
		return "", adminapi.FieldError(field, "must be 1-64 letters, digits, '.', '_' or '-'")
	}
	return tenant, nil
}
