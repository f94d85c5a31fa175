package discovery

import (
	"errors"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/s2r-project/s2r/internal/access"
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

// InstanceView is an ingest instance as the admin API shows it: never
// its token, nor the token's hash.
type InstanceView struct {
	InstanceID      string     `json:"instanceId"`
	Vendor          string     `json:"vendor"`
	Name            string     `json:"name"`
	TenantID        string     `json:"tenantId"`
	Status          string     `json:"status"` // active or revoked
	CreatedAt       time.Time  `json:"createdAt"`
	CreatedBy       string     `json:"createdBy"`
	RevokedAt       *time.Time `json:"revokedAt,omitempty"`
	RevokedBy       string     `json:"revokedBy,omitempty"`
	LastEventAt     *time.Time `json:"lastEventAt,omitempty"`
	LastHeartbeatAt *time.Time `json:"lastHeartbeatAt,omitempty"`
}

// RegisteredInstance is the answer to a registration: the only time the
// token is shown.
type RegisteredInstance struct {
	InstanceID string    `json:"instanceId"`
	Token      string    `json:"token"`
	Vendor     string    `json:"vendor"`
	Name       string    `json:"name"`
	TenantID   string    `json:"tenantId"`
	CreatedAt  time.Time `json:"createdAt"`
}

// instanceInput is the registration body.
type instanceInput struct {
	Vendor   string `json:"vendor"`
	Name     string `json:"name"`
	TenantID string `json:"tenantId,omitempty"`
}

var tenantIDPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

var (
	docPostInstance = adminapi.Doc{
		Summary: "Register an ingest connector instance. The answer carries its bearer token, shown this once and stored " +
			"only hashed. tenantId defaults to the caller's tenant; only callers of the default tenant may register for another.",
		Request: instanceInput{}, Response: RegisteredInstance{}, Status: http.StatusCreated,
	}
	docGetInstances = adminapi.Doc{
		Summary:  "Ingest connector instances (never their tokens): the caller's tenant, or every tenant for callers of the default tenant.",
		Response: []InstanceView{},
	}
	docDeleteInstance = adminapi.Doc{
		Summary: "Revoke an ingest connector instance: its token is refused (401 S2R-ING-0401) within seconds on every s2r instance.",
		Status:  http.StatusNoContent, Errors: []int{http.StatusNotFound},
	}
)

// callerTenant returns the tenant of r's caller.
func callerTenant(r *http.Request) string {
	if c, ok := access.CallerFrom(r.Context()); ok && c.TenantID != "" {
		return c.TenantID
	}
	return model.DefaultTenant
}

// postInstance registers an instance and answers its token once.
func (s *Service) postInstance(w http.ResponseWriter, r *http.Request) error {
	var in instanceInput
	if err := adminapi.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	vendor := strings.ToLower(strings.TrimSpace(in.Vendor))
	if !vendorPattern(vendor) {
		return adminapi.FieldError("vendor", "is required: 1 to 64 characters, letters, digits, '.', '_' or '-' (for example f5)")
	}
	name := strings.TrimSpace(in.Name)
	if name == "" || len(name) > 128 || hasControl(name) {
		return adminapi.FieldError("name", "is required: 1 to 128 characters without control characters")
	}
	tenant := callerTenant(r)
	if in.TenantID != "" {
		if !tenantIDPattern.MatchString(in.TenantID) {
			return adminapi.FieldError("tenantId", "must be 1 to 64 letters, digits, '.', '_' or '-'")
		}
		if in.TenantID != tenant && tenant != model.DefaultTenant {
			return apierr.New(apierr.AdmForbidden, "only callers of the default tenant may register instances for another tenant")
		}
		tenant = in.TenantID
	}
	token, err := newToken()
	if err != nil {
		return err
	}
	id, err := uuid.NewV7()
	if err != nil {
		return err
	}
	c, _ := access.CallerFrom(r.Context())
	inst := model.IngestInstance{InstanceID: id.String(), Vendor: vendor, Name: name, TenantID: tenant,
		TokenHash: hashToken(token), CreatedAt: adminapi.Now(), CreatedBy: c.Email}
	err = s.cfg.Store.Transact(r.Context(), func(tx *store.Tx) error {
		if err := tx.InsertIngestInstance(r.Context(), inst); err != nil {
			return err
		}
		msg := "registered " + vendor + " ingest instance " + name + " for tenant " + tenant
		return tx.InsertAudit(r.Context(), adminapi.AuditEvent(r, "ingest_instance.register", "ingest_instance", inst.InstanceID,
			msg, nil, viewOf(inst)))
	})
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusCreated, RegisteredInstance{InstanceID: inst.InstanceID, Token: token,
		Vendor: vendor, Name: name, TenantID: tenant, CreatedAt: inst.CreatedAt})
}

// getInstances lists the instances the caller may see.
func (s *Service) getInstances(w http.ResponseWriter, r *http.Request) error {
	tenant := callerTenant(r)
	if tenant == model.DefaultTenant {
		tenant = ""
	}
	list, err := s.cfg.Store.IngestInstances(r.Context(), tenant)
	if err != nil {
		return err
	}
	out := make([]InstanceView, len(list))
	for i, in := range list {
		out[i] = viewOf(in)
	}
	return adminapi.WriteJSON(w, http.StatusOK, out)
}

// deleteInstance revokes an instance; 404 when it does not exist or
// belongs to a tenant the caller does not see.
func (s *Service) deleteInstance(w http.ResponseWriter, r *http.Request) (err error) {
	id := r.PathValue("instanceId")
	tenant := callerTenant(r)
	c, _ := access.CallerFrom(r.Context())
	err = s.cfg.Store.Transact(r.Context(), func(tx *store.Tx) error {
		before, err := tx.IngestInstance(r.Context(), id)
		if err != nil {
			return err
		}
		if tenant != model.DefaultTenant && before.TenantID != tenant {
			return store.ErrNotFound
		}
		if !before.RevokedAt.IsZero() {
			return nil // already revoked: nothing changes
		}
		after := before
		after.RevokedAt, after.RevokedBy = adminapi.Now(), c.Email
		if err := tx.RevokeIngestInstance(r.Context(), id, after.RevokedAt, c.Email); err != nil {
			return err
		}
		msg := "revoked " + before.Vendor + " ingest instance " + before.Name
		return tx.InsertAudit(r.Context(), adminapi.AuditEvent(r, "ingest_instance.revoke", "ingest_instance", id, msg,
			viewOf(before), viewOf(after)))
	})
	if errors.Is(err, store.ErrNotFound) {
		return apierr.New(apierr.AdmNotFound, "ingest instance not found")
	}
	if err != nil {
		return err
	}
	s.auth.forget()
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func viewOf(in model.IngestInstance) InstanceView {
	v := InstanceView{InstanceID: in.InstanceID, Vendor: in.Vendor, Name: in.Name, TenantID: in.TenantID, Status: "active",
		CreatedAt: in.CreatedAt, CreatedBy: in.CreatedBy, RevokedBy: in.RevokedBy,
		RevokedAt: timePtr(in.RevokedAt), LastEventAt: timePtr(in.LastEventAt), LastHeartbeatAt: timePtr(in.LastHeartbeatAt)}
	if v.RevokedAt != nil {
		v.Status = "revoked"
	}
	return v
}

// timePtr returns nil for the zero time.
func timePtr(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}
