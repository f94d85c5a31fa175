// Package notify evaluates the discovery alert rules and sends the alert
// mails (DESIGN 9 "Discovery and alerts").
//
// The evaluation job runs on every instance every
// alert_evaluation_interval_seconds and takes store.TryExclusive per run,
// so one instance evaluates at a time. A rule triggers when its calls in
// the last hour reach minCalls1h and its failure percent reaches
// failurePctThreshold or its failures reach failureCountThreshold. Each
// change between ok and triggered is announced by one mail (trigger or
// recovery), never more than one per rule per alert_cooldown_minutes. What
// each rule last was and what its last mail announced live in the
// database (alert_rule_states), so a restart or another instance does not
// send again. Every delivery attempt, sent or failed, is recorded in the
// mail history served at GET /admin/v1/settings/alert-mail-history.
//
// Mail goes through github.com/wneessen/go-mail with the SMTP settings;
// the relay is dialed through the outbound address policy of
// internal/fetch (outbound_allowed_cidrs, outbound_denied_cidrs), and the
// SMTP password never appears in a log, a stored error or a response.
package notify

import (
	"context"
	"crypto/tls"
	"errors"
	"log/slog"
	"time"

	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/secret"
	"github.com/s2r-project/s2r/internal/store"
)

// Candidate is one enabled alert rule with its figures over the last hour,
// as the discovery package computes them.
type Candidate struct {
	RowID                 int64
	ServiceURI            string
	TenantID              string
	MinCalls1h            int64
	FailurePctThreshold   float64
	FailureCountThreshold int64
	Calls1h               int64
	Failures1h            int64
}

// Candidates lists the enabled alert rules with their figures.
type Candidates interface {
	// AlertCandidates returns every enabled rule with its calls and
	// failures in the hour ending at now.
	AlertCandidates(ctx context.Context, now time.Time) ([]Candidate, error)
}

// CandidatesFunc adapts a function to Candidates.
type CandidatesFunc func(ctx context.Context, now time.Time) ([]Candidate, error)

// AlertCandidates calls f.
func (f CandidatesFunc) AlertCandidates(ctx context.Context, now time.Time) ([]Candidate, error) {
	return f(ctx, now)
}

// Defaults.
const (
	// DefaultSendTimeout bounds one SMTP session: connect, TLS, AUTH and
	// each message.
	DefaultSendTimeout = 30 * time.Second
	// DefaultRetryAfterFailure is how long a rule waits after a failed
	// delivery before it tries again (capped by the cooldown).
	DefaultRetryAfterFailure = 5 * time.Minute
	// retentionEvery spaces the history retention runs.
	retentionEvery = time.Hour
)

// SettingsSource gives the runtime's current settings snapshot: the
// routing.Reloader in s2r serve, which compiles it with the route table at
// every configuration revision. The job reads the alert settings from it
// (routing.Settings.Stored) and waits on its Replaced channel.
type SettingsSource interface {
	Settings() routing.Settings
}

// Config configures a Notifier. Store is required.
type Config struct {
	Store *store.Store
	// Settings gives the settings the job runs by (alerts_enabled, the
	// SMTP settings, the intervals); nil: the defaults, with which alerts
	// are off. The test-mail route reads the store instead, so a test
	// right after a PATCH uses what was just saved.
	Settings SettingsSource
	// Secrets opens the stored smtp_password; nil: authentication cannot
	// be used (a mail with smtp_username set fails).
	Secrets *secret.Box
	// Candidates lists the rules to evaluate; nil: no rule is evaluated
	// (history, retention and test mails still work).
	Candidates Candidates
	Logger     *slog.Logger
	// PublicBaseURL (S2R_PUBLIC_BASE_URL) makes the console link of a mail
	// absolute; empty: the mail shows the console path alone.
	PublicBaseURL string
	// TLSConfig is the base TLS configuration towards the relay (ServerName
	// is set per relay); nil: system roots, TLS 1.2 or later. Tests use it
	// to trust a test certificate.
	TLSConfig *tls.Config
	// SendTimeout bounds one SMTP session; 0 means DefaultSendTimeout.
	SendTimeout time.Duration
	// RetryAfterFailure: see DefaultRetryAfterFailure; 0 means the default.
	RetryAfterFailure time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Notifier runs the alert evaluation job and serves the alert mail routes.
type Notifier struct {
	cfg           Config
	lastRetention time.Time // guarded by the exclusive job
}

// New returns a Notifier.
func New(cfg Config) (*Notifier, error) {
	if cfg.Store == nil {
		return nil, errors.New("notify: a store is required")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.SendTimeout <= 0 {
		cfg.SendTimeout = DefaultSendTimeout
	}
	if cfg.RetryAfterFailure <= 0 {
		cfg.RetryAfterFailure = DefaultRetryAfterFailure
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Notifier{cfg: cfg}, nil
}

// Run evaluates the rules at start and then every
// alert_evaluation_interval_seconds until ctx ends; then it returns nil.
// The interval is read again after each run and whenever a new settings
// snapshot replaces the one it read, so a shorter interval applies at
// once. A failed run (e.g. the database is unreachable) is logged and
// retried after at most retryAfterError, so evaluation resumes soon after
// the database is back.
func (n *Notifier) Run(ctx context.Context) error {
	for {
		started := time.Now()
		rep, err := n.Evaluate(ctx)
		next := rep.Next
		if err != nil && ctx.Err() == nil {
			n.cfg.Logger.Warn("alerts: evaluation failed", "error", err.Error())
			next = min(next, retryAfterError)
		}
		if !n.wait(ctx, started, next) {
			return nil
		}
	}
}

// settings returns the current settings snapshot.
func (n *Notifier) settings() routing.Settings {
	if n.cfg.Settings == nil {
		return routing.DefaultSettings()
	}
	return n.cfg.Settings.Settings()
}

// retryAfterError is the longest wait after a failed evaluation.
const retryAfterError = 5 * time.Second

// wait waits until next after started, moving the deadline earlier when
// the settings snapshot (the current one, then each that replaces it)
// shortens the interval; false when ctx ended.
func (n *Notifier) wait(ctx context.Context, started time.Time, next time.Duration) bool {
	t := time.NewTimer(time.Until(started.Add(next)))
	defer t.Stop()
	s := n.settings()
	for {
		if iv := time.Duration(s.Stored().AlertEvaluationIntervalSeconds) * time.Second; iv < next {
			next = iv
			t.Reset(time.Until(started.Add(next)))
		}
		select {
		case <-ctx.Done():
			return false
		case <-t.C:
			return true
		case <-s.Replaced():
			s = n.settings()
		}
	}
}
