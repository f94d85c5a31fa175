package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestServeLicenseStates runs `s2r serve` with a license in each state and
// checks DESIGN 6.10: RUNTIME_STOP makes readiness 503 and the runtime 503
// S2R-RUN-0503 while admin keeps working; GRACE changes nothing.
func TestServeLicenseStates(t *testing.T) {
	now := time.Now().UTC()
	tests := []struct {
		name         string
		expiresAt    time.Time
		graceDays    int
		wantReady    int
		wantState    string
		wantRuntime  int
		wantRunCode  string
		wantLogLevel string
	}{
		{"valid", now.Add(24 * time.Hour), 0, 200, `"license":"VALID"`, 404, "S2R-RUN-0404", ""},
		{"grace", now.Add(-24 * time.Hour), 7, 200, `"license":"GRACE"`, 404, "S2R-RUN-0404", `"level":"WARN","msg":"license expired: grace period"`},
		{"runtime stop", now.Add(-10 * 24 * time.Hour), 7, 503, `"license":"RUNTIME_STOP"`, 503, "S2R-RUN-0503", `"level":"ERROR","msg":"license expired: runtime stopped`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			lic := filepath.Join(dir, "license.json")
			body := `{"licensee":"ACME","expiresAt":"` + tt.expiresAt.Format(time.RFC3339) + `","graceDays":` + strconv.Itoa(tt.graceDays) + `}`
			if err := os.WriteFile(lic, []byte(body), 0o600); err != nil {
				t.Fatal(err)
			}
			logs, _ := startServe(t, map[string]string{
				"S2R_LISTEN_ADDR":      "127.0.0.1:0",
				"S2R_DATA_DIR":         dir,
				"S2R_LICENSE_FILE":     lic,
				"S2R_BOOTSTRAP_ADMINS": "ops@example.com",
			})
			base := logs.addr(t, "main")
			status, got := get(t, base+"/health/ready", nil)
			if status != tt.wantReady || !strings.Contains(got, tt.wantState) {
				t.Errorf("/health/ready = %d %s, want %d with %s", status, got, tt.wantReady, tt.wantState)
			}
			status, got = get(t, base+"/publish/dev/calc/add", nil)
			if status != tt.wantRuntime || !strings.Contains(got, tt.wantRunCode) {
				t.Errorf("runtime = %d %s, want %d %s", status, got, tt.wantRuntime, tt.wantRunCode)
			}
			status, got = get(t, base+"/admin/v1/me", map[string]string{"X-Idp-Authenticated-User-Email": "ops@example.com"})
			if status != 200 {
				t.Errorf("admin /me = %d %s, want 200 in every license state", status, got)
			}
			if status, _ := get(t, base+"/health/live", nil); status != 200 {
				t.Errorf("/health/live = %d, want 200", status)
			}
			if tt.wantLogLevel != "" && !strings.Contains(logs.String(), tt.wantLogLevel) {
				t.Errorf("log lacks %s", tt.wantLogLevel)
			}
		})
	}
}
