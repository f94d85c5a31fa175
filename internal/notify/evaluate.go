package notify

import (
	"context"
	"fmt"
	"time"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

// evaluationJob names the job for store.TryExclusive.
const evaluationJob = "alert-evaluation"

// FailurePct is the failure percent of c's last hour (0 without calls).
func (c Candidate) FailurePct() float64 {
	if c.Calls1h <= 0 {
		return 0
	}
	return 100 * float64(c.Failures1h) / float64(c.Calls1h)
}

// Triggered reports whether c's rule triggers: at least minCalls1h calls
// and (failure percent ≥ failurePctThreshold or failures ≥
// failureCountThreshold). A rule never triggers without a failure, so a
// threshold of 0 does not make a healthy service "fail".
func (c Candidate) Triggered() bool {
	if c.Failures1h <= 0 || c.Calls1h < c.MinCalls1h {
		return false
	}
	return c.FailurePct() >= c.FailurePctThreshold || c.Failures1h >= c.FailureCountThreshold
}

// state returns the rule state c's figures give.
func (c Candidate) state() string {
	if c.Triggered() {
		return model.AlertStateTriggered
	}
	return model.AlertStateOK
}

// Report is the outcome of one evaluation run.
type Report struct {
	// Ran is false when another instance was running the job.
	Ran bool
	// Evaluated counts the rules evaluated; Sent and Failed the delivery
	// attempts of the run.
	Evaluated, Sent, Failed int
	// Next is alert_evaluation_interval_seconds as the run read it.
	Next time.Duration
}

// Evaluate runs one evaluation unless another instance is running one:
// it takes the settings from the current snapshot, prunes the mail
// history past default_retention_days (at most hourly), and, when
// alerts_enabled, evaluates every rule and mails the changes that are
// due. The settings are taken first, by every instance, so that Next is
// the configured interval also where another instance evaluates: that is
// how often an instance asks, and so how soon it takes over from one that
// died.
func (n *Notifier) Evaluate(ctx context.Context) (Report, error) {
	settings := n.settings().Stored()
	rep := Report{Next: time.Duration(settings.AlertEvaluationIntervalSeconds) * time.Second}
	ran, err := n.cfg.Store.TryExclusive(ctx, evaluationJob, func(ctx context.Context) error {
		return n.evaluate(ctx, settings, &rep)
	})
	rep.Ran = ran
	return rep, err
}

func (n *Notifier) evaluate(ctx context.Context, settings model.Settings, rep *Report) error {
	now := n.cfg.Now()
	if err := n.retain(ctx, settings, now); err != nil {
		n.cfg.Logger.Warn("alerts: mail history retention failed", "error", err.Error())
	}
	if !settings.AlertsEnabled || n.cfg.Candidates == nil {
		return nil
	}
	cands, err := n.cfg.Candidates.AlertCandidates(ctx, now)
	if err != nil {
		return fmt.Errorf("notify: alert candidates: %w", err)
	}
	prev, err := n.cfg.Store.AlertRuleStates(ctx)
	if err != nil {
		return err
	}
	steps, gone := plan(prev, cands, now, n.policy(settings))
	rep.Evaluated = len(steps)
	var changed, due []step
	for _, s := range steps {
		if s.write {
			changed = append(changed, s)
		}
		if s.mail != "" {
			due = append(due, s)
		}
	}
	if len(changed) > 0 || len(gone) > 0 {
		err = n.cfg.Store.Transact(ctx, func(tx *store.Tx) error {
			for _, s := range changed {
				if err := tx.PutAlertRuleState(ctx, s.state); err != nil {
					return err
				}
			}
			return tx.DeleteAlertRuleStates(ctx, gone)
		})
		if err != nil {
			return err
		}
	}
	if len(due) == 0 {
		return nil
	}
	return n.mailSteps(ctx, settings, due, rep)
}

// policy is what limits the mails of one rule.
type policy struct {
	cooldown time.Duration // least time between two sent mails
	retry    time.Duration // least time after a failed attempt
}

func (n *Notifier) policy(s model.Settings) policy {
	p := policy{cooldown: time.Duration(s.AlertCooldownMinutes) * time.Minute, retry: n.cfg.RetryAfterFailure}
	p.retry = min(p.retry, p.cooldown)
	return p
}

// step is what one evaluation decides for one rule.
type step struct {
	cand  Candidate
	state store.AlertRuleState // the state to keep
	write bool                 // state differs from the stored one
	mail  string               // model.AlertMailTrigger, model.AlertMailRecovery or ""
}

// plan decides, for every candidate, its new state and whether a mail is
// due; gone lists the stored states of rules no longer enabled. A mail is
// due when the state differs from the one the last sent mail announced,
// the cooldown since that mail has passed, and no failed attempt is more
// recent than the retry delay.
func plan(prev []store.AlertRuleState, cands []Candidate, now time.Time, p policy) (steps []step, gone []int64) {
	byRow := make(map[int64]store.AlertRuleState, len(prev))
	for _, st := range prev {
		byRow[st.RowID] = st
	}
	seen := make(map[int64]bool, len(cands))
	for _, c := range cands {
		if seen[c.RowID] {
			continue
		}
		seen[c.RowID] = true
		st, found := byRow[c.RowID]
		if !found {
			st = store.AlertRuleState{RowID: c.RowID, State: model.AlertStateOK, NotifiedState: model.AlertStateOK, ChangedAt: now}
		}
		s := step{cand: c}
		if cur := c.state(); cur != st.State {
			st.State, st.ChangedAt, s.write = cur, now, true
		}
		if st.TenantID != c.TenantID || st.ServiceURI != c.ServiceURI {
			st.TenantID, st.ServiceURI = c.TenantID, c.ServiceURI
			s.write = s.write || found
		}
		if st.State != st.NotifiedState && p.mayMail(st, now) {
			s.mail = model.AlertMailRecovery
			if st.State == model.AlertStateTriggered {
				s.mail = model.AlertMailTrigger
			}
		}
		s.state = st
		steps = append(steps, s)
	}
	for _, st := range prev {
		if !seen[st.RowID] {
			gone = append(gone, st.RowID)
		}
	}
	return steps, gone
}

// mayMail reports whether the rule of st may be mailed about at now.
func (p policy) mayMail(st store.AlertRuleState, now time.Time) bool {
	if !st.LastSentAt.IsZero() && now.Sub(st.LastSentAt) < p.cooldown {
		return false
	}
	failedLast := st.LastAttemptAt.After(st.LastSentAt)
	return !failedLast || now.Sub(st.LastAttemptAt) >= p.retry
}

// retain deletes mail history past default_retention_days, at most once
// per retentionEvery on this instance.
func (n *Notifier) retain(ctx context.Context, s model.Settings, now time.Time) error {
	if !n.lastRetention.IsZero() && now.Sub(n.lastRetention) < retentionEvery {
		return nil
	}
	cut := now.Add(-time.Duration(s.DefaultRetentionDays) * 24 * time.Hour)
	var removed int64
	err := n.cfg.Store.Transact(ctx, func(tx *store.Tx) (err error) {
		removed, err = tx.DeleteAlertMailsBefore(ctx, cut)
		return err
	})
	if err != nil {
		return err
	}
	n.lastRetention = now
	if removed > 0 {
		n.cfg.Logger.Info("alerts: mail history retention removed attempts", "removed", removed,
			"retentionDays", s.DefaultRetentionDays)
	}
	return nil
}
