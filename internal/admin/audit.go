package admin

import (
	"net/http"
	"strings"

	"github.com/s2r-project/s2r/internal/access"
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/model"
)

var docGetAuditEvents = adminapi.Doc{
	Summary: "Audit events, newest first, filtered and paginated. beforeState and afterState have secrets redacted.",
	Query: append([]adminapi.Param{
		{Name: "actorEmail", Type: "string", Description: "exact actor e-mail (lower-case)"},
		{Name: "actorRole", Type: "string", Description: "admin, operator or reader"},
		{Name: "actionType", Type: "string", Description: "for example settings.update"},
		{Name: "entityType", Type: "string", Description: "for example settings"},
		{Name: "entityId", Type: "string", Description: "id of the changed entity"},
		{Name: "result", Type: "string", Description: "success or failure"},
		{Name: "correlationId", Type: "string", Description: "correlation id of the request that made the change"},
		{Name: "messageContains", Type: "string", Description: "case-insensitive substring of the message"},
	}, append(adminapi.TimeParams, adminapi.PageParams...)...),
	Response: model.ObservabilityPageRecord[model.AuditEvent]{},
}

// getAuditEvents lists audit events (SPEC 4.10).
func (s *server) getAuditEvents(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	page, err := adminapi.ParsePage(q)
	if err != nil {
		return err
	}
	tr, err := adminapi.ParseTimeRange(q, s.now())
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
		Since:           tr.Since,
		Until:           tr.Until,
		Page:            page,
	}
	if f.Result != "" && f.Result != model.AuditSuccess && f.Result != model.AuditFailure {
		return adminapi.FieldError("result", "must be success or failure")
	}
	if f.ActorRole != "" && !model.Role(f.ActorRole).Valid() {
		return adminapi.FieldError("actorRole", "must be admin, operator or reader")
	}
	events, err := s.store.AuditEvents(r.Context(), f)
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, events)
}

// auditFailure records that r's change was refused (adminapi.RecordFailure).
func (s *server) auditFailure(r *http.Request, action, entityType, entityID string, cause error) {
	adminapi.RecordFailure(s.store, s.log, r, action, entityType, entityID, cause)
}

// changedNames renders setting or field names for an audit message.
func changedNames(names []string) string { return strings.Join(names, ", ") }
