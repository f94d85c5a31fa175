package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/s2r-project/s2r/internal/model"
)

// InsertAudit appends an audit event. A missing EventID gets a time-ordered
// UUID and a zero OccurredAt the current time; empty states are stored as
// NULL. Callers run it in the transaction of the change it records, so the
// change and its event commit together.
func (tx *Tx) InsertAudit(ctx context.Context, e model.AuditEvent) error {
	if e.EventID == "" {
		id, err := uuid.NewV7()
		if err != nil {
			return fmt.Errorf("store: audit event id: %w", err)
		}
		e.EventID = id.String()
	}
	if e.OccurredAt.IsZero() {
		e.OccurredAt = time.Now()
	}
	_, err := tx.Exec(ctx, `INSERT INTO audit_events (event_id, occurred_at, actor_email, actor_role, action_type,
		entity_type, entity_id, result, correlation_id, message, before_state, after_state)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
		e.EventID, NewTime(e.OccurredAt), e.ActorEmail, string(e.ActorRole), e.ActionType,
		e.EntityType, e.EntityID, e.Result, e.CorrelationID, e.Message, jsonOrNull(e.BeforeState), jsonOrNull(e.AfterState))
	if err != nil {
		return fmt.Errorf("store: insert audit event %s: %w", e.ActionType, err)
	}
	return nil
}

// AuditEvents returns one page of the events matching f, newest first.
func (s *Store) AuditEvents(ctx context.Context, f model.AuditFilter) (model.ObservabilityPageRecord[model.AuditEvent], error) {
	where, args := auditWhere(f)
	var total int64
	if err := s.reader().QueryRow(ctx, "SELECT COUNT(*) FROM audit_events"+where, args...).Scan(&total); err != nil {
		return model.ObservabilityPageRecord[model.AuditEvent]{}, fmt.Errorf("store: count audit events: %w", err)
	}
	n := len(args)
	query := `SELECT event_id, occurred_at, actor_email, actor_role, action_type, entity_type, entity_id, result,
		correlation_id, message, before_state, after_state FROM audit_events` + where +
		" ORDER BY occurred_at DESC, seq DESC LIMIT $" + strconv.Itoa(n+1) + " OFFSET $" + strconv.Itoa(n+2)
	args = append(args, f.Page.PageSize, f.Page.Offset())
	items, err := queryAudit(ctx, s.reader(), query, args)
	if err != nil {
		return model.ObservabilityPageRecord[model.AuditEvent]{}, err
	}
	return model.NewPage(items, f.Page, total), nil
}

// DeleteAuditEventsBefore removes events older than t (retention) and
// returns how many were removed.
func (tx *Tx) DeleteAuditEventsBefore(ctx context.Context, t time.Time) (int64, error) {
	res, err := tx.Exec(ctx, "DELETE FROM audit_events WHERE occurred_at < $1", NewTime(t))
	if err != nil {
		return 0, fmt.Errorf("store: delete audit events: %w", err)
	}
	return res.RowsAffected()
}

// auditWhere builds the WHERE clause of f, with $1-style placeholders.
func auditWhere(f model.AuditFilter) (string, []any) {
	var w whereClause
	w.equal([2]string{"actor_email", f.ActorEmail}, [2]string{"actor_role", f.ActorRole},
		[2]string{"action_type", f.ActionType}, [2]string{"entity_type", f.EntityType},
		[2]string{"entity_id", f.EntityID}, [2]string{"result", f.Result},
		[2]string{"correlation_id", f.CorrelationID})
	if f.MessageContains != "" {
		w.add(`LOWER(message) LIKE ? ESCAPE '\'`, containsPattern(f.MessageContains))
	}
	if !f.Since.IsZero() {
		w.add("occurred_at >= ?", NewTime(f.Since))
	}
	if !f.Until.IsZero() {
		w.add("occurred_at <= ?", NewTime(f.Until))
	}
	return w.clause()
}

func queryAudit(ctx context.Context, q Querier, query string, args []any) ([]model.AuditEvent, error) {
	rows, err := q.Query(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("store: audit events: %w", err)
	}
	defer rows.Close()
	out := []model.AuditEvent{}
	for rows.Next() {
		var (
			e             model.AuditEvent
			at            Time
			before, after *string
		)
		if err := rows.Scan(&e.EventID, &at, &e.ActorEmail, &e.ActorRole, &e.ActionType, &e.EntityType, &e.EntityID,
			&e.Result, &e.CorrelationID, &e.Message, &before, &after); err != nil {
			return nil, fmt.Errorf("store: audit events: %w", err)
		}
		e.OccurredAt, e.BeforeState, e.AfterState = at.Time, rawOrNil(before), rawOrNil(after)
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: audit events: %w", mapError(err))
	}
	return out, nil
}

// jsonOrNull returns raw as text, or nil (SQL NULL) when it is empty.
func jsonOrNull(raw json.RawMessage) any {
	if len(raw) == 0 {
		return nil
	}
	return string(raw)
}

func rawOrNil(s *string) json.RawMessage {
	if s == nil {
		return nil
	}
	return json.RawMessage(*s)
}
