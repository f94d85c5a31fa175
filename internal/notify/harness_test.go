package notify

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/admin"
	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/notify/smtptest"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/routing/load/loadtest"
	"github.com/s2r-project/s2r/internal/secret"
	"github.com/s2r-project/s2r/internal/store"
)

// Test identities: root is a bootstrap admin, the others get permission
// bindings.
const (
	rootEmail     = admintest.RootEmail
	operatorEmail = admintest.OperatorEmail
	readerEmail   = admintest.ReaderEmail
	acmeEmail     = "acme-reader@example.com" // reader in tenant acme

	smtpUser     = "alerts@example.com"
	smtpPassword = "pa55-w0rd:Secret!"
	publicBase   = "https://s2r.example.com/"
)

// fixedFigures is a Candidates with figures the test sets.
type fixedFigures struct {
	mu    sync.Mutex
	cands []Candidate
	calls int
}

func (f *fixedFigures) AlertCandidates(context.Context, time.Time) ([]Candidate, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	return append([]Candidate(nil), f.cands...), nil
}

func (f *fixedFigures) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls
}

func (f *fixedFigures) set(c ...Candidate) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cands = c
}

// clock is a settable test clock.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// harness is a Notifier on a real store, with the real admin API (its
// routes included) on 127.0.0.1, a real SMTP server, and the route
// reloader whose settings snapshot the notifier reads, as in s2r serve.
type harness struct {
	t        *testing.T
	store    *store.Store
	routes   *routing.Reloader
	box      *secret.Box
	notifier *Notifier
	figures  *fixedFigures
	clock    *clock
	smtp     *smtptest.Server
	api      *admintest.Client
	logs     *admintest.LogBuffer
}

// failing is a candidate whose rule triggers: 25 failures of 200 calls.
func failing(rowID int64) Candidate {
	return Candidate{RowID: rowID, ServiceURI: "/shop/orders/{id}", TenantID: model.DefaultTenant,
		MinCalls1h: 20, FailurePctThreshold: 10, FailureCountThreshold: 50, Calls1h: 200, Failures1h: 25}
}

// healthy is the same rule with 1 failure of 200 calls.
func healthy(rowID int64) Candidate {
	c := failing(rowID)
	c.Failures1h = 1
	return c
}

// newHarness starts everything; smtpOpts configures the SMTP server and
// settings the settings PATCHed through the admin API on top of a
// working configuration for that server.
func newHarness(t *testing.T, st *store.Store, smtpOpts smtptest.Options, settings map[string]any) *harness {
	t.Helper()
	box := admintest.Box(t)
	logger, logs := admintest.Logger()
	var err error
	h := &harness{t: t, store: st, box: box, figures: &fixedFigures{}, logs: logs,
		clock: &clock{now: time.Date(2026, 3, 2, 9, 30, 0, 0, time.UTC)}}
	h.smtp = smtptest.Start(t, smtpOpts)
	h.routes = loadtest.Follow(t, st)
	h.notifier, err = New(Config{Store: st, Settings: h.routes, Secrets: box, Candidates: h.figures, Logger: logger,
		PublicBaseURL: publicBase, TLSConfig: h.smtp.ClientTLS(), SendTimeout: 5 * time.Second,
		RetryAfterFailure: 5 * time.Minute, Now: h.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	h.api = admintest.Serve(t, admin.New(admin.Config{Store: st, Secrets: box, Logger: logger,
		BootstrapAdmins: []string{rootEmail}, Version: "test", Routes: h.notifier.Routes()}))
	admintest.Bind(t, st, append(admintest.Staff(), admintest.Binding{Email: acmeEmail, Role: model.RoleReader, TenantID: "acme"})...)
	mode := model.SMTPTLSStartTLS
	switch {
	case smtpOpts.ImplicitTLS:
		mode = model.SMTPTLSImplicit
	case smtpOpts.NoTLS:
		mode = model.SMTPTLSNone
	}
	patch := map[string]any{
		"smtp_host": h.smtp.Host, "smtp_port": h.smtp.Port, "smtp_tls_mode": mode,
		"smtp_from": "s2r@example.com", "alert_recipients": []string{"ops@example.com", "oncall@example.com"},
		"outbound_allowed_cidrs": []string{"127.0.0.0/8"}, "alerts_enabled": true, "alert_cooldown_minutes": 60,
	}
	if smtpOpts.Username != "" {
		patch["smtp_username"], patch["smtp_password"] = smtpOpts.Username, smtpOpts.Password
	}
	for k, v := range settings {
		patch[k] = v
	}
	h.patchSettings(patch)
	return h
}

// patchSettings PATCHes settings as the bootstrap admin and waits until
// the reloader has swapped in the snapshot of the new revision.
func (h *harness) patchSettings(patch map[string]any) {
	h.t.Helper()
	body, _ := json.Marshal(patch)
	h.api.Do("PATCH", "/admin/v1/settings", rootEmail, string(body)).WantStatus(h.t, http.StatusOK)
	loadtest.CaughtUp(h.t, h.store, h.routes)
}

// evaluate runs one evaluation and fails the test on error.
func (h *harness) evaluate() Report {
	h.t.Helper()
	rep, err := h.notifier.Evaluate(context.Background())
	if err != nil {
		h.t.Fatalf("Evaluate: %v", err)
	}
	return rep
}

// history returns the first page of the alert mail history as email.
func (h *harness) history(email string) model.ObservabilityPageRecord[model.AlertMail] {
	h.t.Helper()
	var page model.ObservabilityPageRecord[model.AlertMail]
	h.api.Do("GET", "/admin/v1/settings/alert-mail-history?pageSize=200", email, "").WantStatus(h.t, http.StatusOK).Decode(h.t, &page)
	return page
}

// states returns the stored rule states by row.
func (h *harness) states() map[int64]store.AlertRuleState {
	h.t.Helper()
	list, err := h.store.AlertRuleStates(context.Background())
	if err != nil {
		h.t.Fatal(err)
	}
	out := map[int64]store.AlertRuleState{}
	for _, st := range list {
		out[st.RowID] = st
	}
	return out
}
