package notify

import (
	"encoding/base64"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/notify/smtptest"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
	"github.com/s2r-project/s2r/internal/tests/loopback"
)

// TestTriggerMail: a failing rule sends one mail over STARTTLS with AUTH
// PLAIN, to every recipient, naming the service and the state, with the
// row, the figures, the thresholds, the window and the console link; the
// attempt is in the history; later runs do not send it again.
func TestTriggerMail(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		h := newHarness(t, st, smtptest.Options{Username: smtpUser, Password: smtpPassword}, nil)
		h.figures.set(failing(42), healthy(43))
		rep := h.evaluate()
		if !rep.Ran || rep.Evaluated != 2 || rep.Sent != 1 || rep.Failed != 0 || rep.Next != time.Minute {
			t.Errorf("report = %+v", rep)
		}
		msg := h.smtp.WaitMessages(t, 1)[0]
		if !msg.TLS || msg.AuthUser != smtpUser {
			t.Errorf("TLS %v, auth user %q; want STARTTLS and %s", msg.TLS, msg.AuthUser, smtpUser)
		}
		if msg.From != "s2r@example.com" {
			t.Errorf("envelope from = %s", msg.From)
		}
		if diff := cmp.Diff([]string{"ops@example.com", "oncall@example.com"}, msg.To); diff != "" {
			t.Errorf("envelope recipients (-want +got):\n%s", diff)
		}
		for _, hdr := range []string{"To", "From"} {
			if v := msg.Header.Get(hdr); v == "" {
				t.Errorf("header %s missing", hdr)
			}
		}
		if !strings.Contains(msg.Header.Get("To"), "oncall@example.com") {
			t.Errorf("To header = %q", msg.Header.Get("To"))
		}
		if want := "[s2r] ALERT /shop/orders/{id}: 12.50% failures (25 of 200 calls in 1h)"; msg.Subject != want {
			t.Errorf("subject = %q, want %q", msg.Subject, want)
		}
		for _, want := range []string{
			"is TRIGGERING",
			"Service URI:    /shop/orders/{id}",
			"Discovery row:  42",
			"State:          TRIGGERED since 2026-03-02T09:30:00Z",
			"Window:         last hour, 2026-03-02T08:30:00Z to 2026-03-02T09:30:00Z",
			"Calls:          200",
			"Failures:       25",
			"Failure rate:   12.50 %",
			"Rule:           at least 20 calls, and failure rate >= 10.00 % or failures >= 50",
			"Triggered by:   failure rate 12.50 % >= 10.00 %",
			"Open in the console: https://s2r.example.com/console/discovery?row=42\n",
		} {
			if !strings.Contains(msg.Text, want) {
				t.Errorf("text body lacks %q:\n%s", want, msg.Text)
			}
		}
		if strings.Contains(msg.Text, "Tenant:") {
			t.Error("the default tenant is named in the mail")
		}
		if !strings.Contains(msg.HTML, `<a href="https://s2r.example.com/console/discovery?row=42">`) ||
			!strings.Contains(msg.HTML, "<code>/shop/orders/{id}</code>") {
			t.Errorf("HTML body:\n%s", msg.HTML)
		}
		if msg.Header.Get("Auto-Submitted") != "auto-generated" || msg.Header.Get("Message-Id") == "" {
			t.Errorf("headers: %v", msg.Header)
		}

		page := h.history(readerEmail)
		if page.TotalItems != 1 {
			t.Fatalf("history: %+v", page)
		}
		got := page.Items[0]
		if got.Kind != model.AlertMailTrigger || got.Status != model.AlertMailSent || got.RowID == nil || *got.RowID != 42 ||
			got.ServiceURI != "/shop/orders/{id}" || got.Subject != msg.Subject || got.Error != "" ||
			!got.AttemptedAt.Equal(h.clock.Now()) || len(got.Recipients) != 2 {
			t.Errorf("history item = %+v", got)
		}

		// Still failing, later: no second mail.
		h.clock.advance(3 * time.Hour)
		if rep := h.evaluate(); rep.Sent+rep.Failed != 0 {
			t.Errorf("second run mailed: %+v", rep)
		}
		if n := len(h.smtp.Messages()); n != 1 {
			t.Errorf("%d messages, want 1", n)
		}
		if strings.Contains(h.logs.String(), smtpPassword) {
			t.Error("the SMTP password was logged")
		}
	})
}

