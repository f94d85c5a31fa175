package main

import (
	"net/http"
	"strings"
	"testing"
)

// TestServeDevIdentityAndConsole runs s2r serve as `make run` does: on
// loopback with S2R_DEV_IDENTITY. It warns at start; a loopback request
// without identity headers acts as the development identity; the console
// is served at /console/ and its deep links.
func TestServeDevIdentityAndConsole(t *testing.T) {
	logs, stop := startServe(t, map[string]string{
		"S2R_LISTEN_ADDR":      "127.0.0.1:0",
		"S2R_DATA_DIR":         t.TempDir(),
		"S2R_DEV_IDENTITY":     "admin@localhost",
		"S2R_BOOTSTRAP_ADMINS": "admin@localhost",
	})
	base := logs.addr(t, "main")
	if !strings.Contains(logs.String(), `"level":"WARN","msg":"S2R_DEV_IDENTITY is set`) {
		t.Errorf("no start-up warning; log:\n%s", logs)
	}
	status, body := get(t, base+"/admin/v1/me", nil)
	if status != 200 || !strings.Contains(body, `"email":"admin@localhost"`) || !strings.Contains(body, `"role":"admin"`) {
		t.Errorf("/me without headers = %d %s, want admin@localhost as admin", status, body)
	}
	status, body = get(t, base+"/admin/v1/me", map[string]string{"X-Idp-Authenticated-User-Email": "someone@example.com"})
	if status != 403 || !strings.Contains(body, "S2R-ADM-0403") {
		t.Errorf("/me with another identity = %d %s, want 403", status, body)
	}
	for _, p := range []string{"/console/", "/console/services/0190", "/console/onboard", "/console/audit"} {
		req, _ := http.NewRequest("GET", base+p, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/html; charset=utf-8" ||
			!strings.Contains(resp.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
			t.Errorf("GET %s = %d %v", p, resp.StatusCode, resp.Header)
		}
	}
	if err := stop(); err != nil {
		t.Errorf("serve: %v", err)
	}
}

// TestServeConsoleOnAdminListener: with a separate admin listener the
// console moves there with the admin API.
func TestServeConsoleOnAdminListener(t *testing.T) {
	logs, stop := startServe(t, map[string]string{
		"S2R_LISTEN_ADDR":       "127.0.0.1:0",
		"S2R_ADMIN_LISTEN_ADDR": "127.0.0.1:0",
		"S2R_DATA_DIR":          t.TempDir(),
	})
	defer stop()
	main, admin := logs.addr(t, "main"), logs.addr(t, "admin")
	if status, body := get(t, main+"/console/", nil); status != 404 || !strings.Contains(body, "admin listener") {
		t.Errorf("main /console/ = %d %s, want 404", status, body)
	}
	if status, body := get(t, admin+"/console/", nil); status != 200 || !strings.Contains(body, "<html") {
		t.Errorf("admin /console/ = %d %.80s", status, body)
	}
}
