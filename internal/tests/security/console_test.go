package security

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestDevIdentity: S2R_DEV_IDENTITY refuses to start with a listener
// that is not on loopback, and where it runs it is given only to a
// direct, same-site request from this machine: a proxied request, a
// cross-site one and a DNS-rebinding Host get no identity (401).
func TestDevIdentity(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", "[::]:0"} {
		cmd := exec.Command(binPath, "serve")
		cmd.Env = append(os.Environ(), "S2R_LISTEN_ADDR="+addr, "S2R_ADMIN_LISTEN_ADDR=", "S2R_DATA_DIR="+t.TempDir(),
			"S2R_DEV_IDENTITY=dev@example.com", "S2R_DATABASE_URL=", "S2R_SECRET_KEY=")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		done := make(chan error, 1)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if cmd.ProcessState.ExitCode() != 2 || !strings.Contains(stderr.String(), "S2R_DEV_IDENTITY") {
				t.Errorf("%s: exit %v, stderr %q; want exit 2 naming S2R_DEV_IDENTITY", addr, err, stderr.String())
			}
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			t.Errorf("%s: s2r serve started with S2R_DEV_IDENTITY on a non-loopback listener", addr)
		}
	}

	s := startServer(t, "S2R_DEV_IDENTITY="+adminEmail)
	me := func(hdr map[string]string) int {
		return s.send(t, request{method: "GET", path: "/admin/v1/me", header: hdr}).Status
	}
	if got := me(nil); got != 200 {
		t.Fatalf("a direct loopback request: %d, want the dev identity", got)
	}
	for name, hdr := range map[string]map[string]string{
		"proxied (X-Forwarded-For)": {"X-Forwarded-For": "203.0.113.9"},
		"proxied (Forwarded)":       {"Forwarded": "for=203.0.113.9"},
		"cross-site":                {"Sec-Fetch-Site": "cross-site"},
		"foreign origin":            {"Origin": "http://evil.example"},
		"DNS rebinding Host":        {"Host": "evil.example:8080"},
	} {
		if got := me(hdr); got != 401 {
			t.Errorf("%s: %d, want 401 (no dev identity)", name, got)
		}
	}
}

// TestConsoleHeaders: every console answer (the application page at any
// deep link, static files, a missing file) carries the strict content
// security policy, nosniff and no framing.
func TestConsoleHeaders(t *testing.T) {
	s := startServer(t)
	e := entryFor("/console/")
	if e == nil || !e.served(t, s) {
		t.Skip("the console is not served")
	}
	for _, p := range []string{"/console/", "/console/services/x", "/console/static/none.js", "/console/%2e%2e/admin/v1/me", "/console"} {
		r := s.send(t, request{method: "GET", path: p})
		if r.Status >= 500 {
			t.Errorf("%s: %d", p, r.Status)
		}
		if r.Status != 200 && r.Status != 404 && r.Status != 301 && r.Status != 308 {
			continue
		}
		h := r.Header
		if csp := h.Get("Content-Security-Policy"); r.Status == 200 && (!strings.Contains(csp, "frame-ancestors 'none'") || strings.Contains(csp, "unsafe-inline")) {
			t.Errorf("%s: Content-Security-Policy %q", p, csp)
		}
		if r.Status == 200 && (h.Get("X-Content-Type-Options") != "nosniff" || h.Get("X-Frame-Options") != "DENY") {
			t.Errorf("%s: nosniff %q, frame options %q", p, h.Get("X-Content-Type-Options"), h.Get("X-Frame-Options"))
		}
	}
}
