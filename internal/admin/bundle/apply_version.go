package bundle

import (
	"errors"
	"strconv"
	"time"

	"github.com/s2r-project/s2r/internal/admin/drafts"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/catalog"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

// version applies the version of s to svc: when its WSDL, port,
// operations, rules or mappings differ from the target's active version
// (with "activate": false, from its draft when it has one), a new version
// is made from the bundle and activated unless s says "activate": false;
// the previous version stays for rollback.
func (a *applier) version(base string, svc *model.Service, s Service, pv *preparedVersion) error {
	if s.Version == nil {
		return nil
	}
	ctx := a.r.Context()
	activate := s.Activate == nil || *s.Activate
	draft, err := a.tx.VersionWithStatus(ctx, svc.ServiceID, model.VersionDraft)
	hasDraft := err == nil
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	curID := svc.ActiveVersionID
	if !activate && hasDraft {
		curID = &draft.VersionID
	}
	var cur *Version
	if curID != nil {
		if cur, err = exportVersion(ctx, a.tx, *curID); err != nil {
			return err
		}
	}
	fields := versionFields(*s.Version, cur)
	if cur != nil && len(fields) == 0 {
		a.add(s, KindVersion, strconv.Itoa(cur.VersionNumber), ActionUnchanged, nil)
		return nil
	}
	if hasDraft {
		return apierr.New(apierr.AdmImmutable, "the service has a draft version ("+strconv.Itoa(draft.VersionNumber)+
			"): activate or delete it before a bundle makes a new version").WithDetail("pointer", base).
			WithDetail("versionId", draft.VersionID)
	}
	artifactID, err := a.artifact(s.Version, cur, curID, pv)
	if err != nil {
		return err
	}
	plan := pv.plan
	plan.ArtifactID = &artifactID
	v, _, err := drafts.WriteTx(ctx, a.r, a.tx, svc.ServiceID, plan, "applied from a bundle", nil,
		func() time.Time { return a.now })
	if err != nil {
		return err
	}
	if activate {
		if err := a.checkReady(base, *svc, v); err != nil {
			return err
		}
		if err := a.activate(svc, v); err != nil {
			return err
		}
	}
	action := ActionCreate
	if cur != nil {
		action = ActionUpdate
	}
	a.add(s, KindVersion, strconv.Itoa(v.VersionNumber), action, fields)
	return nil
}

// versionFields lists what differs between the bundle's version want and
// cur (nil: none). An operation without a mapping in the bundle keeps
// the mapping of cur's operation with the same key.
func versionFields(want Version, cur *Version) []string {
	if cur == nil {
		return nil
	}
	want.Operations = append([]Operation{}, want.Operations...)
	for i, o := range want.Operations {
		if o.Mapping != nil {
			continue
		}
		for _, c := range cur.Operations {
			if c.OperationKey == o.OperationKey {
				want.Operations[i].Mapping = c.Mapping
			}
		}
	}
	fields := changedFields(want, *cur, "versionNumber")
	if len(fields) == 1 && fields[0] == "operations" {
		return operationFields(want.Operations, cur.Operations)
	}
	return fields
}

// operationFields names the operations that differ, added or removed
// ("operations.KEY").
func operationFields(want, cur []Operation) []string {
	var out []string
	byKey := map[string]Operation{}
	for _, c := range cur {
		byKey[c.OperationKey] = c
	}
	for _, w := range want {
		c, ok := byKey[w.OperationKey]
		delete(byKey, w.OperationKey)
		if !ok || !same(w, c) {
			out = append(out, "operations."+w.OperationKey)
		}
	}
	for k := range byKey {
		out = append(out, "operations."+k)
	}
	if len(out) == 0 { // same operations in another order
		out = []string{"operations"}
	}
	return out
}

// artifact is the import of the new version: the current version's when
// the bundle's WSDL files are the same, otherwise the bundle's, stored now.
func (a *applier) artifact(want *Version, cur *Version, curID *string, pv *preparedVersion) (string, error) {
	ctx := a.r.Context()
	if cur != nil && same(want.WSDL, cur.WSDL) {
		v, err := a.tx.Version(ctx, *curID)
		if err != nil {
			return "", err
		}
		if v.ArtifactID != nil {
			return *v.ArtifactID, nil
		}
	}
	art := pv.artifact
	art.CreatedAt, art.CreatedBy = a.now, a.by
	if err := a.tx.InsertArtifact(ctx, art); err != nil {
		return "", err
	}
	// The import is not committed yet: the readiness check reads its
	// contract from the cache. An import rolled back leaves an entry no
	// version names.
	a.h.contracts.Prime(art, pv.defs)
	return art.ArtifactID, nil
}

// checkReady refuses to activate a new version that is BLOCKED, as
// :activate does: 409 S2R-ADM-0410 with the pointer of the version.
func (a *applier) checkReady(base string, svc model.Service, v model.Version) error {
	rep, err := drafts.Readiness(a.r.Context(), a.h.contracts, a.tx, svc, v)
	if err != nil {
		return err
	}
	if rep.Status == catalog.Blocked {
		return apierr.New(apierr.AdmImmutable, "the new version is BLOCKED and cannot be activated; "+
			"give \"activate\": false to keep it as a draft").WithDetail("pointer", base).
			WithDetail("readiness", rep.Status).WithDetail("blockingIssues", rep.BlockingIssues)
	}
	return nil
}

// activate makes v the active version of svc and the previous active
// version inactive (kept for rollback), as :activate does.
func (a *applier) activate(svc *model.Service, v model.Version) error {
	ctx := a.r.Context()
	cur, err := a.tx.VersionWithStatus(ctx, svc.ServiceID, model.VersionActive)
	switch {
	case err == nil:
		if err := a.tx.SetVersionStatus(ctx, cur.VersionID, model.VersionInactive, time.Time{}); err != nil {
			return err
		}
	case !errors.Is(err, store.ErrNotFound):
		return err
	}
	if err := a.tx.SetVersionStatus(ctx, v.VersionID, model.VersionActive, a.now); err != nil {
		return err
	}
	svc.ActiveVersionID, svc.UpdatedAt = &v.VersionID, a.now
	return a.tx.UpdateService(ctx, *svc)
}
