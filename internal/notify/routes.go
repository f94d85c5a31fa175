package notify

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/s2r-project/s2r/internal/access"
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

// actionTestMail is the audit action of a test mail.
const actionTestMail = "settings.test_alert_mail"

// Routes returns the admin routes of alert mail, for admin.Config.Routes:
// admin's route table authorizes and documents them.
func (n *Notifier) Routes() []adminapi.Route {
	return []adminapi.Route{
		{Method: "GET", Path: "/settings/alert-mail-history", Role: model.RoleReader, Handle: n.getHistory, Doc: docGetHistory},
		{Method: "POST", Path: "/settings:test-alert-mail", Role: model.RoleAdmin, Handle: n.postTestMail, Doc: docTestMail},
	}
}

var docGetHistory = adminapi.Doc{
	Summary: "Every alert mail delivery attempt, sent or failed, newest first (paginated): kind (trigger, recovery, test), " +
		"status (sent, failed), the discovery row and service URI, recipients, subject and the redacted error. " +
		"A caller sees the attempts of its tenant; attempts are kept default_retention_days.",
	Query:    adminapi.PageParams,
	Response: model.ObservabilityPageRecord[model.AlertMail]{},
}

var docTestMail = adminapi.Doc{
	Summary: "Send one test mail to alert_recipients with the current SMTP settings (alerts_enabled need not be on) " +
		"and record it in the alert mail history. Answers 200 with the history item whether the relay accepted " +
		"the mail (status sent) or not (status failed, with the redacted error); a missing SMTP setting is 400 " +
		"naming it. Audited.",
	Request:  testMailBody{},
	Response: model.AlertMail{},
	Errors:   []int{http.StatusBadRequest},
}

// testMailBody is the (empty) body of the test mail action; it may also
// be omitted.
type testMailBody struct{}

// getHistory answers one page of the caller's tenant's attempts.
func (n *Notifier) getHistory(w http.ResponseWriter, r *http.Request) error {
	page, err := adminapi.ParsePage(r.URL.Query())
	if err != nil {
		return err
	}
	out, err := n.cfg.Store.AlertMails(r.Context(), callerTenant(r.Context()), page)
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, out)
}

// postTestMail sends one test mail and records it, with its audit event.
func (n *Notifier) postTestMail(w http.ResponseWriter, r *http.Request) (err error) {
	defer func() {
		if err != nil {
			adminapi.RecordFailure(n.cfg.Store, n.cfg.Logger, r, actionTestMail, "settings", "alert-mail", err)
		}
	}()
	if r.ContentLength != 0 {
		var body testMailBody
		if err := adminapi.DecodeJSON(w, r, &body); err != nil {
			return err
		}
	}
	ctx := r.Context()
	settings, err := n.cfg.Store.Settings(ctx)
	if err != nil {
		return err
	}
	rel, err := n.relay(ctx, settings)
	var ce *configError
	if errors.As(err, &ce) {
		return adminapi.FieldError(ce.field, ce.reason)
	}
	if err != nil {
		return err
	}
	c, _ := access.CallerFrom(ctx)
	msg := n.testMessage(rel, c.Email)
	sendErr := n.send(ctx, rel, []message{msg})[0]
	item := model.AlertMail{AttemptedAt: n.cfg.Now().UTC().Truncate(time.Microsecond), TenantID: callerTenant(ctx), Kind: model.AlertMailTest,
		Status: model.AlertMailSent, Recipients: rel.recipients, Subject: msg.subject, ActorEmail: c.Email}
	note := "test alert mail sent"
	if sendErr != nil {
		item.Status, item.Error = model.AlertMailFailed, sendErr.Error()
		note = "test alert mail not delivered: " + item.Error
	}
	err = n.cfg.Store.Transact(ctx, func(tx *store.Tx) error {
		id, err := tx.InsertAlertMail(ctx, item)
		if err != nil {
			return err
		}
		item.MailID = id
		after := map[string]any{"mailId": id, "status": item.Status, "recipients": item.Recipients, "error": item.Error}
		return tx.InsertAudit(ctx, adminapi.AuditEvent(r, actionTestMail, "settings", "alert-mail", note, nil, after))
	})
	if err != nil {
		return err
	}
	n.cfg.Logger.InfoContext(ctx, "alerts: test mail", "status", item.Status, "actor", c.Email, "error", item.Error)
	return adminapi.WriteJSON(w, http.StatusOK, item)
}

// callerTenant is the tenant of the request's caller.
func callerTenant(ctx context.Context) string {
	if c, ok := access.CallerFrom(ctx); ok && c.TenantID != "" {
		return c.TenantID
	}
	return model.DefaultTenant
}
