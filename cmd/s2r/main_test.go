package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/store/storetest"
	"github.com/s2r-project/s2r/internal/tests/serveproc"
)

// logWatcher is the stderr of an in-process run: it keeps the log and
// reports the bound address of each listener from its "listening" line.
type logWatcher struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	addrs map[string]chan string
}

func newLogWatcher() *logWatcher {
	return &logWatcher{addrs: map[string]chan string{"main": make(chan string, 1), "admin": make(chan string, 1)}}
}

func (l *logWatcher) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf.Write(p)
	sc := bufio.NewScanner(bytes.NewReader(p))
	for sc.Scan() {
		if name, addr, ok := serveproc.Listening(sc.Bytes()); ok {
			l.addrs[name] <- addr
		}
	}
	return len(p), nil
}

func (l *logWatcher) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func (l *logWatcher) addr(t *testing.T, name string) string {
	t.Helper()
	select {
	case a := <-l.addrs[name]:
		return "http://" + a
	case <-time.After(30 * time.Second):
		t.Fatalf("listener %s did not start; log:\n%s", name, l)
		return ""
	}
}

func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// startServe runs `s2r serve` in-process and returns its log and a stop
// function that cancels it and returns run's error.
func startServe(t *testing.T, env map[string]string) (*logWatcher, func() error) {
	t.Helper()
	logs := newLogWatcher()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"serve"}, envOf(env), io.Discard, logs) }()
	var once sync.Once
	var err error
	stop := func() error {
		once.Do(func() {
			cancel()
			select {
			case err = <-done:
			case <-time.After(30 * time.Second):
				err = errors.New("serve did not stop within 30s")
			}
		})
		return err
	}
	t.Cleanup(func() { stop() })
	return logs, stop
}

// serveFresh runs `s2r serve` on a fresh SQLite data directory with
// ops@example.com as its bootstrap admin, and returns the main listener's
// base URL, the admin API's URL on it and the stop function.
func serveFresh(t *testing.T) (base, admin string, stop func() error) {
	t.Helper()
	logs, stop := startServe(t, map[string]string{
		"S2R_LISTEN_ADDR":      "127.0.0.1:0",
		"S2R_DATA_DIR":         t.TempDir(),
		"S2R_BOOTSTRAP_ADMINS": "ops@example.com",
	})
	base = logs.addr(t, "main")
	return base, base + "/admin/v1", stop
}

func get(t *testing.T, url string, header map[string]string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestServeAndGracefulShutdown(t *testing.T) {
	dir := t.TempDir()
	logs, stop := startServe(t, map[string]string{
		"S2R_LISTEN_ADDR":      "127.0.0.1:0",
		"S2R_DATA_DIR":         dir,
		"S2R_BOOTSTRAP_ADMINS": "ops@example.com",
	})
	base := logs.addr(t, "main")

	if status, body := get(t, base+"/health/live", nil); status != 200 || body != `{"status":"UP"}` {
		t.Fatalf("/health/live = %d %s", status, body)
	}
	if status, body := get(t, base+"/health/ready", nil); status != 200 {
		t.Fatalf("/health/ready = %d %s", status, body)
	}
	status, body := get(t, base+"/publish/", map[string]string{"X-Correlation-Id": "cid-main-test"})
	if status != 400 || !strings.Contains(body, `"code":"S2R-RUN-0405"`) || !strings.Contains(body, `"correlationId":"cid-main-test"`) {
		t.Fatalf("/publish/ = %d %s", status, body)
	}
	if _, err := os.Stat(filepath.Join(dir, "secret.key")); err != nil {
		t.Errorf("key file not generated: %v", err)
	}

	// A slow in-flight request: the body of an admin PATCH arrives in two
	// parts, with shutdown starting in between. It must still complete.
	pr, pw := io.Pipe()
	req, _ := http.NewRequest("PATCH", base+"/admin/v1/settings", pr)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Idp-Authenticated-User-Email", "ops@example.com")
	type result struct {
		status int
		body   string
		err    error
	}
	resc := make(chan result, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			resc <- result{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		resc <- result{resp.StatusCode, string(b), err}
	}()
	io.WriteString(pw, `{"max_payload_mb":`)
	time.Sleep(300 * time.Millisecond) // the handler is now reading the body

	stopped := make(chan error, 1)
	go func() { stopped <- stop() }()
	time.Sleep(300 * time.Millisecond) // shutdown has begun
	select {
	case err := <-stopped:
		t.Fatalf("serve stopped (%v) while a request was in flight", err)
	default:
	}
	io.WriteString(pw, `12}`)
	pw.Close()

	res := <-resc
	if res.err != nil || res.status != 200 {
		t.Errorf("in-flight request = %d %s %v; want 200", res.status, res.body, res.err)
	}
	if err := <-stopped; err != nil {
		t.Errorf("serve returned %v, want nil", err)
	}
	if !strings.Contains(logs.String(), `"msg":"shutting down"`) {
		t.Errorf("no shutdown log line:\n%s", logs)
	}
}

func TestServeSeparateAdminListener(t *testing.T) {
	logs, _ := startServe(t, map[string]string{
		"S2R_LISTEN_ADDR":       "127.0.0.1:0",
		"S2R_ADMIN_LISTEN_ADDR": "127.0.0.1:0",
		"S2R_DATA_DIR":          t.TempDir(),
		"S2R_BOOTSTRAP_ADMINS":  "ops@example.com",
	})
	mainURL, adminURL := logs.addr(t, "main"), logs.addr(t, "admin")
	who := map[string]string{"X-Idp-Authenticated-User-Email": "ops@example.com"}
	if status, body := get(t, mainURL+"/admin/v1/me", who); status != 404 || !strings.Contains(body, "S2R-ADM-0404") {
		t.Errorf("main /admin/v1/me = %d %s, want 404 S2R-ADM-0404", status, body)
	}
	if status, body := get(t, adminURL+"/admin/v1/me", who); status != 200 {
		t.Errorf("admin /admin/v1/me = %d %s, want 200", status, body)
	}
	if status, _ := get(t, adminURL+"/publish/dev/x", nil); status != 404 {
		t.Errorf("admin listener served the runtime: %d", status)
	}
}

func TestRunCommands(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		env        map[string]string
		wantCode   int
		wantStdout string
		wantErr    string
	}{
		{name: "version", args: []string{"version"}, wantStdout: "s2r dev (commit dev)\n"},
		{name: "help", args: []string{"help"}, wantStdout: "S2R_DATABASE_URL"},
		{name: "no args is help", args: nil, wantStdout: "Usage:"},
		{name: "unknown", args: []string{"frobnicate"}, wantCode: 2, wantErr: `unknown command "frobnicate"`},
		{name: "bad config", args: []string{"serve"}, env: map[string]string{"S2R_LISTEN_ADDR": "x"}, wantCode: 2,
			wantErr: `S2R_LISTEN_ADDR: invalid address "x": address x: missing port in address`},
		{name: "bad license file", args: []string{"serve"}, env: map[string]string{"S2R_LICENSE_FILE": "/nonexistent/l.json"}, wantCode: 2,
			wantErr: "S2R_LICENSE_FILE: license: open /nonexistent/l.json: no such file or directory"},
		{name: "dev identity on a public listener", args: []string{"serve"},
			env: map[string]string{"S2R_LISTEN_ADDR": ":8080", "S2R_DEV_IDENTITY": "admin@localhost"}, wantCode: 2,
			wantErr: `S2R_DEV_IDENTITY: allowed only when every listener is on a loopback address; S2R_LISTEN_ADDR is ":8080" (use 127.0.0.1:<port>)`},
		{name: "bad config migrate", args: []string{"migrate"}, env: map[string]string{"S2R_LOG_LEVEL": "loud"}, wantCode: 2,
			wantErr: `S2R_LOG_LEVEL: invalid level "loud": want debug, info, warn or error`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := run(context.Background(), tt.args, envOf(tt.env), &stdout, &stderr)
			if code := exitCode(err); code != tt.wantCode {
				t.Errorf("exit code = %d (%v), want %d", code, err, tt.wantCode)
			}
			if tt.wantErr != "" && (err == nil || err.Error() != tt.wantErr) {
				t.Errorf("error = %v, want %s", err, tt.wantErr)
			}
			if !strings.Contains(stdout.String(), tt.wantStdout) {
				t.Errorf("stdout = %q, want it to contain %q", stdout.String(), tt.wantStdout)
			}
		})
	}
}

