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
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/tests/serveproc"
)

// adminEmail is the bootstrap admin of every server the suite starts.
const adminEmail = "sec-admin@example.com"

var binPath string // the s2r binary built by TestMain

// settle is how long a change made through the admin API may take to be
// served: the route table and settings reload asynchronously.
const settle = 15 * time.Second

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

// startServer starts `s2r serve` on 127.0.0.1:0 with a fresh data
// directory and the bootstrap admin (the dev identity off), waits for
// its listening line and stops it at cleanup. extraEnv entries
// (KEY=VALUE) override the defaults.
func startServer(t *testing.T, extraEnv ...string) *server {
	t.Helper()
	s := &server{dataDir: t.TempDir()}
	for _, kv := range extraEnv {
		if v, ok := strings.CutPrefix(kv, "S2R_DATABASE_URL="); ok {
			s.dbURL = v
		}
	}
	s.proc = serveproc.Start(t, binPath, serveproc.Env(s.dataDir, adminEmail, extraEnv...))
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
type resp = admintest.Response

// errorCode returns error.code of an S2R JSON error, or faultcode's S2R
// code of a SOAP Fault.
func errorCode(r resp) string {
	if c := r.Code(); c != "" {
		return c
	}
	// SOAP Fault: the S2R code is in the detail.
	if i := bytes.Index(r.Body, []byte("S2R-")); i >= 0 && i+12 <= len(r.Body) {
		return string(r.Body[i : i+12])
	}
	return ""
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
	return resp{Status: res.StatusCode, Header: res.Header, Body: b}, nil
}

// admin sends an admin request as the bootstrap admin; body is nil, a
// string or []byte (sent as JSON), or a value marshalled as JSON.
func (s *server) admin(t *testing.T, method, path string, body any) resp {
	t.Helper()
	b, err := admintest.JSONBody(body)
	if err != nil {
		t.Fatal(err)
	}
	q := request{method: method, path: "/admin/v1" + path, email: adminEmail}
	if body != nil {
		q.body, q.ctype = bytes.NewReader(b), "application/json"
	}
	return s.send(t, q)
}

// alive checks the server still answers its liveness probe.
func (s *server) alive(t *testing.T) {
	t.Helper()
	r, err := s.trySend(request{method: "GET", path: "/health/live"})
	if err != nil || r.Status != 200 {
		t.Fatalf("server no longer serving: %v %d %s", err, r.Status, r.Body)
	}
}
