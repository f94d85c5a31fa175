package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a goroutine-safe buffer for a demo's stdout.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// demoDone is the last line the demo prints.
const demoDone = "Ctrl-C stops the demo."

// startDemo runs `s2r demo` in-process with env and waits for its
// instructions; it answers them and a stop function returning run's error.
func startDemo(t *testing.T, env map[string]string) (string, func() error) {
	t.Helper()
	var out syncBuffer
	logs := newLogWatcher()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"demo"}, envOf(env), &out, logs) }()
	var once sync.Once
	var err error
	stop := func() error {
		once.Do(func() {
			cancel()
			select {
			case err = <-done:
			case <-time.After(30 * time.Second):
				err = errors.New("demo did not stop within 30s")
			}
		})
		return err
	}
	t.Cleanup(func() { stop() })
	deadline := time.Now().Add(60 * time.Second)
	for !strings.Contains(out.String(), demoDone) {
		select {
		case err := <-done:
			t.Fatalf("demo stopped: %v; log:\n%s", err, logs)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("demo printed no instructions within 60s; stdout:\n%s\nlog:\n%s", out.String(), logs)
		}
	}
	return out.String(), stop
}

// printedCurls are the curl command lines of the demo's instructions, in
// order.
func printedCurls(out string) []string {
	var cmds []string
	for _, line := range strings.Split(out, "\n") {
		if l := strings.TrimSpace(line); strings.HasPrefix(l, "curl ") {
			cmds = append(cmds, l)
		}
	}
	return cmds
}

// runShell runs one command line with bash, as a user pasting it would,
// with /usr/bin/curl first on the PATH.
func runShell(t *testing.T, line string) string {
	t.Helper()
	cmd := exec.Command("bash", "-c", line)
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + t.TempDir()}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", line, err, out)
	}
	return string(out)
}

