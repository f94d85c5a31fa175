package admin

import (
	"errors"
	"net/http"
	"net/mail"
	"time"

	"github.com/google/uuid"
	"github.com/s2r-project/s2r/internal/access"
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

var docGetPermissionBindings = adminapi.Doc{
	Summary:  "Every direct user-to-role assignment.",
	Response: []model.PermissionBinding{},
}

var docPostPermissionBinding = adminapi.Doc{
	Summary:  "Assign a role directly to a user e-mail. A second binding for the same e-mail is 409 S2R-ADM-0409.",
	Request:  permissionBindingInput{},
	Response: model.PermissionBinding{},
	Status:   http.StatusCreated,
	Errors:   []int{http.StatusConflict},
}

var docDeletePermissionBinding = adminapi.Doc{
	Summary: "Remove a direct assignment.",
	Status:  http.StatusNoContent,
	Errors:  []int{http.StatusNotFound},
}

// permissionBindingInput is the POST body; tenantId defaults to "default".
type permissionBindingInput struct {
	Email    string     `json:"email"`
	Role     model.Role `json:"role"`
	TenantID string     `json:"tenantId,omitempty"`
}

// getPermissionBindings answers every permission binding.
func (s *server) getPermissionBindings(w http.ResponseWriter, r *http.Request) error {
	bindings, err := s.store.PermissionBindings(r.Context())
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, bindings)
}

// postPermissionBinding creates a binding with a new UUID.
func (s *server) postPermissionBinding(w http.ResponseWriter, r *http.Request) error {
	var in permissionBindingInput
	if err := adminapi.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	b, err := s.newPermissionBinding(r, in)
	if err != nil {
		return err
	}
	err = s.store.Transact(r.Context(), func(tx *store.Tx) error {
		if err := tx.InsertPermissionBinding(r.Context(), b); err != nil {
			return err
		}
		msg := "granted " + string(b.Role) + " to " + b.Email
		return tx.InsertAudit(r.Context(), adminapi.AuditEvent(r, "permission_binding.create", "permission_binding", b.BindingID, msg, nil, b))
	})
	if errors.Is(err, store.ErrAlreadyExists) {
		return apierr.Wrap(apierr.AdmAlreadyExists, err, "a permission binding for this e-mail already exists").WithDetail("field", "email")
	}
	if err != nil {
		return err
	}
	s.access.Invalidate()
	return adminapi.WriteJSON(w, http.StatusCreated, b)
}

// newPermissionBinding validates in and returns the binding to store.
func (s *server) newPermissionBinding(r *http.Request, in permissionBindingInput) (model.PermissionBinding, error) {
	email := access.NormalizeEmail(in.Email)
	if email == "" {
		return model.PermissionBinding{}, adminapi.FieldError("email", "is required")
	}
	if a, err := mail.ParseAddress(email); err != nil || a.Address != email || len(email) > 320 {
		return model.PermissionBinding{}, adminapi.FieldError("email", "must be a plain e-mail address such as user@example.com")
	}
	role, err := model.ParseRole(string(in.Role))
	if err != nil {
		return model.PermissionBinding{}, adminapi.FieldError("role", err.Error())
	}
	tenant, err := tenantOrDefault(in.TenantID, "tenantId")
	if err != nil {
		return model.PermissionBinding{}, err
	}
	id, err := uuid.NewRandom()
	if err != nil {
		return model.PermissionBinding{}, err
	}
	c, _ := access.CallerFrom(r.Context())
	return model.PermissionBinding{BindingID: id.String(), Email: email, Role: role, TenantID: tenant,
		CreatedAt: s.now().UTC().Truncate(time.Microsecond), CreatedBy: c.Email}, nil
}

// deletePermissionBinding removes a binding; 404 when there is none.
func (s *server) deletePermissionBinding(w http.ResponseWriter, r *http.Request) (err error) {
	id := r.PathValue("bindingId")
	err = s.store.Transact(r.Context(), func(tx *store.Tx) error {
		b, err := tx.DeletePermissionBinding(r.Context(), id)
		if err != nil {
			return err
		}
		msg := "revoked " + string(b.Role) + " from " + b.Email
		return tx.InsertAudit(r.Context(), adminapi.AuditEvent(r, "permission_binding.delete", "permission_binding", id, msg, b, nil))
	})
	if errors.Is(err, store.ErrNotFound) {
		return apierr.New(apierr.AdmNotFound, "permission binding not found")
	}
	if err != nil {
		return err
	}
	s.access.Invalidate()
	w.WriteHeader(http.StatusNoContent)
	return nil
}
