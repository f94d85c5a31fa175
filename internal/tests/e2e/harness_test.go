// Package e2e drives the real s2r binary from the outside, as a platform
// team does on day one: it builds cmd/s2r once, starts `s2r serve` as a
// subprocess on a loopback port (SQLite, and PostgreSQL when
// S2R_TEST_POSTGRES_URL is set), onboards WSDLs through the admin API and
// sends traffic through the runtime to SOAP backends run by the test.
package e2e

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/store/storetest"
	"github.com/s2r-project/s2r/internal/tests/serveproc"
)

const adminEmail = "ops@example.com"

var binPath string // the s2r binary built by TestMain

func TestMain(m *testing.M) { serveproc.Main(m, &binPath) }

// repoRoot is the module root.
func repoRoot() string { return serveproc.RepoRoot() }

// corpusDir returns the shared WSDL corpus, skipping the test when absent.
func corpusDir(t *testing.T) string {
	t.Helper()
	d := filepath.Join(repoRoot(), "..", "shared", "wsdl-corpus")
	if st, err := os.Stat(d); err != nil || !st.IsDir() {
		t.Skipf("e2e: WSDL corpus not found at %s (../shared/wsdl-corpus from the repo root); skipping corpus tests", d)
	}
	return d
}

// corpusFile reads one corpus file by its path under the corpus.
func corpusFile(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(corpusDir(t), rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// server is one running `s2r serve` subprocess.
type server struct {
	base    string
	cmd     *exec.Cmd
	dataDir string   // S2R_DATA_DIR
	env     []string // the environment beyond the defaults (database URL, key)
	proc    *serveproc.Proc
}

// backend names the database a server runs on.
type backend struct {
	name string
	env  func(t *testing.T) []string
}

// backends is SQLite always and PostgreSQL when S2R_TEST_POSTGRES_URL is set
// (a fresh database per server, dropped at cleanup).
func backends() []backend {
	bs := []backend{{"sqlite", func(t *testing.T) []string { return nil }}}
	if os.Getenv(storetest.EnvPostgresURL) != "" {
		bs = append(bs, backend{"postgres", func(t *testing.T) []string {
			cfg := storetest.PostgresConfig(t)
			key := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{7}, 32))
			return []string{"S2R_DATABASE_URL=" + cfg.URL, "S2R_SECRET_KEY=" + key}
		}})
	}
	return bs
}

// forEachBackend runs body as a parallel subtest per database.
func forEachBackend(t *testing.T, body func(t *testing.T, s *server)) {
	for _, b := range backends() {
		b := b
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			body(t, startServer(t, b.env(t)))
		})
	}
}

// startServer starts `s2r serve` on 127.0.0.1:0 with a temp data dir and
// the bootstrap admin, waits for its listening line and kills it at cleanup.
func startServer(t *testing.T, extraEnv []string) *server {
	t.Helper()
	dataDir := t.TempDir()
	env := append([]string{
		"S2R_LISTEN_ADDR=127.0.0.1:0",
		"S2R_ADMIN_LISTEN_ADDR=",
		"S2R_DATA_DIR=" + dataDir,
		"S2R_BOOTSTRAP_ADMINS=" + adminEmail,
		"S2R_DATABASE_URL=",
		"S2R_SECRET_KEY=",
		"S2R_LOG_LEVEL=info",
	}, extraEnv...)
	p := serveproc.Start(t, binPath, env)
	s := &server{base: p.Base, cmd: p.Cmd, dataDir: dataDir, env: extraEnv, proc: p}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("s2r serve log tail:\n%s", serveproc.Tail(p.Log(), 3000))
		}
	})
	return s
}

// stop kills the server and waits for it.
func (s *server) stop() { s.proc.Stop() }

// resp is one HTTP answer.
type resp struct {
	status int
	header http.Header
	body   []byte
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

// errorCode returns error.code of an S2R JSON error answer.
func (r resp) errorCode() string {
	var e struct {
		Error struct{ Code string } `json:"error"`
	}
	_ = json.Unmarshal(r.body, &e)
	return e.Error.Code
}

var httpClient = &http.Client{Timeout: 60 * time.Second}

// do sends one request; body may be nil, a string, []byte or a value
// encoded as JSON. An identity header is sent when email is not empty.
func (s *server) do(t *testing.T, method, path, email string, body any, hdr ...string) resp {
	t.Helper()
	var rd io.Reader
	ctype := ""
	switch b := body.(type) {
	case nil:
	case string:
		rd, ctype = strings.NewReader(b), "application/json"
	case []byte:
		rd, ctype = bytes.NewReader(b), "application/json"
	default:
		buf, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		rd, ctype = bytes.NewReader(buf), "application/json"
	}
	req, err := http.NewRequest(method, s.base+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if email != "" {
		req.Header.Set("X-Idp-Authenticated-User-Email", email)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	res, err := httpClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	rb, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("%s %s: read body: %v", method, path, err)
	}
	return resp{status: res.StatusCode, header: res.Header, body: rb}
}

// admin sends an admin request as the bootstrap admin.
func (s *server) admin(t *testing.T, method, path string, body any) resp {
	t.Helper()
	return s.do(t, method, "/admin/v1"+path, adminEmail, body)
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

// onboarded is what the autopilot answered for one service.
type onboarded struct {
	serviceID, versionID, profileID, serviceKey string
	operations                                  map[string]string // operationKey -> soapOperationName
	readiness                                   string
}

// onboard imports a WSDL through the DESIGN 8 autopilot and activates it.
// backendURL (optional) replaces the WSDL's address, which tests cannot
// reach: a call racing the asynchronous route reload after a later PATCH
// then still reaches a test server instead of feeding the circuit breaker.
func (s *server) onboard(t *testing.T, xml string, files map[string]string, serviceKey, direction, backendURL string) onboarded {
	t.Helper()
	body := map[string]any{"xml": xml, "environment": "dev", "serviceKey": serviceKey}
	if backendURL != "" {
		body["backendUrl"] = backendURL
	}
	if files != nil {
		body["files"] = files
	}
	if direction != "" {
		body["direction"] = direction
	}
	r := s.admin(t, "POST", "/wsdl/import-xml:autopilot", body).want(t, 201)
	m := r.json(t)
	o := onboarded{
		serviceID:  str(m, "service", "serviceId"),
		versionID:  str(m, "version", "versionId"),
		profileID:  str(m, "backendProfile", "profileId"),
		serviceKey: str(m, "service", "serviceKey"),
		readiness:  str(m, "publishReadiness", "status"),
		operations: map[string]string{},
	}
	ops, _ := m["operations"].([]any)
	for _, op := range ops {
		o.operations[str(op, "operationKey")] = str(op, "soapOperationName")
	}
	if o.serviceID == "" || o.versionID == "" || o.profileID == "" {
		t.Fatalf("autopilot answer lacks ids: %.1000s", r.body)
	}
	s.admin(t, "POST", "/services/"+o.serviceID+"/versions/"+o.versionID+":activate", nil).want(t, 200)
	return o
}

// pointBackend PATCHes the service's backend profile to url.
func (s *server) pointBackend(t *testing.T, o onboarded, url string) {
	t.Helper()
	s.admin(t, "PATCH", "/backend-profiles/"+o.profileID, map[string]any{"endpointUrl": url}).want(t, 200)
}

// eventually retries f until it returns "" or the deadline passes (the
// route table reloads asynchronously after admin changes).
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

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
