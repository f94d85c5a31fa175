// Package drafts writes what the catalog handlers (internal/admin) and
// onboarding (internal/admin/onboarding) both create: a new service with
// its defaults, a version draft with its operations and mappings, and the
// draft's publish readiness.
package drafts

import (
	"context"
	"errors"
	"net/http"
	"regexp"
	"strconv"
	"time"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/catalog"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

// KeyPattern is the form of serviceKey and environment: they are
// URL path segments of the runtime.
var KeyPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,62}$`)

// NewService returns a service with a fresh id and every default, created
// at now.
func NewService(now time.Time) model.Service {
	now = now.UTC()
	return model.Service{
		ServiceID: adminapi.NewID(), Direction: model.DirectionPublish, Status: model.ServiceActive,
		BackendRoutingMode: model.RoutingSingle, BackendHealthCheckMode: model.HealthCheckNone,
		BackendHealthCheckIntervalSec: model.DefaultHealthCheckIntervalSec, FaultDetailExposureMode: model.FaultDetailSafe,
		CallbackAuthMode: model.CallbackAuthNone, CreatedAt: now, UpdatedAt: now,
	}
}

// ServiceConflict maps a duplicate route key to 409 S2R-ADM-0409.
func ServiceConflict(err error) error {
	if errors.Is(err, store.ErrAlreadyExists) {
		return apierr.Wrap(apierr.AdmAlreadyExists, err, "a service with this direction, environment and serviceKey already exists").
			WithDetail("field", "serviceKey")
	}
	return err
}

// Plan is the content of a new draft: its import and its operations
// with their mappings (same index; a zero mapping gets the auto mapping).
type Plan struct {
	ArtifactID  *string
	WSDLService string
	WSDLPort    string
	Ops         []model.Operation
	Maps        []model.Mapping
}

// WriteTx stores plan as a new draft of service serviceID inside tx, made
// at now by r's caller, with its audit event and a revision bump; from is
// the version it was cloned from, if any. It returns the draft and its
// operations.
func WriteTx(ctx context.Context, r *http.Request, tx *store.Tx, serviceID string, plan Plan, note string, from *string, now func() time.Time) (model.Version, []model.Operation, error) {
	if _, err := tx.BumpRevision(ctx); err != nil {
		return model.Version{}, nil, err
	}
	n, err := tx.NextVersionNumber(ctx, serviceID)
	if err != nil {
		return model.Version{}, nil, err
	}
	at := now().UTC()
	v := model.Version{VersionID: adminapi.NewID(), ServiceID: serviceID, VersionNumber: n, Status: model.VersionDraft,
		ArtifactID: plan.ArtifactID, WSDLService: plan.WSDLService, WSDLPort: plan.WSDLPort, CreatedAt: at,
		CreatedBy: adminapi.CallerEmail(r), Note: note}
	if err := tx.CreateVersion(ctx, v); err != nil {
		if errors.Is(err, store.ErrAlreadyExists) {
			return model.Version{}, nil, apierr.New(apierr.AdmImmutable, "the service already has a draft version")
		}
		return model.Version{}, nil, err
	}
	ops := make([]model.Operation, len(plan.Ops))
	for i, op := range plan.Ops {
		op.OperationID, op.VersionID = adminapi.NewID(), v.VersionID
		if err := tx.CreateOperation(ctx, op, i); err != nil {
			return model.Version{}, nil, err
		}
		m := plan.Maps[i]
		if m.Source == "" {
			m = catalog.AutoMapping(nil)
		}
		m.MappingID, m.OperationID, m.CreatedAt, m.CreatedBy = adminapi.NewID(), op.OperationID, at, adminapi.CallerEmail(r)
		if _, err := tx.CreateFirstMapping(ctx, m); err != nil {
			return model.Version{}, nil, err
		}
		ops[i] = op
	}
	msg := "created draft version " + strconv.Itoa(n)
	if from != nil {
		msg += " cloned from version " + *from
	}
	err = tx.InsertAudit(ctx, adminapi.AuditEvent(r, "version.create", "version", v.VersionID, msg, nil,
		map[string]any{"version": v, "operations": len(ops)}))
	return v, ops, err
}
