package admin

import (
	"context"
	"errors"
	"net/http"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/s2r-project/s2r/internal/admin/drafts"
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

var docCreateService = adminapi.Doc{
	Summary: "Create a service. serviceKey and environment match ^[a-z0-9][a-z0-9-]{0,62}$; direction defaults to publish, " +
		"status to active, serviceName to serviceKey. A service with the same direction, environment and key is 409 S2R-ADM-0409.",
	Request:  serviceBody{},
	Response: model.Service{},
	Status:   http.StatusCreated,
	Errors:   []int{http.StatusConflict},
}

var docListServices = adminapi.Doc{
	Summary: "Services, paged, ordered by environment, key and direction.",
	Query: append([]adminapi.Param{
		{Name: "q", Type: "string", Description: "case-insensitive substring of serviceKey or serviceName"},
		{Name: "environment", Type: "string", Description: "exact environment"},
		{Name: "direction", Type: "string", Description: "publish, consume or gateway"},
		{Name: "status", Type: "string", Description: "active, disabled or deprecated"},
		{Name: "traffic", Type: "string", Description: "with: services that have received traffic (lastTrafficAt set); without: never"},
	}, adminapi.PageParams...),
	Response: model.ObservabilityPageRecord[model.Service]{},
}

var docGetService = adminapi.Doc{Summary: "One service.", Response: model.Service{}}

var docPatchService = adminapi.Doc{
	Summary: "Partial update of a service: metadata, status (active or disabled; deprecated is DELETE), debugEnabled and " +
		"the route-level fields. serviceKey, environment and direction cannot change. null clears defaultBackendProfileId, " +
		"envelopeWrapOverride and errorShapeOverride. callbackSecret (async callbacks with callbackAuthMode shared_secret) is " +
		"write-only: a string sets it, null clears it; answers show only its credential metadata envelope.",
	Request:  serviceBody{},
	Response: model.Service{},
}

var docDeleteService = adminapi.Doc{
	Summary:  "Soft delete: the service becomes deprecated and the runtime stops serving it.",
	Response: model.Service{},
}

var docHardDeleteService = adminapi.Doc{
	Summary: "Permanent delete of a service that is not active, with its versions, operations, mappings, backend profiles, " +
		"grants, monitors and datasets. An active service is 409 S2R-ADM-0410.",
	Status: http.StatusNoContent,
	Errors: []int{http.StatusConflict},
}

// createService creates a service from defaults and the body's members.
func (s *server) createService(w http.ResponseWriter, r *http.Request) error {
	var members map[string]jsontext.Value
	if err := adminapi.DecodeJSON(w, r, &members); err != nil {
		return err
	}
	svc := drafts.NewService(s.now())
	secret, err := takeCallbackSecret(members)
	if err != nil {
		return err
	}
	if err := applyServiceMembers(&svc, members, true); err != nil {
		return err
	}
	if err := s.applyCallbackSecret(r, &svc, secret); err != nil {
		return err
	}
	for _, req := range []struct{ name, v string }{{"serviceKey", svc.ServiceKey}, {"environment", svc.Environment}} {
		if req.v == "" {
			return adminapi.FieldError(req.name, "is required")
		}
	}
	if svc.ServiceName == "" {
		svc.ServiceName = svc.ServiceKey
	}
	if svc.DefaultBackendProfileID != nil {
		return adminapi.FieldError("defaultBackendProfileId", "a new service has no backend profile yet; set it after creating one")
	}
	err = s.store.ChangeConfig(r.Context(), func(tx *store.Tx) error {
		if err := tx.CreateService(r.Context(), svc); err != nil {
			return drafts.ServiceConflict(err)
		}
		return tx.InsertAudit(r.Context(), adminapi.AuditEvent(r, "service.create", "service", svc.ServiceID,
			"created service "+svc.Direction+"/"+svc.Environment+"/"+svc.ServiceKey, nil, svc))
	})
	if err != nil {
		return err
	}
	w.Header().Set("Location", Prefix+"/services/"+svc.ServiceID)
	return adminapi.WriteJSON(w, http.StatusCreated, svc)
}

// listServices answers a page of services.
func (s *server) listServices(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	page, err := adminapi.ParsePage(q)
	if err != nil {
		return err
	}
	f := model.ServiceFilter{Query: q.Get("q"), Environment: q.Get("environment"), Direction: q.Get("direction"),
		Status: q.Get("status"), Traffic: q.Get("traffic"), Page: page}
	for _, c := range []struct {
		name, v string
		ok      []string
	}{
		{"direction", f.Direction, []string{model.DirectionPublish, model.DirectionConsume, model.DirectionGateway}},
		{"status", f.Status, []string{model.ServiceActive, model.ServiceDisabled, model.ServiceDeprecated}},
		{"traffic", f.Traffic, []string{"with", "without"}},
	} {
		if c.v != "" && !contains(c.ok, c.v) {
			return adminapi.FieldError(c.name, "must be one of "+joinComma(c.ok))
		}
	}
	if len(f.Query) > 200 {
		return adminapi.FieldError("q", "must be at most 200 characters")
	}
	out, err := s.store.Services(r.Context(), f)
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, out)
}

