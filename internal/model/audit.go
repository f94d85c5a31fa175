package model

import (
	"encoding/json"
	"time"
)

// Audit event results.
const (
	AuditSuccess = "success"
	AuditFailure = "failure"
)

// AuditEvent records one change made through the admin API (SPEC 6).
// BeforeState and AfterState are JSON documents of the entity around the
// change, with every credential replaced by its metadata envelope or
// "[REDACTED]"; they are null when there is no such state (creation,
// deletion).
type AuditEvent struct {
	EventID       string          `json:"eventId"`
	OccurredAt    time.Time       `json:"occurredAt"`
	ActorEmail    string          `json:"actorEmail"`
	ActorRole     Role            `json:"actorRole"`
	ActionType    string          `json:"actionType"`
	EntityType    string          `json:"entityType"`
	EntityID      string          `json:"entityId"`
	Result        string          `json:"result"`
	CorrelationID string          `json:"correlationId"`
	Message       string          `json:"message"`
	BeforeState   json.RawMessage `json:"beforeState"`
	AfterState    json.RawMessage `json:"afterState"`
}

// Redacted is the value that replaces a secret that has no metadata
// envelope in an audit state.
const Redacted = "[REDACTED]"

// AuditFilter selects audit events (SPEC 4.10). Empty strings match
// everything; MessageContains is a case-insensitive substring. Since and
// Until bound OccurredAt inclusively when non-zero.
type AuditFilter struct {
	ActorEmail      string
	ActorRole       string
	ActionType      string
	EntityType      string
	EntityID        string
	Result          string
	CorrelationID   string
	MessageContains string
	Since, Until    time.Time
	Page            PageRequest
}
