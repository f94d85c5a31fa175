package admin

import (
	"context"
	"errors"
	"net/http"
	"slices"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/s2r-project/s2r/internal/admin/drafts"
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/catalog"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

// operationList answers the operations of a version.
type operationList struct {
	Items []model.Operation `json:"items"`
}

// operationPatchBody documents PATCH /operations/{operationId}; members
// are decoded one by one. timeoutMs and retryCount take null to fall back
// to the settings defaults.
type operationPatchBody struct {
	OperationKey  *string `json:"operationKey,omitempty"`
	RestMethod    *string `json:"restMethod,omitempty"`
	RestPath      *string `json:"restPath,omitempty"`
	TimeoutMs     *int    `json:"timeoutMs,omitempty"`
	RetryCount    *int    `json:"retryCount,omitempty"`
	ExecutionMode *string `json:"executionMode,omitempty"`
	// ResponseValidation is strict, detect or off (DESIGN 10.6).
	ResponseValidation *string `json:"responseValidation,omitempty"`
}

var docListOperations = adminapi.Doc{Summary: "The operations of a version, in contract order.", Response: operationList{}}

var docPatchOperation = adminapi.Doc{
	Summary: "Edit an operation of a draft: operationKey, restMethod (GET, POST, PUT, PATCH, DELETE), restPath (starts " +
		"with /; {name} segments name top-level request fields), timeoutMs (1..600000 or null), retryCount (0..10 or null), " +
		"executionMode (sync, async_callback), responseValidation (strict: a backend response that breaks the contract is 502; " +
		"detect: it is converted as far as it goes, answered and its violations recorded; off: not checked). A route or key used by another operation of the version is 409 S2R-ADM-0409; " +
		"an operation of an active or inactive version is 409 S2R-ADM-0410.",
	Request:  operationPatchBody{},
	Response: model.Operation{},
	Errors:   []int{http.StatusConflict},
}

// listOperations answers the operations of a version.
func (s *server) listOperations(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	v, err := adminapi.VersionOf(ctx, s.store, r.PathValue("serviceId"), r.PathValue("versionId"))
	if err != nil {
		return err
	}
	ops, err := s.store.Operations(ctx, v.VersionID)
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, operationList{Items: ops})
}

// operationOrNotFound maps ErrNotFound to 404 S2R-ADM-0404.
func operationOrNotFound(op model.Operation, err error) (model.Operation, error) {
	if errors.Is(err, store.ErrNotFound) {
		return op, apierr.New(apierr.AdmNotFound, "operation not found")
	}
	return op, err
}

// draftOperation returns an operation and its version inside tx; 409
// S2R-ADM-0410 when the version is not a draft.
func draftOperation(ctx context.Context, tx *store.Tx, id string) (model.Operation, model.Version, error) {
	op, err := operationOrNotFound(tx.Operation(ctx, id))
	if err != nil {
		return op, model.Version{}, err
	}
	v, err := tx.Version(ctx, op.VersionID)
	if err != nil {
		return op, v, err
	}
	if v.Status != model.VersionDraft {
		return op, v, immutable(v)
	}
	return op, v, nil
}

// editOperation runs change on a draft operation in one transaction with
// its audit event and a revision bump; check validates the changed
// operation against its version's other operations and its contract.
func (s *server) editOperation(r *http.Request, id, action string, change func(op *model.Operation, v model.Version) error) (model.Operation, error) {
	ctx := r.Context()
	var after model.Operation
	err := s.store.ChangeConfig(ctx, func(tx *store.Tx) error {
		before, v, err := draftOperation(ctx, tx, id)
		if err != nil {
			return err
		}
		op := before
		if err := change(&op, v); err != nil {
			return err
		}
		if err := tx.UpdateOperation(ctx, op); err != nil {
			return err
		}
		after = op
		return tx.InsertAudit(ctx, adminapi.AuditEvent(r, action, "operation", id, "updated operation "+op.OperationKey, before, op))
	})
	return after, err
}

// patchOperation edits the REST side of a draft operation.
func (s *server) patchOperation(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("operationId")
	var members map[string]jsontext.Value
	if err := adminapi.DecodeJSON(w, r, &members); err != nil {
		return err
	}
	ctx := r.Context()
	after, err := s.editOperation(r, id, "operation.update", func(op *model.Operation, v model.Version) error {
		if err := applyOperationMembers(op, members); err != nil {
			return err
		}
		return s.checkOperationRoute(ctx, v, *op)
	})
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, after)
}

// checkOperationRoute checks op's REST path against its contract and its
// route and key against the version's other operations.
func (s *server) checkOperationRoute(ctx context.Context, v model.Version, op model.Operation) error {
	c, err := adminapi.ContractOf(ctx, s.contracts, v, op)
	if err != nil {
		return err
	}
	var shape *catalog.Shape
	if c != nil {
		shape = catalog.MessageShape(c.Input)
	}
	if probs := catalog.CheckRestPath(op.RestPath, shape); len(probs) > 0 {
		return adminapi.FieldError("restPath", probs[0])
	}
	others, err := s.store.Operations(ctx, v.VersionID)
	if err != nil {
		return err
	}
	key := catalog.RouteKey(op.RestMethod, op.RestPath)
	for _, o := range others {
		if o.OperationID == op.OperationID {
			continue
		}
		if catalog.RouteKey(o.RestMethod, o.RestPath) == key {
			return apierr.New(apierr.AdmAlreadyExists, "operation "+o.OperationKey+" of this version already serves "+key).
				WithDetail("field", "restPath").WithDetail("conflictingOperationId", o.OperationID)
		}
		if o.OperationKey == op.OperationKey {
			return apierr.New(apierr.AdmAlreadyExists, "another operation of this version has operationKey "+op.OperationKey).
				WithDetail("field", "operationKey").WithDetail("conflictingOperationId", o.OperationID)
		}
	}
	return nil
}

// applyOperationMembers applies the members of a PATCH body.
func applyOperationMembers(op *model.Operation, members map[string]jsontext.Value) error {
	for _, name := range adminapi.SortedNames(members) {
		v := members[name]
		var err error
		switch name {
		case "operationKey":
			var k string
			if k, err = adminapi.StringMember(name, v); err == nil && !drafts.KeyPattern.MatchString(k) {
				err = adminapi.FieldError(name, "must match ^[a-z0-9][a-z0-9-]{0,62}$")
			}
			op.OperationKey = k
		case "restMethod":
			var m string
			if m, err = adminapi.StringMember(name, v); err == nil && !slices.Contains(catalog.RestMethods, m) {
				err = adminapi.FieldError(name, "must be one of GET, POST, PUT, PATCH, DELETE")
			}
			op.RestMethod = m
		case "restPath":
			op.RestPath, err = adminapi.StringMember(name, v)
		case "timeoutMs":
			op.TimeoutMs, err = adminapi.NullableInt(name, v, 1, 600000)
		case "retryCount":
			op.RetryCount, err = adminapi.NullableInt(name, v, 0, 10)
		case "executionMode":
			var m string
			if m, err = adminapi.StringMember(name, v); err == nil && m != model.ExecutionSync && m != model.ExecutionAsyncCallback {
				err = adminapi.FieldError(name, "must be sync or async_callback")
			}
			op.ExecutionMode = m
		case "responseValidation":
			var m string
			if m, err = adminapi.StringMember(name, v); err == nil && !slices.Contains(model.ValidationModes, m) {
				err = adminapi.FieldError(name, "must be strict, detect or off")
			}
			op.ResponseValidation = m
		default:
			err = adminapi.FieldError(name, "unknown field")
		}
		if err != nil {
			return err
		}
	}
	return nil
}
