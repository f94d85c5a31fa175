package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/s2r-project/s2r/internal/golden"
)

const goldenAdminOpenAPI = "testdata/admin-openapi.golden.json"

// TestAdminOpenAPIGolden checks the admin API description as `s2r serve`
// serves it: every route of every area (admin's own and those handed to
// admin.Config.Routes by their packages). Rerun with -update when a route
// or body changes on purpose.
func TestAdminOpenAPIGolden(t *testing.T) {
	logs, _ := startServe(t, map[string]string{
		"S2R_LISTEN_ADDR":      "127.0.0.1:0",
		"S2R_DATA_DIR":         t.TempDir(),
		"S2R_BOOTSTRAP_ADMINS": "ops@example.com",
	})
	status, got := get(t, logs.addr(t, "main")+"/admin/v1/openapi.json",
		map[string]string{"X-Idp-Authenticated-User-Email": "ops@example.com"})
	if status != 200 {
		t.Fatalf("openapi.json: status %d: %s", status, got)
	}
	if golden.Updating() {
		if err := os.MkdirAll(filepath.Dir(goldenAdminOpenAPI), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(goldenAdminOpenAPI, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(goldenAdminOpenAPI)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/s2r -run TestAdminOpenAPIGolden -update)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("admin OpenAPI document differs from %s (-want +got; rerun with -update if intended):\n%s", goldenAdminOpenAPI, diff)
	}
}
