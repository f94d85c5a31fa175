// Package resilience drives the real s2r binary through failures, as an
// operator meets them: `s2r serve` killed with SIGKILL under load and
// restarted on the same data (crash_test.go), a SOAP backend and the
// PostgreSQL server going away and coming back under load
// (outage_test.go), and two or three instances on one PostgreSQL behind a
// round-robin proxy, killed one by one (scaleout_test.go).
//
// The binary is built once by TestMain with `go build`, as a user builds
// it. SQLite runs in a temporary data directory; PostgreSQL on the shared
// test server (S2R_TEST_POSTGRES_URL, a fresh database per test) or, where
// the test stops the server, on a cluster of the test's own
// (storetest.StartCluster).
//
// S2R_SOAK=<duration> (e.g. 10m) turns the crash test into a soak: it
// keeps killing and restarting for that long.
package resilience

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/tests/loopback"
	"github.com/s2r-project/s2r/internal/tests/serveproc"
)

const adminEmail = "ops@example.com"

// secretKey is the S2R_SECRET_KEY every instance of a test shares.
var secretKey = base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{42}, 32))

var binPath string // the s2r binary built by TestMain

func TestMain(m *testing.M) {
	b, err := os.ReadFile(filepath.Join(serveproc.RepoRoot(), "internal/dataplane/testdata/calc.wsdl"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "resilience:", err)
		os.Exit(1)
	}
	calcWSDL = string(b)
	serveproc.Main(m, &binPath)
}

// instance is one `s2r serve` process, restartable on the same data
// directory, database and port.
type instance struct {
	t       *testing.T
	name    string
	env     []string
	dataDir string
	addr    string // 127.0.0.1:port, kept across restarts
	base    string // http://addr

	mu   sync.Mutex
	proc *serveproc.Proc // nil while killed
	past string          // the logs of the processes before proc
}

// startInstance starts `s2r serve` with the bootstrap admin, a temporary
// data directory and env (database URL, settings), and waits until it
// listens.
func startInstance(t *testing.T, name string, env ...string) *instance {
	t.Helper()
	if testing.Short() {
		t.Skip("resilience: process crash and outage tests are not run with -short")
	}
	in := &instance{t: t, name: name, env: env, dataDir: t.TempDir(), addr: loopback.FreeAddr(t)}
	in.base = "http://" + in.addr
	in.start()
	t.Cleanup(func() {
		in.kill()
		if t.Failed() {
			t.Logf("%s log tail:\n%s", in.name, serveproc.Tail(in.log(), 6000))
		}
	})
	return in
}

// start runs the process and waits for its "listening" line.
func (in *instance) start() {
	in.t.Helper()
	env := append([]string{"S2R_LISTEN_ADDR=" + in.addr, "S2R_SECRET_KEY=" + secretKey}, in.env...)
	p := serveproc.Start(in.t, binPath, serveproc.Env(in.dataDir, adminEmail, env...))
	in.mu.Lock()
	in.proc = p
	in.mu.Unlock()
}

// kill sends SIGKILL and waits until the process is gone.
func (in *instance) kill() {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.proc == nil {
		return
	}
	in.proc.Stop()
	in.past += in.proc.Log()
	in.proc = nil
}

// log returns the logs of every process of the instance so far.
func (in *instance) log() string {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.proc != nil {
		return in.past + in.proc.Log()
	}
	return in.past
}

// restart starts the killed process again on the same data and port.
func (in *instance) restart() {
	in.t.Helper()
	in.kill()
	in.mu.Lock()
	in.past += "----- restart -----\n"
	in.mu.Unlock()
	in.start()
}

// client sends requests to s2r with a timeout, as the bootstrap admin
// where it matters.
var client = &http.Client{Timeout: 15 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 32}}

// reply is one HTTP answer; err is set when none came.
type reply struct {
	status int
	body   []byte
	header http.Header
	err    error
}

// code returns the S2R error code of a JSON error body ("" if none).
func (r reply) code() string {
	var e struct {
		Error struct{ Code string } `json:"error"`
	}
	json.Unmarshal(r.body, &e)
	return e.Error.Code
}

func (r reply) String() string {
	if r.err != nil {
		return "error: " + r.err.Error()
	}
	return fmt.Sprintf("%d %s", r.status, bytes.TrimSpace(r.body))
}

// ok reports a 2xx answer.
func (r reply) ok() bool { return r.err == nil && r.status >= 200 && r.status < 300 }

// decode unmarshals the body into out, failing the test on bad JSON.
func (r reply) decode(t *testing.T, out any) {
	t.Helper()
	if err := json.Unmarshal(r.body, out); err != nil {
		t.Fatalf("decode %s: %v", r, err)
	}
}

// call sends method url with body (JSON when not a string or []byte) and
// extra headers as key, value pairs.
func call(method, url string, body any, header ...string) reply {
	var rd io.Reader
	ctype := ""
	if body != nil {
		b, err := admintest.JSONBody(body)
		if err != nil {
			return reply{err: err}
		}
		rd, ctype = bytes.NewReader(b), "application/json"
	}
	req, err := http.NewRequestWithContext(context.Background(), method, url, rd)
	if err != nil {
		return reply{err: err}
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := client.Do(req)
	if err != nil {
		return reply{err: err}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return reply{status: resp.StatusCode, body: b, header: resp.Header, err: err}
}

// admin calls an admin route (path under /admin/v1) of base as the
// bootstrap admin.
func admin(base, method, path string, body any, header ...string) reply {
	return call(method, base+"/admin/v1"+path, body, append([]string{"X-Idp-Authenticated-User-Email", adminEmail}, header...)...)
}

// mustAdmin is admin that fails the test unless the answer is want.
func mustAdmin(t *testing.T, base, method, path string, body any, want int) reply {
	t.Helper()
	r := admin(base, method, path, body)
	if r.err != nil || r.status != want {
		t.Fatalf("%s %s = %s, want %d", method, path, r, want)
	}
	return r
}
