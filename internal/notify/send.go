package notify

import (
	"context"
	"errors"

	"github.com/wneessen/go-mail"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

// send delivers msgs through r in one session and returns one redacted
// error per message (nil: sent).
func (n *Notifier) send(ctx context.Context, r relay, msgs []message) []error {
	errs := make([]error, len(msgs))
	now := n.cfg.Now()
	var (
		batch []*mail.Msg
		index []int
	)
	for i, m := range msgs {
		msg, err := newMsg(r, m, now)
		if err != nil {
			errs[i] = errors.New(redact(err, r.username, r.password))
			continue
		}
		batch, index = append(batch, msg), append(index, i)
	}
	if len(batch) > 0 {
		for j, err := range n.deliver(ctx, r, batch) {
			errs[index[j]] = err
		}
	}
	return errs
}

// failAll returns err, redacted, for each of n messages.
func failAll(n int, err error, r relay) []error {
	err = errors.New(redact(err, r.username, r.password))
	errs := make([]error, n)
	for i := range errs {
		errs[i] = err
	}
	return errs
}

// mailSteps sends the mails of due and records each attempt with the new
// state of its rule, in one transaction.
func (n *Notifier) mailSteps(ctx context.Context, s model.Settings, due []step, rep *Report) error {
	now := n.cfg.Now()
	msgs := make([]message, len(due))
	for i, st := range due {
		msgs[i] = n.alertMessage(st, s, now)
	}
	var errs []error
	if r, err := n.relay(ctx, s); err != nil {
		errs = failAll(len(msgs), err, r)
	} else {
		errs = n.send(ctx, r, msgs)
	}
	at := n.cfg.Now()
	return n.cfg.Store.Transact(ctx, func(tx *store.Tx) error {
		for i, st := range due {
			rowID := st.cand.RowID
			m := model.AlertMail{AttemptedAt: at, TenantID: st.cand.TenantID, Kind: st.mail, Status: model.AlertMailSent,
				RowID: &rowID, ServiceURI: st.cand.ServiceURI, Recipients: s.AlertRecipients, Subject: msgs[i].subject}
			state := st.state
			state.LastAttemptAt = at
			if errs[i] != nil {
				m.Status, m.Error = model.AlertMailFailed, errs[i].Error()
				rep.Failed++
				n.cfg.Logger.Warn("alerts: mail not delivered", "rowId", rowID, "kind", st.mail, "error", m.Error)
			} else {
				state.LastSentAt, state.NotifiedState = at, state.State
				rep.Sent++
				n.cfg.Logger.Info("alerts: mail sent", "rowId", rowID, "kind", st.mail, "recipients", len(s.AlertRecipients))
			}
			if _, err := tx.InsertAlertMail(ctx, m); err != nil {
				return err
			}
			if err := tx.PutAlertRuleState(ctx, state); err != nil {
				return err
			}
		}
		return nil
	})
}