func TestMigrateCommand(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) {
		testMigrate(t, map[string]string{"S2R_DATA_DIR": t.TempDir()}, "sqlite")
	})
	t.Run("postgres", func(t *testing.T) {
		cfg := storetest.PostgresConfig(t)
		testMigrate(t, map[string]string{"S2R_DATABASE_URL": cfg.URL}, "postgres")
	})
}

func testMigrate(t *testing.T, env map[string]string, dialect string) {
	for range 2 { // idempotent
		var stdout bytes.Buffer
		if err := run(context.Background(), []string{"migrate"}, envOf(env), &stdout, io.Discard); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(stdout.String(), "database ("+dialect+") at schema version ") {
			t.Errorf("stdout = %q", stdout.String())
		}
	}
}

func TestServePostgres(t *testing.T) {
	cfg := storetest.PostgresConfig(t)
	env := map[string]string{
		"S2R_LISTEN_ADDR":  "127.0.0.1:0",
		"S2R_DATA_DIR":     t.TempDir(),
		"S2R_DATABASE_URL": cfg.URL,
	}
	// Without a shared key, PostgreSQL deployments refuse to start.
	err := run(context.Background(), []string{"serve"}, envOf(env), io.Discard, io.Discard)
	if exitCode(err) != 2 || !strings.Contains(err.Error(), "S2R_SECRET_KEY") {
		t.Errorf("serve on PostgreSQL without a key = %v, want exit 2 naming S2R_SECRET_KEY", err)
	}
	env["S2R_SECRET_KEY"] = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
	// trust authentication ignores the password; the log must not show it.
	env["S2R_DATABASE_URL"] = strings.Replace(cfg.URL, "postgres@", "postgres:hunter2@", 1)
	logs, stop := startServe(t, env)
	base := logs.addr(t, "main")
	if status, body := get(t, base+"/health/ready", nil); status != 200 || !strings.Contains(body, `"database":"UP"`) {
		t.Errorf("/health/ready on PostgreSQL = %d %s", status, body)
	}
	if strings.Contains(logs.String(), "hunter2") {
		t.Errorf("the database password appears in the log:\n%s", logs)
	}
	if err := stop(); err != nil {
		t.Errorf("stop: %v", err)
	}
}

func TestServePortInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	env := map[string]string{"S2R_LISTEN_ADDR": ln.Addr().String(), "S2R_DATA_DIR": t.TempDir()}
	err = run(context.Background(), []string{"serve"}, envOf(env), io.Discard, io.Discard)
	if exitCode(err) != 1 || !strings.Contains(err.Error(), "main listener") || !strings.Contains(err.Error(), "address already in use") {
		t.Errorf("serve on a busy port = %v, want exit 1 naming the main listener", err)
	}
}
