package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/access"
	"github.com/s2r-project/s2r/internal/admin"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/notify/smtptest"
	"github.com/s2r-project/s2r/internal/secret"
	"github.com/s2r-project/s2r/internal/store"
)

// Test identities: root is a bootstrap admin, the others get permission
// bindings.
const (
	rootEmail     = "root@example.com"
	operatorEmail = "operator@example.com"
	readerEmail   = "reader@example.com"
	acmeEmail     = "acme-reader@example.com" // reader in tenant acme
	nobodyEmail   = "nobody@example.com"

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

// syncBuffer is a goroutine-safe log sink.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// harness is a Notifier on a real store, with the real admin API (its
// routes included) on 127.0.0.1 and a real SMTP server.
type harness struct {
	t        *testing.T
	store    *store.Store
	box      *secret.Box
	notifier *Notifier
	figures  *fixedFigures
	clock    *clock
	smtp     *smtptest.Server
	api      *httptest.Server
	logs     *syncBuffer
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
	box, err := secret.NewBox(bytes.Repeat([]byte{7}, secret.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	logs := &syncBuffer{}
	logger := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	h := &harness{t: t, store: st, box: box, figures: &fixedFigures{}, logs: logs,
		clock: &clock{now: time.Date(2026, 3, 2, 9, 30, 0, 0, time.UTC)}}
	h.smtp = smtptest.Start(t, smtpOpts)
	h.notifier, err = New(Config{Store: st, Secrets: box, Candidates: h.figures, Logger: logger,
		PublicBaseURL: publicBase, TLSConfig: h.smtp.ClientTLS(), SendTimeout: 5 * time.Second,
		RetryAfterFailure: 5 * time.Minute, Now: h.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	h.api = httptest.NewServer(admin.New(admin.Config{Store: st, Secrets: box, Logger: logger,
		BootstrapAdmins: []string{rootEmail}, Version: "test", Routes: h.notifier.Routes()}))
	t.Cleanup(h.api.Close)
	h.bind()
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

// bind grants the test identities their roles.
func (h *harness) bind() {
	ctx := context.Background()
	err := h.store.Transact(ctx, func(tx *store.Tx) error {
		for i, b := range []struct {
			email, tenant string
			role          model.Role
		}{{operatorEmail, model.DefaultTenant, model.RoleOperator}, {readerEmail, model.DefaultTenant, model.RoleReader},
			{acmeEmail, "acme", model.RoleReader}} {
			err := tx.InsertPermissionBinding(ctx, model.PermissionBinding{
				BindingID: "00000000-0000-4000-8000-00000000000" + strconv.Itoa(i+1), Email: b.email, Role: b.role,
				TenantID: b.tenant, CreatedAt: time.Now(), CreatedBy: "setup"})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		h.t.Fatal(err)
	}
}

// do calls the admin API as email ("" for no identity).
func (h *harness) do(method, path, email, body string) (int, []byte) {
	h.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, h.api.URL+path, rd)
	if err != nil {
		h.t.Fatal(err)
	}
	if email != "" {
		req.Header.Set(access.HeaderEmail, email)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		h.t.Fatal(err)
	}
	return resp.StatusCode, b
}

// patchSettings PATCHes settings as the bootstrap admin.
func (h *harness) patchSettings(patch map[string]any) {
	h.t.Helper()
	body, _ := json.Marshal(patch)
	if status, resp := h.do("PATCH", "/admin/v1/settings", rootEmail, string(body)); status != http.StatusOK {
		h.t.Fatalf("PATCH settings: %d %s", status, resp)
	}
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
	status, body := h.do("GET", "/admin/v1/settings/alert-mail-history?pageSize=200", email, "")
	if status != http.StatusOK {
		h.t.Fatalf("history: %d %s", status, body)
	}
	var page model.ObservabilityPageRecord[model.AlertMail]
	if err := json.Unmarshal(body, &page); err != nil {
		h.t.Fatal(err)
	}
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
