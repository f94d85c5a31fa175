package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/s2r-project/s2r/internal/model"
)

// AlertRuleState is the alert evaluation job's memory of one discovery
// alert rule (internal/notify). A rule without a stored state is ok and
// was never mailed about.
type AlertRuleState struct {
	RowID      int64
	TenantID   string
	ServiceURI string
	// State is what the last evaluation found: model.AlertStateOK or
	// model.AlertStateTriggered; ChangedAt is when it last changed.
	State     string
	ChangedAt time.Time
	// NotifiedState is the state the last sent mail announced
	// (model.AlertStateOK before any mail).
	NotifiedState string
	// LastAttemptAt is the last delivery attempt, sent or failed;
	// LastSentAt the last one that was sent (zero: none).
	LastAttemptAt time.Time
	LastSentAt    time.Time
}

// Bounds of stored alert texts.
const (
	maxAlertURI     = 2048
	maxAlertSubject = 998 // RFC 5322 line limit
	maxAlertError   = 1024
)

const alertStateColumns = "row_id, tenant_id, service_uri, state, notified_state, changed_at, last_attempt_at, last_sent_at"

// AlertRuleStates returns every stored alert rule state.
func (s *Store) AlertRuleStates(ctx context.Context) ([]AlertRuleState, error) {
	rows, err := s.reader().Query(ctx, "SELECT "+alertStateColumns+" FROM alert_rule_states ORDER BY row_id")
	if err != nil {
		return nil, fmt.Errorf("store: alert rule states: %w", err)
	}
	defer rows.Close()
	var out []AlertRuleState
	for rows.Next() {
		var (
			st                           AlertRuleState
			changed, attempted, sentTime Time
		)
		if err := rows.Scan(&st.RowID, &st.TenantID, &st.ServiceURI, &st.State, &st.NotifiedState,
			&changed, &attempted, &sentTime); err != nil {
			return nil, fmt.Errorf("store: alert rule states: %w", err)
		}
		st.ChangedAt, st.LastAttemptAt, st.LastSentAt = changed.Time, attempted.Time, sentTime.Time
		out = append(out, st)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: alert rule states: %w", mapError(err))
	}
	return out, nil
}

// PutAlertRuleState inserts or replaces the state of one rule.
func (tx *Tx) PutAlertRuleState(ctx context.Context, st AlertRuleState) error {
	_, err := tx.Exec(ctx, "INSERT INTO alert_rule_states ("+alertStateColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
		ON CONFLICT (row_id) DO UPDATE SET tenant_id = excluded.tenant_id, service_uri = excluded.service_uri,
		state = excluded.state, notified_state = excluded.notified_state, changed_at = excluded.changed_at,
		last_attempt_at = excluded.last_attempt_at, last_sent_at = excluded.last_sent_at`,
		st.RowID, st.TenantID, StorableText(st.ServiceURI, maxAlertURI), st.State, st.NotifiedState,
		NewTime(st.ChangedAt), NewTime(st.LastAttemptAt), NewTime(st.LastSentAt))
	if err != nil {
		return fmt.Errorf("store: put alert rule state %d: %w", st.RowID, err)
	}
	return nil
}

// DeleteAlertRuleStates removes the states of the given rules (rules that
// were disabled or deleted).
func (tx *Tx) DeleteAlertRuleStates(ctx context.Context, rowIDs []int64) error {
	for len(rowIDs) > 0 {
		n := min(len(rowIDs), 500)
		marks := make([]string, n)
		args := make([]any, n)
		for i, id := range rowIDs[:n] {
			marks[i], args[i] = "$"+strconv.Itoa(i+1), id
		}
		if _, err := tx.Exec(ctx, "DELETE FROM alert_rule_states WHERE row_id IN ("+strings.Join(marks, ",")+")", args...); err != nil {
			return fmt.Errorf("store: delete alert rule states: %w", err)
		}
		rowIDs = rowIDs[n:]
	}
	return nil
}

// InsertAlertMail records one delivery attempt. A missing MailID gets a
// time-ordered UUID, which it returns.
func (tx *Tx) InsertAlertMail(ctx context.Context, m model.AlertMail) (string, error) {
	if m.MailID == "" {
		id, err := uuid.NewV7()
		if err != nil {
			return "", fmt.Errorf("store: alert mail id: %w", err)
		}
		m.MailID = id.String()
	}
	recipients, err := json.Marshal(nonNil(m.Recipients))
	if err != nil {
		return "", fmt.Errorf("store: alert mail recipients: %w", err)
	}
	var rowID any
	if m.RowID != nil {
		rowID = *m.RowID
	}
	_, err = tx.Exec(ctx, `INSERT INTO alert_mail_history (mail_id, attempted_at, tenant_id, kind, status, row_id,
		service_uri, recipients, subject, error, actor_email) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
		m.MailID, NewTime(m.AttemptedAt), m.TenantID, m.Kind, m.Status, rowID,
		StorableText(m.ServiceURI, maxAlertURI), string(recipients), StorableText(m.Subject, maxAlertSubject),
		StorableText(m.Error, maxAlertError), m.ActorEmail)
	if err != nil {
		return "", fmt.Errorf("store: insert alert mail: %w", err)
	}
	return m.MailID, nil
}

