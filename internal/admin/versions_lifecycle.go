package admin

import (
	"context"
	"errors"
	"net/http"

	"github.com/s2r-project/s2r/internal/admin/drafts"
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/catalog"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

// rollbackBody is the optional body of :rollback.
type rollbackBody struct {
	TargetVersionID string `json:"targetVersionId,omitempty"`
}

// driftResult answers wsdl-drift.
type driftResult struct {
	VersionID          string  `json:"versionId"`
	ArtifactID         *string `json:"artifactId"`
	ComparedArtifactID *string `json:"comparedArtifactId"`
	catalog.DriftReport
}

// readinessResult answers publish-readiness.
type readinessResult struct {
	VersionID string `json:"versionId"`
	catalog.ReadinessReport
}

var docRollbackVersion = adminapi.Doc{
	Summary: "Roll back to a version that was active before: the path version is the target (or, with targetVersionId in " +
		"the body, the path names the current active version and the body the target). The target becomes active again, " +
		"the current active version inactive; a draft is left as it is. A target that is active or a draft is 409 S2R-ADM-0410.",
	Request:  rollbackBody{},
	Response: activationResult{},
	Errors:   []int{http.StatusConflict},
}

var docPublishReadiness = adminapi.Doc{
	Summary:  "Publish readiness of a version: READY_TO_PUBLISH, READY_WITH_RISK or BLOCKED, with checks, blocking issues, risks and suggested actions.",
	Response: readinessResult{},
}

var docWSDLDrift = adminapi.Doc{
	Summary: "Drift of the version's contract against the newest import of the service's own WSDL lineage (the imports " +
		"attached to its versions: the autopilot import that created it, and POST /services/{serviceId}/versions {artifactId}; " +
		"never an import made for another service): UP_TO_DATE, DRIFT_DETECTED (additive), BREAKING_DRIFT, or UNTRACKED " +
		"(no import, or no newer import in the lineage), with the list of changes and comparedArtifactId.",
	Response: driftResult{},
}

var docReplacementDraft = adminapi.Doc{
	Summary: "Create a draft from the newest import of the service's WSDL lineage newer than the version's, keeping operationKey, REST route, " +
		"timeout, retries, execution mode, rules and still-valid manual mappings of every operation that still exists " +
		"(matched by SOAP operation name). 409 S2R-ADM-0410 when a draft exists or there is no newer import.",
	Response: draftResult{},
	Status:   http.StatusCreated,
	Errors:   []int{http.StatusConflict},
}

// rollbackVersion makes a previously active version active again.
func (s *server) rollbackVersion(w http.ResponseWriter, r *http.Request) (err error) {
	serviceID, pathID := r.PathValue("serviceId"), r.PathValue("versionId")
	var body rollbackBody
	if err := adminapi.DecodeOptionalJSON(w, r, &body); err != nil {
		return err
	}
	ctx := r.Context()
	var res activationResult
	err = s.store.ChangeConfig(ctx, func(tx *store.Tx) error {
		svc, err := adminapi.ServiceOrNotFound(tx.Service(ctx, serviceID))
		if err != nil {
			return err
		}
		target, err := rollbackTarget(ctx, tx, serviceID, pathID, body.TargetVersionID)
		if err != nil {
			return err
		}
		res, err = s.switchActive(r, tx, svc, target, "version.rollback")
		return err
	})
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, res)
}

// rollbackTarget resolves and checks the target of a rollback.
func rollbackTarget(ctx context.Context, tx *store.Tx, serviceID, pathID, bodyID string) (model.Version, error) {
	pathV, err := adminapi.VersionOf(ctx, tx, serviceID, pathID)
	if err != nil {
		return model.Version{}, err
	}
	target := pathV
	if bodyID != "" && bodyID != pathID {
		if pathV.Status != model.VersionActive {
			return model.Version{}, apierr.New(apierr.AdmImmutable,
				"with targetVersionId, the path must name the active version; this version is "+pathV.Status).
				WithDetail("versionStatus", pathV.Status)
		}
		if target, err = adminapi.VersionOf(ctx, tx, serviceID, bodyID); err != nil {
			return model.Version{}, adminapi.FieldError("targetVersionId", "no version with this id in the service")
		}
	}
	switch {
	case target.Status == model.VersionActive:
		return model.Version{}, apierr.New(apierr.AdmImmutable, "the target version is already active").
			WithDetail("versionStatus", target.Status)
	case target.Status == model.VersionDraft || target.ActivatedAt == nil:
		return model.Version{}, apierr.New(apierr.AdmImmutable,
			"the target version was never active; activate a draft with :activate").WithDetail("versionStatus", target.Status)
	}
	return target, nil
}

// publishReadiness answers the readiness of a version.
func (s *server) publishReadiness(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	svc, err := adminapi.ServiceOrNotFound(s.store.Service(ctx, r.PathValue("serviceId")))
	if err != nil {
		return err
	}
	v, err := adminapi.VersionOf(ctx, s.store, svc.ServiceID, r.PathValue("versionId"))
	if err != nil {
		return err
	}
	rep, err := drafts.Readiness(ctx, s.contracts, s.store, svc, v)
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, readinessResult{VersionID: v.VersionID, ReadinessReport: rep})
}

