package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestLoadgenCommand runs s2r serve, registers an ingest instance, replays
// traffic with `s2r loadgen` through the ingest API and with -bulk
// straight into the database, and finds the services in discovery.
func TestLoadgenCommand(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"S2R_LISTEN_ADDR": "127.0.0.1:0", "S2R_DATA_DIR": dir, "S2R_BOOTSTRAP_ADMINS": "ops@example.com"}
	logs, stop := startServe(t, env)
	defer stop()
	base := logs.addr(t, "main")
	var inst struct{ InstanceID, Token string }
	adminCall(t, "POST", base+"/admin/v1/ingest-instances", `{"vendor":"f5","name":"loadgen"}`, 201, &inst)

	var out bytes.Buffer
	ctx := context.Background()
	args := []string{"loadgen", "-url", base, "-token", inst.Token, "-events", "2000", "-duration", "0", "-services", "4",
		"-batch", "500", "-gzip", "-kind", "mixed"}
	if err := run(ctx, args, envOf(env), &out, &out); err != nil {
		t.Fatalf("loadgen: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "0 failed calls") {
		t.Errorf("output: %s", out.String())
	}
	out.Reset()
	if err := run(ctx, []string{"loadgen", "-bulk", "4000", "-days", "2", "-services", "6", "-instance", inst.InstanceID},
		envOf(env), &out, &out); err != nil {
		t.Fatalf("loadgen -bulk: %v\n%s", err, out.String())
	}
	var rows struct {
		TotalItems int64 `json:"totalItems"`
	}
	adminCall(t, "GET", base+"/admin/v1/master-discovery/rows", "", 200, &rows)
	if rows.TotalItems != 6 {
		t.Errorf("%d discovery rows, want 6", rows.TotalItems)
	}
	// Bad flags are usage errors (exit 2).
	for _, bad := range [][]string{{"loadgen"}, {"loadgen", "-token", "x", "-error-rate", "2"}, {"loadgen", "-bulk", "10"}} {
		if err := run(ctx, bad, envOf(env), &out, &out); exitCode(err) != 2 {
			t.Errorf("%v: %v", bad, err)
		}
	}
}
