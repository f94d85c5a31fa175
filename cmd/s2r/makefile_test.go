package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestMakeRunHonoursEnvironment: `make run` and `make demo` default to
// 127.0.0.1:8080 as admin@localhost, and a variable set in the environment
// wins (DESIGN 10.4), as `make -n` shows.
func TestMakeRunHonoursEnvironment(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("needs make")
	}
	for _, c := range []struct {
		target string
		env    []string
		want   string
	}{
		{"run", nil, "S2R_LISTEN_ADDR=127.0.0.1:8080 S2R_DEV_IDENTITY=admin@localhost S2R_BOOTSTRAP_ADMINS=admin@localhost"},
		{"run", []string{"S2R_LISTEN_ADDR=127.0.0.1:9191"}, "S2R_LISTEN_ADDR=127.0.0.1:9191 S2R_DEV_IDENTITY=admin@localhost"},
		{"run", []string{"S2R_LISTEN_ADDR="}, "S2R_LISTEN_ADDR=127.0.0.1:8080 "},
		{"run", []string{"S2R_DEV_IDENTITY=me@localhost"}, "S2R_DEV_IDENTITY=me@localhost S2R_BOOTSTRAP_ADMINS=me@localhost"},
		{"demo", []string{"S2R_LISTEN_ADDR=127.0.0.1:9191"}, "S2R_LISTEN_ADDR=127.0.0.1:9191 "},
	} {
		cmd := exec.Command("make", "--no-print-directory", "-n", "-C", "../..", c.target)
		cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}, c.env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("make -n %s: %v\n%s", c.target, err, out)
		}
		command := map[string]string{"run": "serve", "demo": "demo"}[c.target]
		if !strings.Contains(string(out), c.want) || !strings.Contains(string(out), "./cmd/s2r "+command) {
			t.Errorf("make -n %s with %v:\n%s\nwant %q", c.target, c.env, out, c.want)
		}
	}
}
