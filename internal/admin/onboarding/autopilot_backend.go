package onboarding

import (
	"net/http"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

// createImportBackendProfile creates the first backend profile of a
// service drafted from an import, inside the autopilot transaction: named
// "default", endpoint backendURL (the port's soap:address unless given),
// authType none, transport defaults; it becomes the service's default
// backend profile. Credentials, if the backend needs them, are set later
// with PATCH /backend-profiles/{profileId}.
func (s *Handlers) createImportBackendProfile(r *http.Request, tx *store.Tx, svc model.Service, backendURL string) (model.BackendProfile, error) {
	ctx := r.Context()
	now := s.now().UTC()
	p := model.BackendProfile{ProfileID: adminapi.NewID(), ServiceID: svc.ServiceID, Name: "default", EndpointURL: backendURL,
		AuthType: model.AuthNone, CreatedAt: now, UpdatedAt: now}
	model.ApplyBackendDefaults(&p)
	if err := tx.CreateBackendProfile(ctx, p); err != nil {
		return model.BackendProfile{}, err
	}
	svc.DefaultBackendProfileID = &p.ProfileID
	svc.UpdatedAt = now
	if err := tx.UpdateService(ctx, svc); err != nil {
		return model.BackendProfile{}, err
	}
	p.IsDefault = true
	return p, tx.InsertAudit(ctx, adminapi.AuditEvent(r, "backend_profile.create", "backend_profile", p.ProfileID,
		"created default backend profile of service "+svc.ServiceKey+" by autopilot", nil, p))
}
