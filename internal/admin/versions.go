package admin

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/s2r-project/s2r/internal/admin/drafts"
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/catalog"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

// versionList answers GET /services/{serviceId}/versions.
type versionList struct {
	Items []model.Version `json:"items"`
}

// createVersionBody is the optional body of POST
// /services/{serviceId}/versions. With artifactId the draft is drafted
// from that import (service and port chosen as in generate-service);
// without it, it is cloned from the active version, else the newest one.
type createVersionBody struct {
	ArtifactID  string `json:"artifactId,omitempty"`
	WSDLService string `json:"wsdlService,omitempty"`
	WSDLPort    string `json:"wsdlPort,omitempty"`
	Note        string `json:"note,omitempty"`
}

// draftResult answers the creation of a draft.
type draftResult struct {
	Version    model.Version     `json:"version"`
	Operations []model.Operation `json:"operations"`
	// ClonedFrom is the version the draft was cloned from, if any.
	ClonedFrom *string `json:"clonedFromVersionId"`
}

// activationResult answers :activate and :rollback.
type activationResult struct {
	Version           model.Version            `json:"version"`
	Service           model.Service            `json:"service"`
	PreviousVersionID *string                  `json:"previousActiveVersionId"`
	PublishReadiness  *catalog.ReadinessReport `json:"publishReadiness,omitempty"`
}

var docListVersions = adminapi.Doc{Summary: "The versions of a service, newest first.", Response: versionList{}}

var docCreateVersion = adminapi.Doc{
	Summary: "Create a draft: cloned from the active version (else the newest) with its operations, rules and active " +
		"mappings, or, with artifactId, drafted from that WSDL import. The body is optional. A draft that already " +
		"exists is 409 S2R-ADM-0410.",
	Request:  createVersionBody{},
	Response: draftResult{},
	Status:   http.StatusCreated,
	Errors:   []int{http.StatusConflict},
}

var docActivateVersion = adminapi.Doc{
	Summary: "Activate a draft: it becomes active (immutable), the previous active version inactive, and the service's " +
		"activeVersionId points at it. A version that is not a draft, or whose readiness is BLOCKED, is 409 S2R-ADM-0410 " +
		"(details.blockingIssues).",
	Response: activationResult{},
	Errors:   []int{http.StatusConflict},
}

// listVersions answers the versions of a service, newest first.
func (s *server) listVersions(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	if _, err := adminapi.ServiceOrNotFound(s.store.Service(ctx, r.PathValue("serviceId"))); err != nil {
		return err
	}
	vs, err := s.store.Versions(ctx, r.PathValue("serviceId"))
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, versionList{Items: vs})
}

// draftExists is the 409 S2R-ADM-0410 of a second draft.
func draftExists(d model.Version) error {
	return apierr.New(apierr.AdmImmutable, "the service already has a draft version; edit or activate it first").
		WithDetail("draftVersionId", d.VersionID)
}

// createVersion creates a draft by cloning, or from an import.
func (s *server) createVersion(w http.ResponseWriter, r *http.Request) (err error) {
	serviceID := r.PathValue("serviceId")
	var body createVersionBody
	if err := adminapi.DecodeOptionalJSON(w, r, &body); err != nil {
		return err
	}
	ctx := r.Context()
	var res draftResult
	if body.ArtifactID != "" {
		plan, err := s.planFromImport(ctx, body.ArtifactID, body.WSDLService, body.WSDLPort)
		if err != nil {
			return err
		}
		res, err = s.writeDraft(r, serviceID, plan, body.Note, nil)
		if err != nil {
			return err
		}
		return adminapi.WriteJSON(w, http.StatusCreated, res)
	}
	err = s.store.Transact(ctx, func(tx *store.Tx) error {
		src, err := cloneSource(ctx, tx, serviceID)
		if err != nil {
			return err
		}
		plan, err := clonePlan(ctx, tx, src)
		if err != nil {
			return err
		}
		res, err = s.writeDraftTx(ctx, r, tx, serviceID, plan, body.Note, &src.VersionID)
		return err
	})
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusCreated, res)
}

