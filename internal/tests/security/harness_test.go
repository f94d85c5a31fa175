// Package security is s2r's security suite. It builds cmd/s2r once, runs
// `s2r serve` as a child process on loopback and attacks it from the
// outside the way a hostile client, a hostile WSDL author, a curious
// operator or a hostile network would: XML bombs and XXE on every XML
// entry point, SSRF through every URL the control plane fetches or
// dials, the authorization matrix of every admin route, canary secrets
// hunted through every output, request smuggling on raw TCP, and
// malformed input on every endpoint.
//
// The suite enumerates its targets itself: admin routes come from the
// OpenAPI document the running server serves, and every runtime and
// ingest path found in the source must be classified in entrypoints_test.go,
// so a new endpoint cannot escape it. docs/security.md describes what each
// class checks.
package security

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/store/storetest"
	"github.com/s2r-project/s2r/internal/tests/serveproc"
)

// adminEmail is the bootstrap admin of every server the suite starts.
const adminEmail = "sec-admin@example.com"

var binPath string // the s2r binary built by TestMain

func TestMain(m *testing.M) { serveproc.Main(m, &binPath) }

// repoRoot is the module root.
func repoRoot() string { return serveproc.RepoRoot() }

// server is one running `s2r serve` child process.
type server struct {
	base    string
	dataDir string
	dbURL   string // PostgreSQL URL, "" on SQLite
	proc    *serveproc.Proc
}

// database names the store a server runs on.
type database struct {
	name string
	env  func(t *testing.T) []string
}

// databases is SQLite always and PostgreSQL when the test run has one
// (scripts/with-postgres.sh); with S2R_REQUIRE_POSTGRES=1 its absence fails.
func databases(t *testing.T) []database {
	dbs := []database{{"sqlite", func(*testing.T) []string { return nil }}}
	if os.Getenv(storetest.EnvPostgresURL) == "" {
		if os.Getenv(storetest.EnvRequirePostgres) == "1" {
			t.Fatalf("%s is required but not set", storetest.EnvPostgresURL)
		}
		return dbs
	}
	return append(dbs, database{"postgres", func(t *testing.T) []string {
		cfg := storetest.PostgresConfig(t)
		key := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{9}, 32))
		return []string{"S2R_DATABASE_URL=" + cfg.URL, "S2R_SECRET_KEY=" + key}
	}})
}

// startServer starts `s2r serve` on 127.0.0.1:0 with a fresh data
// directory and the bootstrap admin (the dev identity off), waits for
// its listening line and stops it at cleanup. extraEnv entries
// (KEY=VALUE) override the defaults.
func startServer(t *testing.T, extraEnv ...string) *server {
	t.Helper()
	s := &server{dataDir: t.TempDir()}
	env := append([]string{
		"S2R_LISTEN_ADDR=127.0.0.1:0",
		"S2R_ADMIN_LISTEN_ADDR=",
		"S2R_DATA_DIR=" + s.dataDir,
		"S2R_BOOTSTRAP_ADMINS=" + adminEmail,
		"S2R_DATABASE_URL=",
		"S2R_SECRET_KEY=",
		"S2R_DEV_IDENTITY=",
		"S2R_LOG_LEVEL=info",
	}, extraEnv...)
	for _, kv := range extraEnv {
		if v, ok := strings.CutPrefix(kv, "S2R_DATABASE_URL="); ok {
			s.dbURL = v
		}
	}
	s.proc = serveproc.Start(t, binPath, env)
	s.base = s.proc.Base
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("s2r serve log tail:\n%s", serveproc.Tail(s.logText(), 4000))
		}
	})
	return s
}

// logText returns the log captured so far.
func (s *server) logText() string { return s.proc.Log() }

// stop kills the server and waits for it and its log reader.
func (s *server) stop() { s.proc.Stop() }

// pid is the process id of the server.
func (s *server) pid() int { return s.proc.Cmd.Process.Pid }

// resp is one HTTP answer.
type resp struct {
	status int
	header http.Header
	body   []byte
}

// errorCode returns error.code of an S2R JSON error, or faultcode's S2R
// code of a SOAP Fault.
func (r resp) errorCode() string {
	var e struct {
		Error struct{ Code string } `json:"error"`
	}
	if json.Unmarshal(r.body, &e) == nil && e.Error.Code != "" {
		return e.Error.Code
	}
	// SOAP Fault: the S2R code is in the detail.
	if i := bytes.Index(r.body, []byte("S2R-")); i >= 0 && i+12 <= len(r.body) {
		return string(r.body[i : i+12])
	}
	return ""
}

func (r resp) json(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("answer is not a JSON object (%v): %.500s", err, r.body)
	}
	return m
}

func (r resp) want(t *testing.T, status int) resp {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d: %.1500s", r.status, status, r.body)
	}
	return r
}

var httpClient = &http.Client{Timeout: 90 * time.Second}

// request is one request to a server.
type request struct {
	method, path string
	email        string // identity header; "" sends none
	groups       string // groups header; "" sends none
	body         io.Reader
	ctype        string
	header       map[string]string
}

// send sends q and reads the whole answer.
func (s *server) send(t *testing.T, q request) resp {
	t.Helper()
	r, err := s.trySend(q)
	if err != nil {
		t.Fatalf("%s %s: %v", q.method, q.path, err)
	}
	return r
}

// trySend is send returning transport errors.
func (s *server) trySend(q request) (resp, error) {
	req, err := http.NewRequest(q.method, s.base+q.path, q.body)
	if err != nil {
		return resp{}, err
	}
	if q.ctype != "" {
		req.Header.Set("Content-Type", q.ctype)
	}
	if q.email != "" {
		req.Header.Set("X-Idp-Authenticated-User-Email", q.email)
	}
	if q.groups != "" {
		req.Header.Set("X-Idp-Authenticated-User-Groups", q.groups)
	}
	for k, v := range q.header {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	res, err := httpClient.Do(req)
	if err != nil {
		return resp{}, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return resp{}, err
	}
	return resp{status: res.StatusCode, header: res.Header, body: b}, nil
}

// admin sends an admin request as the bootstrap admin; body is nil, a
// string or []byte (sent as JSON), or a value marshalled as JSON.
func (s *server) admin(t *testing.T, method, path string, body any) resp {
	t.Helper()
	return s.send(t, request{method: method, path: "/admin/v1" + path, email: adminEmail, body: encodeJSON(t, body), ctype: jsonType(body)})
}

func encodeJSON(t *testing.T, body any) io.Reader {
	switch b := body.(type) {
	case nil:
		return nil
	case string:
		return strings.NewReader(b)
	case []byte:
		return bytes.NewReader(b)
	}
	buf, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.NewReader(buf)
}

func jsonType(body any) string {
	if body == nil {
		return ""
	}
	return "application/json"
}

// alive checks the server still answers its liveness probe.
func (s *server) alive(t *testing.T) {
	t.Helper()
	r, err := s.trySend(request{method: "GET", path: "/health/live"})
	if err != nil || r.status != 200 {
		t.Fatalf("server no longer serving: %v %d %s", err, r.status, r.body)
	}
}

// str digs a string out of a decoded JSON value by keys.
func str(v any, keys ...string) string {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return ""
		}
		v = m[k]
	}
	s, _ := v.(string)
	return s
}

// eventually retries f until it returns "" or 15 s pass (the route table
// and settings reload asynchronously after admin changes).
func eventually(t *testing.T, what string, f func() string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		msg := f()
		if msg == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %s", what, msg)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
