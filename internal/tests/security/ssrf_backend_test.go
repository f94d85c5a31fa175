package security

import (
	"fmt"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/tests/poll"
)

// TestSSRFBackendConnections aims the connections to backend endpoints
// at every refused spelling: the connection test (fetch policy: every
// spelling refused, no canary reached), the application test (backend
// policy: link-local, metadata and unspecified refused; loopback is a
// legitimate backend), health checks of every mode, and the alert mail
// relay (fetch policy).
func TestSSRFBackendConnections(t *testing.T) {
	x := newSSRFSetup(t)
	svc := x.s.onboard(t, "ssrfpub", "publish", "http://127.0.0.1:1/calc")
	profile := "/backend-profiles/" + svc.profileID
	for _, h := range ssrfHosts {
		x.s.admin(t, "PATCH", profile, map[string]any{"endpointUrl": x.target(h)}).WantStatus(t, 200)
		r := x.s.admin(t, "POST", profile+":test-connection", nil).WantStatus(t, 200)
		if steps := stepStatus(t, r); steps["tcp"] == "ok" || steps["wsdl"] == "ok" {
			t.Errorf("test-connection to %s (%s): %v: %.400s", h.name, h.host, steps, r.Body)
		}
		if n := x.hits(); n > 0 {
			t.Errorf("test-connection to %s (%s): the canary got %d connections", h.name, h.host, n)
		}
		r = x.s.admin(t, "POST", profile+":test-application", map[string]any{"operationId": svc.operationIDs["add"],
			"payload": map[string]any{"a": 1, "b": 2}}).WantStatus(t, 200)
		if h.never && !strings.Contains(string(r.Body), "outbound policy") {
			t.Errorf("test-application to %s (%s): not refused: %.400s", h.name, h.host, r.Body)
		}
		x.hits() // loopback backends are allowed: the canary may see them
	}
	x.checkHealthModes(t)
	x.checkAlertRelay(t)
}

// stepStatus returns the status of each step of a connection report.
func stepStatus(t *testing.T, r resp) map[string]string {
	m := r.JSON(t)
	out := map[string]string{}
	steps, _ := m["steps"].([]any)
	for _, st := range steps {
		out[admintest.Dig(st, "name")] = admintest.Dig(st, "status")
	}
	return out
}

// checkHealthModes gives one service a backend profile per host and
// each health check mode in turn: wsdl_fetch (fetch policy) refuses every
// host and reaches no canary; tcp and ping (backend policy) refuse the
// addresses no backend lives at.
func (x *ssrfSetup) checkHealthModes(t *testing.T) {
	svc := x.s.onboard(t, "ssrfhealth", "gateway", "http://127.0.0.1:1/calc")
	names := map[string]ssrfHost{}
	for _, h := range ssrfHosts {
		r := x.s.admin(t, "POST", "/services/"+svc.serviceID+"/backend-profiles",
			map[string]any{"name": "ssrf " + h.name, "endpointUrl": x.target(h)}).WantStatus(t, 201)
		names[admintest.Dig(r.JSON(t), "profileId")] = h
	}
	for _, mode := range []string{"wsdl_fetch", "tcp", "ping"} {
		x.s.admin(t, "PATCH", "/services/"+svc.serviceID, map[string]any{"backendHealthCheckMode": mode,
			"backendHealthCheckIntervalSec": 5}).WantStatus(t, 200)
		var backends []any
		poll.UntilOK(t, settle, mode+" checks of every profile", func() string {
			m := x.s.admin(t, "GET", "/services/"+svc.serviceID+"/backend-health", nil).WantStatus(t, 200).JSON(t)
			backends, _ = m["backends"].([]any)
			checked := 0
			for _, b := range backends {
				if admintest.Dig(b, "mode") == mode && b.(map[string]any)["checked"] == true {
					checked++
				}
			}
			if checked < len(names) {
				return fmt.Sprintf("%d of %d checked", checked, len(names))
			}
			return ""
		})
		if n := x.hits(); n > 0 && mode == "wsdl_fetch" {
			t.Errorf("wsdl_fetch health checks reached the canary %d times", n)
		}
		for _, b := range backends {
			h, ok := names[admintest.Dig(b, "profileId")]
			if !ok || (mode != "wsdl_fetch" && !h.never) {
				continue
			}
			if e := admintest.Dig(b, "lastError"); !strings.Contains(e, "not allowed") {
				t.Errorf("%s health check of %s (%s): lastError %q, want the address refused", mode, h.name, h.host, e)
			}
		}
	}
	x.s.admin(t, "PATCH", "/services/"+svc.serviceID, map[string]any{"backendHealthCheckMode": "none"}).WantStatus(t, 200)
}

// checkAlertRelay points the SMTP relay at every host: the test mail
// fails with the address refused and no canary is reached.
func (x *ssrfSetup) checkAlertRelay(t *testing.T) {
	x.s.admin(t, "PATCH", "/settings", map[string]any{"smtp_from": "s2r@example.com", "alert_recipients": []string{"ops@example.com"},
		"smtp_tls_mode": "none", "smtp_port": atoi(x.port)}).WantStatus(t, 200)
	for _, h := range ssrfHosts {
		host := strings.NewReplacer("[", "", "]", "", "%25", "%").Replace(h.host)
		r := x.s.admin(t, "PATCH", "/settings", map[string]any{"smtp_host": host})
		if r.Status == 400 {
			continue // not a host name the setting accepts: nothing is dialled
		}
		r.WantStatus(t, 200)
		m := x.s.admin(t, "POST", "/settings:test-alert-mail", nil).WantStatus(t, 200).JSON(t)
		if admintest.Dig(m, "status") != "failed" || !strings.Contains(admintest.Dig(m, "error"), "not allowed") {
			t.Errorf("alert relay %s (%s): %v, want failed with the address refused", h.name, host, m)
		}
		if n := x.hits(); n > 0 {
			t.Errorf("alert relay %s (%s): the canary got %d connections", h.name, host, n)
		}
	}
}

func atoi(s string) int {
	n := 0
	fmt.Sscan(s, &n)
	return n
}