// checkPrintedCommands runs every printed curl and checks its answer.
func checkPrintedCommands(t *testing.T, out string) {
	t.Helper()
	want := []string{
		"{\"result\":5}\n", "{\"result\":6}\n", "{\"result\":42}\n", "{\"result\":3.75}\n",
		`"code":"S2R-RUN-0502"`, "<wsdl:definitions", "<ns1:price>123.45</ns1:price>",
	}
	cmds := printedCurls(out)
	if len(cmds) != len(want) {
		t.Fatalf("%d curl commands printed, want %d:\n%s", len(cmds), len(want), out)
	}
	for i, cmd := range cmds {
		got := runShell(t, cmd)
		if !strings.Contains(got, want[i]) {
			t.Errorf("%s\nanswered %.600s\nwant it to contain %s", cmd, got, want[i])
		}
	}
	// The division by zero is the backend's Fault, its code kept.
	var fault struct {
		Error struct {
			Code    string `json:"code"`
			Details struct {
				FaultCode     string   `json:"faultCode"`
				FaultSubcodes []string `json:"faultSubcodes"`
			} `json:"details"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(runShell(t, cmds[4])), &fault); err != nil ||
		fault.Error.Details.FaultCode != "Sender" || strings.Join(fault.Error.Details.FaultSubcodes, ",") != "DivisionByZero" {
		t.Errorf("division by zero answered %+v (%v)", fault, err)
	}
	soap := runShell(t, cmds[6])
	for _, w := range []string{`<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/">`,
		"<ns1:symbol>ACME</ns1:symbol>", "<ns1:currency>USD</ns1:currency>"} {
		if !strings.Contains(soap, w) {
			t.Errorf("GetQuote answer lacks %s: %s", w, soap)
		}
	}
	for _, w := range []string{"/console/", "Symbols the quote backend knows: ACME, GLOBEX, INITECH",
		"WSDL: http://127.0.0.1:"} {
		if !strings.Contains(out, w) {
			t.Errorf("instructions lack %q:\n%s", w, out)
		}
	}
}

// TestDemoPrintedCommandsWork runs `s2r demo`, runs every curl command it
// prints exactly as printed, then restarts it on the same data directory:
// the services are found, not duplicated, and the new commands work
// against the backends' new ports.
func TestDemoPrintedCommandsWork(t *testing.T) {
	if _, err := exec.LookPath("/usr/bin/curl"); err != nil {
		t.Skip("needs /usr/bin/curl")
	}
	env := map[string]string{"S2R_LISTEN_ADDR": "127.0.0.1:0", "S2R_DATA_DIR": t.TempDir()}
	out, stop := startDemo(t, env)
	checkPrintedCommands(t, out)
	// Someone disables the calculator; the next start enables it again.
	admin := demoAdminURL(t, out)
	for _, s := range demoServices(t, admin) {
		if s.ServiceKey == "calculator" {
			runShell(t, "curl -sf -X PATCH '"+admin+"/admin/v1/services/"+s.ServiceID+
				"' -H 'Content-Type: application/json' -d '{\"status\":\"disabled\"}'")
		}
	}
	if err := stop(); err != nil {
		t.Fatalf("first demo: %v", err)
	}

	out2, stop2 := startDemo(t, env)
	if backendLines(out2) == backendLines(out) {
		t.Errorf("the backends kept their ports; the restart proves nothing:\n%s", backendLines(out))
	}
	checkPrintedCommands(t, out2)
	var got []string
	for _, s := range demoServices(t, demoAdminURL(t, out2)) {
		got = append(got, s.Direction+"/"+s.ServiceKey+":"+s.Status)
	}
	slices.Sort(got)
	if want := "consume/quotes:active publish/calculator:active"; strings.Join(got, " ") != want {
		t.Errorf("services after a restart: %v, want %s", got, want)
	}
	if err := stop2(); err != nil {
		t.Errorf("second demo: %v", err)
	}
}

// demoAdminURL is the admin API's base URL: the console's.
func demoAdminURL(t *testing.T, out string) string {
	t.Helper()
	m := regexp.MustCompile(`(http://127\.0\.0\.1:\d+)/console/`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no console URL in:\n%s", out)
	}
	return m[1]
}

// demoServices lists the services of environment demo.
func demoServices(t *testing.T, admin string) []struct{ ServiceID, ServiceKey, Direction, Status string } {
	t.Helper()
	var page struct {
		Items []struct{ ServiceID, ServiceKey, Direction, Status string } `json:"items"`
	}
	if err := json.Unmarshal([]byte(runShell(t, "curl -s '"+admin+"/admin/v1/services?environment=demo'")), &page); err != nil {
		t.Fatal(err)
	}
	return page.Items
}

// backendLines are the instructions' lines naming the sample backends.
func backendLines(out string) string {
	var b strings.Builder
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "  calculator, ") || strings.HasPrefix(l, "  quotes, ") {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// TestDemoEnv: the demo's defaults are those of `make run`, and a set
// variable wins.
func TestDemoEnv(t *testing.T) {
	env, id := demoEnv(envOf(nil))
	if env("S2R_LISTEN_ADDR") != "127.0.0.1:8080" || env("S2R_DEV_IDENTITY") != "admin@localhost" ||
		env("S2R_BOOTSTRAP_ADMINS") != "admin@localhost" || id != "admin@localhost" || env("S2R_DATA_DIR") != "" {
		t.Errorf("defaults: %q %q %q %q", env("S2R_LISTEN_ADDR"), env("S2R_DEV_IDENTITY"), env("S2R_BOOTSTRAP_ADMINS"), id)
	}
	env, id = demoEnv(envOf(map[string]string{"S2R_LISTEN_ADDR": "127.0.0.1:9999", "S2R_DEV_IDENTITY": "me@localhost"}))
	if env("S2R_LISTEN_ADDR") != "127.0.0.1:9999" || env("S2R_DEV_IDENTITY") != "me@localhost" ||
		env("S2R_BOOTSTRAP_ADMINS") != "me@localhost" || id != "me@localhost" {
		t.Errorf("set: %q %q %q", env("S2R_LISTEN_ADDR"), env("S2R_DEV_IDENTITY"), env("S2R_BOOTSTRAP_ADMINS"))
	}
	for set, want := range map[string]string{"": "info", "warn": "info", "error": "info", "debug": "debug"} {
		env, _ := demoEnv(envOf(map[string]string{"S2R_LOG_LEVEL": set}))
		if got := env("S2R_LOG_LEVEL"); got != want {
			t.Errorf("S2R_LOG_LEVEL=%q: demo uses %q, want %q", set, got, want)
		}
	}
	if err := run(context.Background(), []string{"demo", "extra"}, envOf(nil), io.Discard, io.Discard); exitCode(err) != 2 {
		t.Errorf("demo with an argument: %v, want a usage error", err)
	}
}

// TestDemoSeparateAdminListener: with S2R_ADMIN_LISTEN_ADDR the demo
// onboards through the admin listener, prints the console there and the
// commands on the main listener, and they work; a warn log level does not
// hide the listeners from it.
func TestDemoSeparateAdminListener(t *testing.T) {
	if _, err := exec.LookPath("/usr/bin/curl"); err != nil {
		t.Skip("needs /usr/bin/curl")
	}
	out, stop := startDemo(t, map[string]string{"S2R_LISTEN_ADDR": "127.0.0.1:0", "S2R_ADMIN_LISTEN_ADDR": "127.0.0.1:0",
		"S2R_DATA_DIR": t.TempDir(), "S2R_LOG_LEVEL": "warn"})
	checkPrintedCommands(t, out)
	console := regexp.MustCompile(`http://127\.0\.0\.1:(\d+)/console/`).FindStringSubmatch(out)
	publish := regexp.MustCompile(`http://127\.0\.0\.1:(\d+)/publish/`).FindStringSubmatch(out)
	if console == nil || publish == nil || console[1] == publish[1] {
		t.Errorf("console %v and runtime %v should be on different listeners:\n%s", console, publish, out)
	}
	if err := stop(); err != nil {
		t.Errorf("demo: %v", err)
	}
}