// cloneSource picks the version a new draft is cloned from: the active
// one, else the newest. 409 when a draft exists, 400 when there is none.
func cloneSource(ctx context.Context, tx *store.Tx, serviceID string) (model.Version, error) {
	if _, err := adminapi.ServiceOrNotFound(tx.Service(ctx, serviceID)); err != nil {
		return model.Version{}, err
	}
	vs, err := tx.Versions(ctx, serviceID)
	if err != nil {
		return model.Version{}, err
	}
	for _, v := range vs {
		if v.Status == model.VersionDraft {
			return model.Version{}, draftExists(v)
		}
	}
	for _, v := range vs {
		if v.Status == model.VersionActive {
			return v, nil
		}
	}
	if len(vs) == 0 {
		return model.Version{}, adminapi.FieldError("artifactId",
			"the service has no version to clone; give the artifactId of a WSDL import to draft from")
	}
	return vs[0], nil
}

// clonePlan copies the operations and active mappings of src.
func clonePlan(ctx context.Context, tx *store.Tx, src model.Version) (drafts.Plan, error) {
	ops, err := tx.Operations(ctx, src.VersionID)
	if err != nil {
		return drafts.Plan{}, err
	}
	maps, err := tx.ActiveMappings(ctx, src.VersionID)
	if err != nil {
		return drafts.Plan{}, err
	}
	p := drafts.Plan{ArtifactID: src.ArtifactID, WSDLService: src.WSDLService, WSDLPort: src.WSDLPort, Ops: ops,
		Maps: make([]model.Mapping, len(ops))}
	for i, op := range ops {
		p.Maps[i] = maps[op.OperationID]
	}
	return p, nil
}

// planFromImport drafts the operations of an import with auto mappings.
func (s *server) planFromImport(ctx context.Context, artifactID, service, port string) (drafts.Plan, error) {
	defs, err := s.contracts.Definitions(ctx, artifactID)
	if errors.Is(err, store.ErrNotFound) {
		return drafts.Plan{}, adminapi.FieldError("artifactId", "no WSDL import with this id")
	}
	if err != nil {
		return drafts.Plan{}, err
	}
	svcName, p, err := catalog.SelectPort(defs, service, port)
	if err != nil {
		return drafts.Plan{}, adminapi.FieldError("wsdlPort", err.Error())
	}
	ops, err := catalog.DraftOperations(defs, svcName, p.Name)
	if err != nil {
		return drafts.Plan{}, adminapi.FieldError("wsdlPort", err.Error())
	}
	plan := drafts.Plan{ArtifactID: &artifactID, WSDLService: svcName, WSDLPort: p.Name, Ops: ops, Maps: make([]model.Mapping, len(ops))}
	for i, op := range ops {
		plan.Maps[i] = catalog.AutoMapping(catalog.Contract(defs, svcName, p.Name, op))
	}
	return plan, nil
}

// writeDraft stores plan as the new draft of a service in one transaction.
func (s *server) writeDraft(r *http.Request, serviceID string, plan drafts.Plan, note string, from *string) (draftResult, error) {
	var res draftResult
	err := s.store.Transact(r.Context(), func(tx *store.Tx) error {
		if _, err := adminapi.ServiceOrNotFound(tx.Service(r.Context(), serviceID)); err != nil {
			return err
		}
		if d, err := tx.VersionWithStatus(r.Context(), serviceID, model.VersionDraft); err == nil {
			return draftExists(d)
		} else if !errors.Is(err, store.ErrNotFound) {
			return err
		}
		var err error
		res, err = s.writeDraftTx(r.Context(), r, tx, serviceID, plan, note, from)
		return err
	})
	return res, err
}

