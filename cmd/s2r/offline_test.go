package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/offline"
)

// driftData is the folder of the written drift pairs.
var driftData = filepath.Join("..", "..", "internal", "offline", "testdata", "drift")

// runCLI runs s2r with args in-process and returns stdout, stderr and the
// exit code main would use.
func runCLI(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), args, func(string) string { return "" }, &stdout, &stderr)
	if reportable(err) {
		stderr.WriteString("s2r: " + err.Error() + "\n")
	}
	return stdout.String(), stderr.String(), exitCode(err)
}

func TestDriftCommand(t *testing.T) {
	v1 := filepath.Join(driftData, "calc-v1.wsdl")
	cases := []struct {
		name   string
		args   []string
		code   int
		status string
		stderr string
	}{
		{"up to date", []string{"drift", v1, filepath.Join(driftData, "calc-v1-reformatted.wsdl")}, 0, "UP_TO_DATE", ""},
		{"additive", []string{"drift", v1, filepath.Join(driftData, "calc-additive.wsdl")}, 1, "DRIFT_DETECTED", ""},
		{"breaking", []string{"drift", v1, filepath.Join(driftData, "calc-breaking.wsdl")}, 2, "BREAKING_DRIFT", ""},
		{"missing file", []string{"drift", v1, filepath.Join(driftData, "nope.wsdl")}, 3, "", "nope.wsdl"},
		{"one file", []string{"drift", v1}, 3, "", "give OLD and NEW"},
		{"three files", []string{"drift", v1, v1, v1}, 3, "", "give OLD and NEW"},
		{"unknown flag", []string{"drift", "-x", v1, v1}, 3, "", "flag provided but not defined"},
		{"not a WSDL", []string{"drift", v1, filepath.Join(driftData, "..", "not-a-wsdl.txt")}, 3, "", "S2R-VAL-0400"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr: %s", code, tc.code, errOut)
			}
			if !strings.Contains(errOut, tc.stderr) {
				t.Errorf("stderr %q does not say %q", errOut, tc.stderr)
			}
			if tc.status == "" {
				if out != "" {
					t.Errorf("stdout %q on failure", out)
				}
				return
			}
			var rep struct {
				Status  string `json:"status"`
				Changes []any  `json:"changes"`
			}
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatalf("stdout is not a report: %v\n%s", err, out)
			}
			if rep.Status != tc.status || rep.Changes == nil {
				t.Errorf("report %+v, want status %s and a changes array", rep, tc.status)
			}
		})
	}
}

func TestOpenAPICommand(t *testing.T) {
	v1 := filepath.Join(driftData, "calc-v1.wsdl")
	f, err := offline.ReadFile(v1, offline.Sources{})
	if err != nil {
		t.Fatal(err)
	}
	docs, err := offline.OpenAPI(context.Background(), f, offline.OpenAPIOptions{Environment: "prod", ServiceKey: "calc", Direction: "consume"})
	if err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, "openapi", v1, "--environment", "prod", "-service-key=calc", "--direction", "consume")
	if code != 0 || out != string(docs[0].JSON) {
		t.Fatalf("exit %d, stderr %s; stdout equals the offline document: %v", code, errOut, out == string(docs[0].JSON))
	}
	if !strings.Contains(out, `"url": "/publish/prod/calc"`) {
		t.Errorf("server URL not /publish/prod/calc:\n%.400s", out)
	}
	cases := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"no file", []string{"openapi"}, 2, "give exactly one FILE"},
		{"two files", []string{"openapi", v1, v1}, 2, "give exactly one FILE"},
		{"bad direction", []string{"openapi", v1, "--direction", "sideways"}, 2, "-direction must be publish, consume or gateway"},
		{"bad key", []string{"openapi", "--service-key", "Not A Key", v1}, 2, "-service-key must be"},
		{"missing file", []string{"openapi", filepath.Join(driftData, "nope.wsdl")}, 1, "nope.wsdl"},
		{"not a WSDL", []string{"openapi", filepath.Join(driftData, "..", "not-a-wsdl.txt")}, 1, "S2R-VAL-0400"},
		{"remote reference refused", []string{"openapi", filepath.Join(driftData, "..", "remote-import.wsdl")}, 1, "cannot load"},
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