// TestRecoveryAndCooldown: a recovery is mailed once, but never within
// alert_cooldown_minutes of the previous mail; a flap inside the cooldown
// sends nothing.
func TestRecoveryAndCooldown(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		h := newHarness(t, st, smtptest.Options{Username: smtpUser, Password: smtpPassword}, nil)
		h.figures.set(failing(7))
		h.evaluate() // trigger mail at t0
		t0 := h.clock.Now()

		h.clock.advance(10 * time.Minute)
		h.figures.set(healthy(7))
		if rep := h.evaluate(); rep.Sent != 0 {
			t.Fatalf("recovery mailed within the cooldown: %+v", rep)
		}
		if s := h.states()[7]; s.State != model.AlertStateOK || s.NotifiedState != model.AlertStateTriggered {
			t.Errorf("state inside cooldown = %+v", s)
		}
		h.clock.advance(49*time.Minute + 59*time.Second)
		if rep := h.evaluate(); rep.Sent != 0 {
			t.Fatalf("recovery mailed 1s before the cooldown ends: %+v", rep)
		}
		h.clock.advance(time.Second)
		if rep := h.evaluate(); rep.Sent != 1 {
			t.Fatalf("recovery not mailed after the cooldown: %+v", rep)
		}
		msgs := h.smtp.WaitMessages(t, 2)
		rec := msgs[1]
		if want := "[s2r] RECOVERED /shop/orders/{id}: 0.50% failures (1 of 200 calls in 1h)"; rec.Subject != want {
			t.Errorf("recovery subject = %q, want %q", rec.Subject, want)
		}
		for _, want := range []string{"has RECOVERED", "State:          OK since " + stamp(t0.Add(10*time.Minute)),
			"Failures:       1", "Failure rate:   0.50 %", "discovery?row=7"} {
			if !strings.Contains(rec.Text, want) {
				t.Errorf("recovery text lacks %q:\n%s", want, rec.Text)
			}
		}
		if strings.Contains(rec.Text, "Triggered by") {
			t.Error("a recovery names trigger reasons")
		}

		// Fails again at once, then recovers again inside the cooldown:
		// nothing is due when the cooldown ends, so nothing is sent.
		h.figures.set(failing(7))
		h.clock.advance(time.Minute)
		h.evaluate()
		h.figures.set(healthy(7))
		h.clock.advance(time.Minute)
		h.evaluate()
		h.clock.advance(2 * time.Hour)
		if rep := h.evaluate(); rep.Sent != 0 {
			t.Errorf("a flap inside the cooldown was mailed: %+v", rep)
		}
		page := h.history(readerEmail)
		if page.TotalItems != 2 || page.Items[0].Kind != model.AlertMailRecovery || page.Items[1].Kind != model.AlertMailTrigger {
			t.Errorf("history = %+v", page.Items)
		}
	})
}