// immutable is the 409 S2R-ADM-0410 of an edit of a version that is not a
// draft.
func immutable(v model.Version) error {
	return apierr.New(apierr.AdmImmutable, "version "+itoa(v.VersionNumber)+" is "+v.Status+
		": only a draft version can be edited; create a draft (POST /services/{serviceId}/versions)").
		WithDetail("versionId", v.VersionID).WithDetail("versionStatus", v.Status)
}

// activateVersion makes a draft the active version.
func (s *server) activateVersion(w http.ResponseWriter, r *http.Request) (err error) {
	serviceID, versionID := r.PathValue("serviceId"), r.PathValue("versionId")
	ctx := r.Context()
	var res activationResult
	err = s.store.ChangeConfig(ctx, func(tx *store.Tx) error {
		svc, err := adminapi.ServiceOrNotFound(tx.Service(ctx, serviceID))
		if err != nil {
			return err
		}
		v, err := adminapi.VersionOf(ctx, tx, serviceID, versionID)
		if err != nil {
			return err
		}
		if v.Status != model.VersionDraft {
			return apierr.New(apierr.AdmImmutable, "only a draft can be activated; this version is "+v.Status).
				WithDetail("versionStatus", v.Status)
		}
		rep, err := drafts.Readiness(ctx, s.contracts, tx, svc, v)
		if err != nil {
			return err
		}
		if rep.Status == catalog.Blocked {
			return apierr.New(apierr.AdmImmutable, "the draft is BLOCKED and cannot be activated").
				WithDetail("readiness", rep.Status).WithDetail("blockingIssues", rep.BlockingIssues)
		}
		res, err = s.switchActive(r, tx, svc, v, "version.activate")
		res.PublishReadiness = &rep
		return err
	})
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, res)
}

// switchActive makes v the active version of svc and the current active
// version inactive, points the service at v, and audits it as action.
func (s *server) switchActive(r *http.Request, tx *store.Tx, svc model.Service, v model.Version, action string) (activationResult, error) {
	ctx := r.Context()
	now := s.now().UTC()
	var prev *string
	cur, err := tx.VersionWithStatus(ctx, svc.ServiceID, model.VersionActive)
	switch {
	case err == nil:
		prev = &cur.VersionID
		if err := tx.SetVersionStatus(ctx, cur.VersionID, model.VersionInactive, time.Time{}); err != nil {
			return activationResult{}, err
		}
	case !errors.Is(err, store.ErrNotFound):
		return activationResult{}, err
	}
	if err := tx.SetVersionStatus(ctx, v.VersionID, model.VersionActive, now); err != nil {
		return activationResult{}, err
	}
	before := svc
	beforeVersion := v
	v.Status, v.ActivatedAt = model.VersionActive, &now
	svc.ActiveVersionID, svc.UpdatedAt = &v.VersionID, now
	if err := tx.UpdateService(ctx, svc); err != nil {
		return activationResult{}, err
	}
	msg := "activated version " + itoa(v.VersionNumber)
	if action == "version.rollback" {
		msg = "rolled back to version " + itoa(v.VersionNumber)
	}
	err = tx.InsertAudit(ctx, adminapi.AuditEvent(r, action, "version", v.VersionID, msg,
		map[string]any{"version": beforeVersion, "activeVersionId": before.ActiveVersionID},
		map[string]any{"version": v, "activeVersionId": svc.ActiveVersionID, "previousActiveVersionId": prev}))
	return activationResult{Version: v, Service: svc, PreviousVersionID: prev}, err
}

// writeDraftTx stores plan as a new draft inside tx (drafts.WriteTx).
func (s *server) writeDraftTx(ctx context.Context, r *http.Request, tx *store.Tx, serviceID string, plan drafts.Plan, note string, from *string) (draftResult, error) {
	v, ops, err := drafts.WriteTx(ctx, r, tx, serviceID, plan, note, from, s.now)
	if err != nil {
		return draftResult{}, err
	}
	return draftResult{Version: v, Operations: ops, ClonedFrom: from}, nil
}