// newerImport returns the newest import of the service's own WSDL lineage
// that is newer than v's import (DESIGN 10.4), nil when v has no import or
// there is none newer.
func (s *server) newerImport(ctx context.Context, v model.Version) (*model.Artifact, error) {
	if v.ArtifactID == nil {
		return nil, nil
	}
	a, err := s.store.NewestLineageArtifact(ctx, v.ServiceID, *v.ArtifactID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &a, nil
}

// wsdlDrift answers the drift of a version against the newest import of
// the service's lineage.
func (s *server) wsdlDrift(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	v, err := adminapi.VersionOf(ctx, s.store, r.PathValue("serviceId"), r.PathValue("versionId"))
	if err != nil {
		return err
	}
	res := driftResult{VersionID: v.VersionID, ArtifactID: v.ArtifactID}
	newer, err := s.newerImport(ctx, v)
	if err != nil {
		return err
	}
	oldDefs, err := adminapi.Definitions(ctx, s.contracts, v)
	if err != nil {
		return err
	}
	if newer == nil {
		res.DriftReport = catalog.Drift(oldDefs, nil, nil)
		return adminapi.WriteJSON(w, http.StatusOK, res)
	}
	newDefs, err := s.contracts.Definitions(ctx, newer.ArtifactID)
	if err != nil {
		return err
	}
	ops, err := s.store.Operations(ctx, v.VersionID)
	if err != nil {
		return err
	}
	res.ComparedArtifactID = &newer.ArtifactID
	res.DriftReport = catalog.Drift(oldDefs, newDefs, ops)
	return adminapi.WriteJSON(w, http.StatusOK, res)
}

// generateReplacementDraft drafts from the newest import of the lineage,
// keeping the settings of operations that still exist.
func (s *server) generateReplacementDraft(w http.ResponseWriter, r *http.Request) error {
	serviceID, versionID := r.PathValue("serviceId"), r.PathValue("versionId")
	ctx := r.Context()
	v, err := adminapi.VersionOf(ctx, s.store, serviceID, versionID)
	if err != nil {
		return err
	}
	if d, err := s.store.VersionWithStatus(ctx, serviceID, model.VersionDraft); err == nil {
		return draftExists(d)
	}
	newer, err := s.newerImport(ctx, v)
	if err != nil {
		return err
	}
	if newer == nil {
		return apierr.New(apierr.AdmImmutable, "the service has no newer WSDL import than this version's to draft from").
			WithDetail("artifactId", v.ArtifactID)
	}
	plan, err := s.planFromImport(ctx, newer.ArtifactID, v.WSDLService, v.WSDLPort)
	if err != nil {
		plan, err = s.planFromImport(ctx, newer.ArtifactID, "", "")
	}
	if err != nil {
		return err
	}
	if err := s.keepSettings(ctx, v, &plan); err != nil {
		return err
	}
	res, err := s.writeDraft(r, serviceID, plan, "replacement draft from import "+newer.ArtifactID, &v.VersionID)
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusCreated, res)
}

// keepSettings carries the REST route, timeout, retries, execution mode,
// key and rules of v's operations into the plan's operations of the same
// SOAP name, and their manual mappings when those still fit the new
// contract.
func (s *server) keepSettings(ctx context.Context, v model.Version, plan *drafts.Plan) error {
	old, err := s.store.Operations(ctx, v.VersionID)
	if err != nil {
		return err
	}
	maps, err := s.store.ActiveMappings(ctx, v.VersionID)
	if err != nil {
		return err
	}
	byName := map[string]model.Operation{}
	for _, op := range old {
		byName[op.SOAPOperationName] = op
	}
	newDefs, err := s.contracts.Definitions(ctx, *plan.ArtifactID)
	if err != nil {
		return err
	}
	kept := make([]bool, len(plan.Ops))
	taken := map[string]bool{}
	for i, op := range plan.Ops {
		prev, ok := byName[op.SOAPOperationName]
		if !ok {
			continue
		}
		kept[i], taken[prev.OperationKey] = true, true
		op.OperationKey, op.RestMethod, op.RestPath = prev.OperationKey, prev.RestMethod, prev.RestPath
		op.TimeoutMs, op.RetryCount, op.ExecutionMode = prev.TimeoutMs, prev.RetryCount, prev.ExecutionMode
		op.ValidationRules, op.TransformRules = prev.ValidationRules, prev.TransformRules
		plan.Ops[i] = op
		if m, ok := maps[prev.OperationID]; ok && m.Source == model.MappingManual {
			c := catalog.Contract(newDefs, plan.WSDLService, plan.WSDLPort, op)
			if len(catalog.CheckMapping(c, m)) == 0 {
				plan.Maps[i] = m
			}
		}
	}
	// New operations give way to the keys the kept ones had.
	for i, op := range plan.Ops {
		if kept[i] || !taken[op.OperationKey] {
			taken[op.OperationKey] = true
			continue
		}
		key := op.OperationKey
		for n := 2; taken[key]; n++ {
			key = op.OperationKey + "-" + itoa(n)
		}
		taken[key] = true
		plan.Ops[i].OperationKey, plan.Ops[i].RestPath = key, "/"+key
	}
	return nil
}
