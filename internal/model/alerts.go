package model

import "time"

// Alert mail kinds (AlertMail.Kind).
const (
	AlertMailTrigger  = "trigger"  // a rule started to trigger
	AlertMailRecovery = "recovery" // a triggered rule stopped triggering
	AlertMailTest     = "test"     // sent by an admin with POST /settings:test-alert-mail
)

// Alert mail outcomes (AlertMail.Status).
const (
	AlertMailSent   = "sent"
	AlertMailFailed = "failed"
)

// Alert rule states: what the last evaluation found.
const (
	AlertStateOK        = "ok"
	AlertStateTriggered = "triggered"
)

// AlertMail is one attempt to deliver an alert mail, sent or failed, as
// GET /admin/v1/settings/alert-mail-history lists it (DESIGN 9). Error is
// the delivery error with every credential redacted; it is empty when the
// mail was sent.
type AlertMail struct {
	MailID      string    `json:"mailId"`
	AttemptedAt time.Time `json:"attemptedAt"`
	Kind        string    `json:"kind"`   // trigger, recovery or test
	Status      string    `json:"status"` // sent or failed
	RowID       *int64    `json:"rowId,omitempty"`
	ServiceURI  string    `json:"serviceUri,omitempty"`
	Recipients  []string  `json:"recipients"`
	Subject     string    `json:"subject"`
	Error       string    `json:"error,omitempty"`
	ActorEmail  string    `json:"actorEmail,omitempty"` // who sent a test mail
	TenantID    string    `json:"-"`                    // tenant of the discovery row (or of the admin, for a test mail)
}
