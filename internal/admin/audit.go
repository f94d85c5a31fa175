package admin

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/s2r-project/s2r/internal/access"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/correlation"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

var docGetAuditEvents = opDoc{
	summary: "Audit events, newest first, filtered and paginated. beforeState and afterState have secrets redacted.",
	query: append([]param{
		{"actorEmail", "string", "exact actor e-mail (lower-case)"},
		{"actorRole", "string", "admin, operator or reader"},
		{"actionType", "string", "for example settings.update"},
		{"entityType", "string", "for example settings"},
		{"entityId", "string", "id of the changed entity"},
		{"result", "string", "success or failure"},
		{"correlationId", "string", "correlation id of the request that made the change"},
		{"messageContains", "string", "case-insensitive substring of the message"},
	}, append(timeParams, pageParams...)...),
	response: model.ObservabilityPageRecord[model.AuditEvent]{},
}

// getAuditEvents lists audit events (SPEC 4.10).
func (s *server) getAuditEvents(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	page, err := parsePage(q)
	if err != nil {
		return err
	}
	tr, err := parseTimeRange(q, s.now())
	if err != nil {
		return err
	}
	f := model.AuditFilter{
		ActorEmail:      access.NormalizeEmail(q.Get("actorEmail")),
		ActorRole:       q.Get("actorRole"),
		ActionType:      q.Get("actionType"),
		EntityType:      q.Get("entityType"),
		EntityID:        q.Get("entityId"),
		Result:          q.Get("result"),
		CorrelationID:   q.Get("correlationId"),
		MessageContains: q.Get("messageContains"),
		Since:           tr.since,
		Until:           tr.until,
		Page:            page,
	}
	if f.Result != "" && f.Result != model.AuditSuccess && f.Result != model.AuditFailure {
		return fieldError("result", "must be success or failure")
	}
	if f.ActorRole != "" && !model.Role(f.ActorRole).Valid() {
		return fieldError("actorRole", "must be admin, operator or reader")
	}
	events, err := s.store.AuditEvents(r.Context(), f)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, events)
}

// auditEvent returns a success event for a change made by r's caller, with
// before and after encoded as JSON states (nil for none). Callers pass
// values that already hold no secrets (credential metadata, never the
// credential), and insert the event in the change's transaction:
//
//	tx.InsertAudit(ctx, auditEvent(r, "settings.update", "settings", "settings", msg, before, after))
func auditEvent(r *http.Request, action, entityType, entityID, message string, before, after any) model.AuditEvent {
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
		BeforeState:   auditState(before),
		AfterState:    auditState(after),
	}
}

// auditState encodes v as an audit state; nil stays nil.
func auditState(v any) json.RawMessage {
	if v == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage(`{"error":"state could not be encoded"}`)
	}
	return b
}

// auditFailure records, in its own transaction, that r's change was
// refused. The message is the error's caller-facing message, which never
// quotes submitted values. Failing to record is logged, not returned: the
// caller gets the original error.
func (s *server) auditFailure(r *http.Request, action, entityType, entityID string, cause error) {
	e := auditEvent(r, action, entityType, entityID, "", nil, nil)
	e.Result = model.AuditFailure
	e.Message = "refused: " + apierr.Resolve(cause, apierr.AdmInternal).Message
	ctx := context.WithoutCancel(r.Context())
	err := s.store.Transact(ctx, func(tx *store.Tx) error { return tx.InsertAudit(ctx, e) })
	if err != nil {
		s.log.WarnContext(ctx, "audit: failure event not recorded", "action", action, "error", err)
	}
}

// changedNames renders setting or field names for an audit message.
func changedNames(names []string) string { return strings.Join(names, ", ") }

// onFailure records a failure event when *errp is set at return; mutating
// handlers defer it first:
//
//	defer s.onFailure(r, "settings.update", "settings", "settings", &err)
func (s *server) onFailure(r *http.Request, action, entityType, entityID string, errp *error) {
	if *errp != nil {
		s.auditFailure(r, action, entityType, entityID, *errp)
	}
}
