package adminapi

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"

	"github.com/s2r-project/s2r/internal/access"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/correlation"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

// AuditEvent returns a success event for a change made by r's caller, with
// before and after encoded as JSON states (nil for none). Callers pass
// values that already hold no secrets (credential metadata, never the
// credential), and insert the event in the change's transaction:
//
//	tx.InsertAudit(ctx, adminapi.AuditEvent(r, "settings.update", "settings", "settings", msg, before, after))
func AuditEvent(r *http.Request, action, entityType, entityID, message string, before, after any) model.AuditEvent {
	c, _ := access.CallerFrom(r.Context())
	return model.AuditEvent{
		ActorEmail:    c.Email,
		ActorRole:     c.Role,
		ActionType:    action,
		EntityType:    entityType,
		EntityID:      entityID,
		Result:        model.AuditSuccess,
		CorrelationID: correlation.ID(r.Context()),
		Message:       message,
		BeforeState:   AuditState(before),
		AfterState:    AuditState(after),
	}
}

// AuditState encodes v as an audit state; nil stays nil.
func AuditState(v any) json.RawMessage {
	if v == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage(`{"error":"state could not be encoded"}`)
	}
	return b
}

// RecordFailure records, in its own transaction, that r's change was
// refused. The message is the error's caller-facing message, which never
// quotes submitted values. Failing to record is logged, not returned: the
// caller gets the original error.
func RecordFailure(st *store.Store, log *slog.Logger, r *http.Request, action, entityType, entityID string, cause error) {
	e := AuditEvent(r, action, entityType, entityID, "", nil, nil)
	e.Result = model.AuditFailure
	e.Message = "refused: " + apierr.Resolve(cause, apierr.AdmInternal).Message
	ctx := context.WithoutCancel(r.Context())
	err := st.Transact(ctx, func(tx *store.Tx) error { return tx.InsertAudit(ctx, e) })
	if err != nil {
		log.WarnContext(ctx, "audit: failure event not recorded", "action", action, "error", err)
	}
}