// AlertMails returns one page of the delivery attempts of tenant, newest
// first.
func (s *Store) AlertMails(ctx context.Context, tenant string, page model.PageRequest) (model.ObservabilityPageRecord[model.AlertMail], error) {
	var total int64
	err := s.reader().QueryRow(ctx, "SELECT COUNT(*) FROM alert_mail_history WHERE tenant_id = $1", tenant).Scan(&total)
	if err != nil {
		return model.ObservabilityPageRecord[model.AlertMail]{}, fmt.Errorf("store: count alert mails: %w", err)
	}
	rows, err := s.reader().Query(ctx, `SELECT mail_id, attempted_at, tenant_id, kind, status, row_id, service_uri,
		recipients, subject, error, actor_email FROM alert_mail_history WHERE tenant_id = $1
		ORDER BY attempted_at DESC, mail_id DESC LIMIT $2 OFFSET $3`, tenant, page.PageSize, page.Offset())
	if err != nil {
		return model.ObservabilityPageRecord[model.AlertMail]{}, fmt.Errorf("store: alert mails: %w", err)
	}
	defer rows.Close()
	var items []model.AlertMail
	for rows.Next() {
		m, err := scanAlertMail(rows.Scan)
		if err != nil {
			return model.ObservabilityPageRecord[model.AlertMail]{}, err
		}
		items = append(items, m)
	}
	if err := rows.Err(); err != nil {
		return model.ObservabilityPageRecord[model.AlertMail]{}, fmt.Errorf("store: alert mails: %w", mapError(err))
	}
	return model.NewPage(items, page, total), nil
}

func scanAlertMail(scan func(...any) error) (model.AlertMail, error) {
	var (
		m          model.AlertMail
		at         Time
		rowID      *int64
		recipients string
	)
	if err := scan(&m.MailID, &at, &m.TenantID, &m.Kind, &m.Status, &rowID, &m.ServiceURI,
		&recipients, &m.Subject, &m.Error, &m.ActorEmail); err != nil {
		return m, fmt.Errorf("store: alert mails: %w", err)
	}
	m.AttemptedAt, m.RowID = at.Time, rowID
	if err := json.Unmarshal([]byte(recipients), &m.Recipients); err != nil {
		return m, fmt.Errorf("store: alert mail %s recipients: %w", m.MailID, err)
	}
	return m, nil
}

// DeleteAlertMailsBefore removes delivery attempts older than t
// (retention) and returns how many were removed.
func (tx *Tx) DeleteAlertMailsBefore(ctx context.Context, t time.Time) (int64, error) {
	res, err := tx.Exec(ctx, "DELETE FROM alert_mail_history WHERE attempted_at < $1", NewTime(t))
	if err != nil {
		return 0, fmt.Errorf("store: delete alert mails: %w", err)
	}
	return res.RowsAffected()
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