// getService answers one service.
func (s *server) getService(w http.ResponseWriter, r *http.Request) error {
	svc, err := adminapi.ServiceOrNotFound(s.store.Service(r.Context(), r.PathValue("serviceId")))
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, svc)
}

// patchService applies a partial update to a service.
func (s *server) patchService(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("serviceId")
	var members map[string]jsontext.Value
	if err := adminapi.DecodeJSON(w, r, &members); err != nil {
		return err
	}
	if len(members) == 0 {
		return s.getService(w, r)
	}
	secret, err := takeCallbackSecret(members)
	if err != nil {
		return err
	}
	var after model.Service
	err = s.changeService(r, id, "service.update", func(svc *model.Service) error {
		if err := applyServiceMembers(svc, members, false); err != nil {
			return err
		}
		return s.applyCallbackSecret(r, svc, secret)
	}, &after, checkDefaultProfile)
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, after)
}

// deleteService soft-deletes a service: its status becomes deprecated.
func (s *server) deleteService(w http.ResponseWriter, r *http.Request) (err error) {
	id := r.PathValue("serviceId")
	var after model.Service
	err = s.changeService(r, id, "service.delete", func(svc *model.Service) error {
		svc.Status = model.ServiceDeprecated
		return nil
	}, &after)
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, after)
}

// changeService runs change on the stored service in one transaction with
// its audit event and a revision bump, and stores the result in *after.
func (s *server) changeService(r *http.Request, id, action string, change func(*model.Service) error, after *model.Service,
	checks ...func(context.Context, *store.Tx, model.Service) error) error {
	ctx := r.Context()
	return s.store.ChangeConfig(ctx, func(tx *store.Tx) error {
		before, err := adminapi.ServiceOrNotFound(tx.Service(ctx, id))
		if err != nil {
			return err
		}
		svc := before
		if err := change(&svc); err != nil {
			return err
		}
		for _, check := range checks {
			if err := check(ctx, tx, svc); err != nil {
				return err
			}
		}
		svc.UpdatedAt = s.now().UTC()
		if err := tx.UpdateService(ctx, svc); err != nil {
			return err
		}
		*after = svc
		return tx.InsertAudit(ctx, adminapi.AuditEvent(r, action, "service", id, serviceMessage(action, svc), before, svc))
	})
}

// serviceMessage describes a service change for the audit log.
func serviceMessage(action string, svc model.Service) string {
	key := svc.Direction + "/" + svc.Environment + "/" + svc.ServiceKey
	switch action {
	case "service.delete":
		return "deprecated service " + key
	case "service.hard_delete":
		return "permanently deleted service " + key
	}
	return "updated service " + key
}

// hardDeleteService removes a service that is not active, with every
// dependant row.
func (s *server) hardDeleteService(w http.ResponseWriter, r *http.Request) (err error) {
	id := r.PathValue("serviceId")
	ctx := r.Context()
	err = s.store.ChangeConfig(ctx, func(tx *store.Tx) error {
		before, err := adminapi.ServiceOrNotFound(tx.Service(ctx, id))
		if err != nil {
			return err
		}
		if before.Status == model.ServiceActive {
			return apierr.New(apierr.AdmImmutable, "an active service cannot be hard-deleted; disable or deprecate it first").
				WithDetail("status", before.Status)
		}
		if err := tx.DeleteService(ctx, id); err != nil {
			return err
		}
		return tx.InsertAudit(ctx, adminapi.AuditEvent(r, "service.hard_delete", "service", id,
			serviceMessage("service.hard_delete", before), before, nil))
	})
	if err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func itoa(n int) string { return strconv.Itoa(n) }

// checkDefaultProfile refuses a defaultBackendProfileId that is not a
// backend profile of the service.
func checkDefaultProfile(ctx context.Context, tx *store.Tx, svc model.Service) error {
	if svc.DefaultBackendProfileID == nil {
		return nil
	}
	p, err := tx.BackendProfile(ctx, *svc.DefaultBackendProfileID)
	if errors.Is(err, store.ErrNotFound) || (err == nil && p.ServiceID != svc.ServiceID) {
		return adminapi.FieldError("defaultBackendProfileId", "the service has no backend profile with this id")
	}
	return err
}
