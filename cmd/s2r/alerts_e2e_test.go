package main

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/loadgen"
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

// TestServeDiscoveryAlertMail runs s2r serve end to end from ingest to
// mail: an f5 instance sends failing transactions, an operator saves an
// alert rule on the discovery row, and the alert job mails about it.
func TestServeDiscoveryAlertMail(t *testing.T) {
	relay := smtptest.Start(t, smtptest.Options{NoTLS: true})
	env := map[string]string{"S2R_DATA_DIR": t.TempDir(), "S2R_LISTEN_ADDR": "127.0.0.1:0",
		"S2R_BOOTSTRAP_ADMINS": "ops@example.com", "S2R_PUBLIC_BASE_URL": "https://gw.example.com"}
	// The evaluation interval is read at each run: set it, then restart
	// so the job runs every 5 seconds from the start.
	logs, stop := startServe(t, env)
	adminCall(t, "PATCH", logs.addr(t, "main")+"/admin/v1/settings", fmt.Sprintf(`{"smtp_host":"127.0.0.1","smtp_port":%d,`+
		`"smtp_tls_mode":"none","smtp_from":"s2r@example.com","alert_recipients":["ops@example.com"],`+
		`"alert_evaluation_interval_seconds":5,"outbound_allowed_cidrs":["127.0.0.0/8"],"alerts_enabled":true}`, relay.Port), 200, nil)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	logs, _ = startServe(t, env)
	base := logs.addr(t, "main")
	var inst struct{ Token string }
	adminCall(t, "POST", base+"/admin/v1/ingest-instances", `{"vendor":"f5","name":"bigip-1"}`, 201, &inst)

	gen := loadgen.New(loadgen.Config{Services: 1, ErrorRate: 0.5, Seed: 5})
	body, err := loadgen.Encode(gen.LBBatch(160, time.Now().Add(-time.Second)), false, false)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("POST", base+"/ingest/v1/lb-events", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+inst.Token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("ingest: %d", res.StatusCode)
	}
	var rows model.ObservabilityPageRecord[struct {
		RowID      int64  `json:"rowId"`
		ServiceURI string `json:"serviceUri"`
	}]
	adminCall(t, "GET", base+"/admin/v1/master-discovery/rows", "", 200, &rows)
	if len(rows.Items) != 1 {
		t.Fatalf("rows %+v", rows)
	}
	row := rows.Items[0]
	adminCall(t, "PUT", fmt.Sprintf("%s/admin/v1/master-discovery/rows/%d/alert", base, row.RowID),
		`{"enabled":true,"minCalls1h":10}`, 200, nil)
	msg := relay.WaitMessages(t, 1)[0]
	if !strings.Contains(msg.Subject, row.ServiceURI) ||
		!strings.Contains(msg.Text, fmt.Sprintf("https://gw.example.com/console/discovery?row=%d", row.RowID)) {
		t.Errorf("mail %q:\n%s", msg.Subject, msg.Text)
	}
}
