package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/admin"
	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// newBundleServer is an admin API on a new SQLite store.
func newBundleServer(t *testing.T) *admintest.Client {
	t.Helper()
	st := storetest.SQLite(t)
	h := admin.New(admin.Config{Store: st, Secrets: admintest.Box(t), BootstrapAdmins: []string{admintest.RootEmail}, Version: "test"})
	admintest.Bind(t, st, admintest.Staff()...)
	return admintest.Serve(t, h)
}

func TestBundleApplyCommand(t *testing.T) {
	src := newBundleServer(t)
	wsdl, err := os.ReadFile(filepath.Join(driftData, "calc-v1.wsdl"))
	if err != nil {
		t.Fatal(err)
	}
	src.DoJSON("POST", admin.Prefix+"/wsdl/import-xml:autopilot", admintest.OperatorEmail,
		map[string]any{"xml": string(wsdl), "environment": "dev", "serviceKey": "calc"}).WantStatus(t, 201)
	file := filepath.Join(t.TempDir(), "bundle.yaml")
	if _, errOut, code := runCLI(t, "bundle", "export", "--server", src.URL, "--as", admintest.ReaderEmail, "-o", file); code != 0 {
		t.Fatalf("export: exit %d: %s", code, errOut)
	}
	tgt := newBundleServer(t)

	out, errOut, code := runCLI(t, "bundle", "apply", "--server", tgt.URL, "--as", admintest.ReaderEmail, "-f", file, "--dry-run")
	if code != 0 || !strings.HasPrefix(out, "Dry run") || !strings.Contains(out, "+ create publish/dev/calc service\n") ||
		!strings.Contains(out, "+ create publish/dev/calc backendProfile default\n") {
		t.Fatalf("dry run: exit %d, stderr %s, stdout:\n%s", code, errOut, out)
	}
	if out, errOut, code = runCLI(t, "bundle", "apply", "--server", tgt.URL, "--as", admintest.OperatorEmail, "-f", file); code != 0 ||
		strings.Contains(out, "Dry run") {
		t.Fatalf("apply: exit %d, stderr %s, stdout:\n%s", code, errOut, out)
	}
	out, errOut, code = runCLI(t, "bundle", "apply", "--server", tgt.URL, "--as", admintest.OperatorEmail, "-f", file, "--output", "json")
	var res struct {
		DryRun  bool
		Changes []struct{ Action string }
	}
	if err := json.Unmarshal([]byte(out), &res); code != 0 || err != nil || len(res.Changes) == 0 {
		t.Fatalf("json: exit %d, %v, stderr %s, stdout:\n%s", code, err, errOut, out)
	}
	for _, c := range res.Changes {
		if c.Action != "unchanged" {
			t.Errorf("second apply: %s", out)
		}
	}

	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"apiVersion":"s2r/v2","kind":"Bundle","services":[]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"reader may not apply", []string{"--server", tgt.URL, "--as", admintest.ReaderEmail, "-f", file}, 1, "403"},
		{"bad bundle", []string{"--server", tgt.URL, "--as", admintest.OperatorEmail, "-f", bad}, 1, "/apiVersion"},
		{"no file", []string{"--server", tgt.URL, "--as", admintest.OperatorEmail}, 2, "-f FILE is required"},
		{"missing file", []string{"--server", tgt.URL, "--as", admintest.OperatorEmail, "-f", file + ".none"}, 2, "no such file"},
		{"no identity", []string{"--server", tgt.URL, "-f", file}, 2, "--as or S2R_IDENTITY"},
		{"bad output", []string{"--server", tgt.URL, "--as", admintest.OperatorEmail, "-f", file, "--output", "xml"}, 2, "text or json"},
		{"no server", []string{"--as", admintest.OperatorEmail, "-f", file}, 2, "--server is required"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, append([]string{"bundle", "apply"}, tc.args...)...)
			if code != tc.code || out != "" || !strings.Contains(errOut, tc.stderr) {
				t.Errorf("exit %d (want %d), stdout %.80q, stderr %q (want %q)", code, tc.code, out, errOut, tc.stderr)
			}
		})
	}
}
