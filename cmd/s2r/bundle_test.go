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

func TestBundleExportCommand(t *testing.T) {
	st := storetest.SQLite(t)
	h := admin.New(admin.Config{Store: st, Secrets: admintest.Box(t), BootstrapAdmins: []string{admintest.RootEmail}, Version: "test"})
	admintest.Bind(t, st, admintest.Staff()...)
	c := admintest.Serve(t, h)
	wsdl, err := os.ReadFile(filepath.Join(driftData, "calc-v1.wsdl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, env := range []string{"dev", "prod"} {
		c.DoJSON("POST", admin.Prefix+"/wsdl/import-xml:autopilot", admintest.OperatorEmail,
			map[string]any{"xml": string(wsdl), "environment": env, "serviceKey": "calc"}).WantStatus(t, 201)
	}

	out, errOut, code := runCLI(t, "bundle", "export", "--server", c.URL, "--as", admintest.ReaderEmail, "--environment", "prod")
	if code != 0 || !strings.HasPrefix(out, "apiVersion: s2r/v1\n") || !strings.Contains(out, "environment: prod") ||
		strings.Contains(out, "environment: dev") {
		t.Fatalf("exit %d, stderr %s, stdout:\n%.600s", code, errOut, out)
	}

	file := filepath.Join(t.TempDir(), "bundle.json")
	t.Setenv("S2R_IDENTITY", admintest.ReaderEmail)
	var stdout, stderr strings.Builder
	err = run(t.Context(), []string{"bundle", "export", "--server", c.URL, "-o", file, "--service", "calc"}, os.Getenv, &stdout, &stderr)
	if err != nil || stdout.Len() != 0 {
		t.Fatalf("export to a file: %v; stdout %q", err, stdout.String())
	}
	var b struct {
		Services []struct{ Environment string }
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &b); err != nil || len(b.Services) != 2 {
		t.Fatalf("bundle.json: %v, %d services", err, len(b.Services))
	}

	cases := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"refused", []string{"bundle", "export", "--server", c.URL, "--as", admintest.NobodyEmail}, 1, "403"},
		{"bad query", []string{"bundle", "export", "--server", c.URL, "--as", admintest.ReaderEmail, "--environment", "No"}, 1, "400"},
		{"no identity", []string{"bundle", "export", "--server", c.URL}, 2, "--as or S2R_IDENTITY"},
		{"no server", []string{"bundle", "export", "--as", admintest.ReaderEmail}, 2, "--server is required"},
		{"bad server", []string{"bundle", "export", "--server", "ftp://x", "--as", admintest.ReaderEmail}, 2, "http or https URL"},
		{"bad format", []string{"bundle", "export", "--server", c.URL, "--as", admintest.ReaderEmail, "--format", "xml"}, 2, "yaml or json"},
		{"no subcommand", []string{"bundle"}, 2, "the subcommand is export or apply"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, tc.args...)
			if code != tc.code || out != "" || !strings.Contains(errOut, tc.stderr) {
				t.Errorf("exit %d (want %d), stdout %.80q, stderr %q (want %q)", code, tc.code, out, errOut, tc.stderr)
			}
		})
	}
}
