// Package e2e drives the real s2r binary from the outside, as a platform
// team does on day one: it builds cmd/s2r once, starts `s2r serve` as a
// subprocess on a loopback port (SQLite, and PostgreSQL when
// S2R_TEST_POSTGRES_URL is set), onboards WSDLs through the admin API and
// sends traffic through the runtime to SOAP backends run by the test.
package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/tests/serveproc"
)

const adminEmail = "ops@example.com"

var binPath string // the s2r binary built by TestMain

// settle is how long a change made through the admin API may take to be
// served: the route table reloads asynchronously.
const settle = 15 * time.Second

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
	api     *admintest.Client
}

// forEachBackend runs body as a parallel subtest per database.
func forEachBackend(t *testing.T, body func(t *testing.T, s *server)) {
	for _, db := range serveproc.Databases(t) {
		t.Run(db.Name, func(t *testing.T) {
			t.Parallel()
			body(t, startServer(t, db.Env(t)))
		})
	}
}

// startServer starts `s2r serve` on 127.0.0.1:0 with a temp data dir and
// the bootstrap admin, waits for its listening line and kills it at cleanup.
func startServer(t *testing.T, extraEnv []string) *server {
	t.Helper()
	dataDir := t.TempDir()
	p := serveproc.Start(t, binPath, serveproc.Env(dataDir, adminEmail, extraEnv...))
	s := &server{base: p.Base, cmd: p.Cmd, dataDir: dataDir, env: extraEnv, proc: p, api: admintest.NewClient(t, p.Base)}
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
type resp = admintest.Response

// do sends one request; body may be nil, a string, []byte or a value
// encoded as JSON. An identity header is sent when email is not empty.
func (s *server) do(t *testing.T, method, path, email string, body any, hdr ...string) resp {
	t.Helper()
	return s.api.For(t).DoJSON(method, path, email, body, hdr...)
}

// admin sends an admin request as the bootstrap admin.
func (s *server) admin(t *testing.T, method, path string, body any) resp {
	t.Helper()
	return s.do(t, method, "/admin/v1"+path, adminEmail, body)
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
	r := s.admin(t, "POST", "/wsdl/import-xml:autopilot", body).WantStatus(t, 201)
	m := r.JSON(t)
	o := onboarded{
		serviceID:  admintest.Dig(m, "service", "serviceId"),
		versionID:  admintest.Dig(m, "version", "versionId"),
		profileID:  admintest.Dig(m, "backendProfile", "profileId"),
		serviceKey: admintest.Dig(m, "service", "serviceKey"),
		readiness:  admintest.Dig(m, "publishReadiness", "status"),
		operations: map[string]string{},
	}
	ops, _ := m["operations"].([]any)
	for _, op := range ops {
		o.operations[admintest.Dig(op, "operationKey")] = admintest.Dig(op, "soapOperationName")
	}
	if o.serviceID == "" || o.versionID == "" || o.profileID == "" {
		t.Fatalf("autopilot answer lacks ids: %.1000s", r.Body)
	}
	s.admin(t, "POST", "/services/"+o.serviceID+"/versions/"+o.versionID+":activate", nil).WantStatus(t, 200)
	return o
}

// pointBackend PATCHes the service's backend profile to url.
func (s *server) pointBackend(t *testing.T, o onboarded, url string) {
	t.Helper()
	s.admin(t, "PATCH", "/backend-profiles/"+o.profileID, map[string]any{"endpointUrl": url}).WantStatus(t, 200)
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