// TestDeliveryFailuresRecorded: a refused AUTH and a relay that is down
// are failed attempts in the history, with errors that never show the
// password (not even when the server echoes it); a failure is retried
// after the retry delay, and a working relay then gets the mail.
func TestDeliveryFailuresRecorded(t *testing.T) {
	st := storetest.SQLite(t)
	h := newHarness(t, st, smtptest.Options{Username: smtpUser, Password: "the-right-one", EchoCredentials: true},
		map[string]any{"smtp_username": smtpUser, "smtp_password": smtpPassword})
	h.figures.set(failing(9))
	if rep := h.evaluate(); rep.Failed != 1 || rep.Sent != 0 {
		t.Fatalf("report = %+v", rep)
	}
	if a := h.smtp.AuthAttempts(); len(a) != 1 || a[0].OK {
		t.Fatalf("auth attempts = %+v", a)
	}
	item := h.history(readerEmail).Items[0]
	if item.Status != model.AlertMailFailed || item.Kind != model.AlertMailTrigger || !strings.Contains(item.Error, "535") {
		t.Errorf("failed attempt = %+v", item)
	}
	if testing.Verbose() {
		t.Logf("auth refused: %s", item.Error)
	}
	checkNoSecret(t, "history error", item.Error)
	checkNoSecret(t, "logs", h.logs.String())
	if !strings.Contains(item.Error, redacted) {
		t.Errorf("the echoed password was not replaced: %s", item.Error)
	}

	// Not retried before the retry delay.
	h.clock.advance(4 * time.Minute)
	if rep := h.evaluate(); rep.Sent+rep.Failed != 0 {
		t.Errorf("retried within the delay: %+v", rep)
	}

	// Relay down: a connection failure.
	h.smtp.Close()
	h.clock.advance(time.Minute)
	if rep := h.evaluate(); rep.Failed != 1 {
		t.Fatalf("report with the relay down = %+v", rep)
	}
	down := h.history(readerEmail).Items[0]
	if down.Status != model.AlertMailFailed || !strings.Contains(down.Error, "cannot connect to 127.0.0.1") {
		t.Errorf("relay down attempt = %+v", down)
	}
	if testing.Verbose() {
		t.Logf("relay down: %s", down.Error)
	}

	// A working relay: the retry is sent.
	good := smtptest.Start(t, smtptest.Options{Username: smtpUser, Password: smtpPassword})
	h.notifier.cfg.TLSConfig = good.ClientTLS()
	h.patchSettings(map[string]any{"smtp_port": good.Port})
	h.clock.advance(5 * time.Minute)
	if rep := h.evaluate(); rep.Sent != 1 {
		t.Fatalf("retry report = %+v", rep)
	}
	good.WaitMessages(t, 1)
	page := h.history(readerEmail)
	if page.TotalItems != 3 || page.Items[0].Status != model.AlertMailSent {
		t.Errorf("history = %+v", page.Items)
	}
	if s := h.states()[9]; s.NotifiedState != model.AlertStateTriggered || !s.LastSentAt.Equal(h.clock.Now()) {
		t.Errorf("state after the sent retry = %+v", s)
	}
}

// checkNoSecret fails when text shows smtpPassword in any form it could
// travel in.
func checkNoSecret(t *testing.T, what, text string) {
	t.Helper()
	for _, form := range []string{smtpPassword,
		base64.StdEncoding.EncodeToString([]byte("\x00" + smtpUser + "\x00" + smtpPassword)),
		base64.StdEncoding.EncodeToString([]byte(smtpPassword))} {
		if strings.Contains(text, form) {
			t.Errorf("%s shows the SMTP password (%q): %s", what, form, text)
		}
	}
}

// TestImplicitTLS: smtp_tls_mode tls speaks TLS from the first byte.
func TestImplicitTLS(t *testing.T) {
	h := newHarness(t, storetest.SQLite(t), smtptest.Options{Username: smtpUser, Password: smtpPassword, ImplicitTLS: true}, nil)
	h.figures.set(failing(1))
	if rep := h.evaluate(); rep.Sent != 1 {
		t.Fatalf("report = %+v", rep)
	}
	if msg := h.smtp.WaitMessages(t, 1)[0]; !msg.TLS || msg.AuthUser != smtpUser {
		t.Errorf("TLS %v, auth %q", msg.TLS, msg.AuthUser)
	}
}

// TestTLSModeNone: smtp_tls_mode none sends over plain SMTP, and never
// sends the password in the clear: a relay offering only PLAIN is refused.
func TestTLSModeNone(t *testing.T) {
	h := newHarness(t, storetest.SQLite(t), smtptest.Options{NoTLS: true}, nil)
	h.figures.set(failing(1))
	if rep := h.evaluate(); rep.Sent != 1 {
		t.Fatalf("report = %+v", rep)
	}
	if msg := h.smtp.WaitMessages(t, 1)[0]; msg.TLS {
		t.Error("TLS on a plain relay")
	}

	plain := newHarness(t, storetest.SQLite(t), smtptest.Options{NoTLS: true, Username: smtpUser, Password: smtpPassword}, nil)
	plain.figures.set(failing(1))
	if rep := plain.evaluate(); rep.Failed != 1 {
		t.Fatalf("report = %+v", rep)
	}
	if a := plain.smtp.AuthAttempts(); len(a) != 0 {
		t.Errorf("credentials sent over plain SMTP: %+v", a)
	}
	if item := plain.history(readerEmail).Items[0]; item.Status != model.AlertMailFailed {
		t.Errorf("attempt = %+v", item)
	}
}

