package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/notify/smtptest"
)

// TestServeAlertMail runs s2r serve, configures SMTP through the admin API
// (a plain relay on 127.0.0.1, allowed by outbound_allowed_cidrs), sends a
// test mail and reads it back from the history: the alert mail routes and
// the job are wired.
func TestServeAlertMail(t *testing.T) {
	relay := smtptest.Start(t, smtptest.Options{NoTLS: true})
	logs, _ := startServe(t, map[string]string{"S2R_DATA_DIR": t.TempDir(), "S2R_LISTEN_ADDR": "127.0.0.1:0",
		"S2R_BOOTSTRAP_ADMINS": "ops@example.com", "S2R_PUBLIC_BASE_URL": "https://gw.example.com"})
	base := logs.addr(t, "main")

	// Loopback is refused until allowed.
	settings := fmt.Sprintf(`{"smtp_host":"127.0.0.1","smtp_port":%d,"smtp_tls_mode":"none","smtp_from":"s2r@example.com",`+
		`"alert_recipients":["ops@example.com"],"alert_evaluation_interval_seconds":5}`, relay.Port)
	adminCall(t, "PATCH", base+"/admin/v1/settings", settings, 200, nil)
	var item model.AlertMail
	adminCall(t, "POST", base+"/admin/v1/settings:test-alert-mail", "", 200, &item)
	if item.Status != model.AlertMailFailed || !strings.Contains(item.Error, "loopback") {
		t.Errorf("loopback relay not refused: %+v", item)
	}
	adminCall(t, "PATCH", base+"/admin/v1/settings", `{"outbound_allowed_cidrs":["127.0.0.0/8"]}`, 200, nil)
	adminCall(t, "POST", base+"/admin/v1/settings:test-alert-mail", "{}", 200, &item)
	if item.Status != model.AlertMailSent {
		t.Fatalf("test mail: %+v", item)
	}
	msg := relay.WaitMessages(t, 1)[0]
	if msg.Subject != "[s2r] Test alert mail" || !strings.Contains(msg.Text, "https://gw.example.com/console/settings") {
		t.Errorf("mail %q:\n%s", msg.Subject, msg.Text)
	}
	var page model.ObservabilityPageRecord[model.AlertMail]
	adminCall(t, "GET", base+"/admin/v1/settings/alert-mail-history", "", 200, &page)
	if page.TotalItems != 2 || page.Items[0].MailID != item.MailID || page.Items[1].Status != model.AlertMailFailed {
		t.Errorf("history = %+v", page)
	}
}