// TestRelayAddressPolicy: the SMTP host is an outbound connection under
// outbound_allowed_cidrs / outbound_denied_cidrs: loopback is refused
// unless allowed, and a denied range always; nothing reaches the relay.
func TestRelayAddressPolicy(t *testing.T) {
	for _, tc := range []struct {
		name     string
		settings map[string]any
		want     string
	}{
		{"loopback not allowed", map[string]any{"outbound_allowed_cidrs": []string{}}, "not allowed (loopback)"},
		{"denied wins", map[string]any{"outbound_denied_cidrs": []string{"127.0.0.1/32"}}, "inside a denied CIDR"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, storetest.SQLite(t), smtptest.Options{Username: smtpUser, Password: smtpPassword}, tc.settings)
			h.figures.set(failing(1))
			if rep := h.evaluate(); rep.Failed != 1 {
				t.Fatalf("report = %+v", rep)
			}
			item := h.history(readerEmail).Items[0]
			if item.Status != model.AlertMailFailed || !strings.Contains(item.Error, tc.want) {
				t.Errorf("attempt = %+v, want error with %q", item, tc.want)
			}
			if a := h.smtp.AuthAttempts(); len(a) != 0 || len(h.smtp.Messages()) != 0 {
				t.Error("the relay was reached")
			}
		})
	}
}

// TestIPv6Relay: a relay given as an IPv6 address is reached (go-mail
// joins host and port without brackets; the guarded dialer rebuilds the
// address), and refused like IPv4 loopback unless allowed.
func TestIPv6Relay(t *testing.T) {
	if ln, err := net.Listen("tcp6", "[::1]:0"); err != nil {
		t.Skipf("no IPv6 loopback: %v", err)
	} else {
		ln.Close()
	}
	h := newHarness(t, storetest.SQLite(t), smtptest.Options{NoTLS: true, Host: "::1"},
		map[string]any{"outbound_allowed_cidrs": []string{"::1/128"}})
	h.figures.set(failing(1))
	if rep := h.evaluate(); rep.Sent != 1 {
		t.Fatalf("report = %+v, history %+v", rep, h.history(readerEmail).Items)
	}
	refused := newHarness(t, storetest.SQLite(t), smtptest.Options{NoTLS: true, Host: "::1"},
		map[string]any{"outbound_allowed_cidrs": []string{}})
	refused.figures.set(failing(1))
	if rep := refused.evaluate(); rep.Failed != 1 {
		t.Fatalf("report = %+v", rep)
	}
	if item := refused.history(readerEmail).Items[0]; !strings.Contains(item.Error, "not allowed (loopback)") {
		t.Errorf("attempt = %+v, want the loopback address refused", item)
	}
}

// TestRelayTimeout: a relay that accepts the connection and never greets
// fails the attempt within the send timeout.
func TestRelayTimeout(t *testing.T) {
	l := loopback.Listen(t, func(c net.Conn) { // silent: no 220 greeting, until the client gives up
		io.Copy(io.Discard, c)
		c.Close()
	})
	h := newHarness(t, storetest.SQLite(t), smtptest.Options{}, map[string]any{"smtp_port": l.Addr().(*net.TCPAddr).Port})
	h.notifier.cfg.SendTimeout = 300 * time.Millisecond
	h.figures.set(failing(1))
	start := time.Now()
	if rep := h.evaluate(); rep.Failed != 1 {
		t.Fatalf("report = %+v", rep)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("a silent relay held the run for %v", d)
	}
	if item := h.history(readerEmail).Items[0]; !strings.Contains(item.Error, "timeout") {
		t.Errorf("attempt = %+v", item)
	}
}
