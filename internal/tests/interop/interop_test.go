// Package interop tests s2r against real third-party SOAP stacks (issues 5,
// 10 and 16): the npm soap package as a SOAP backend of publish (also an
// asynchronous one answering by WS-Addressing callback) and as a client of
// consume, Debian's python3-zeep as a client of consume, and
// Debian's PHP ext/soap and Perl SOAP::Lite each as a client of consume
// (SOAP 1.1 and 1.2) and as a backend of publish (document/literal and
// rpc/encoded), and Debian's JAX-WS RI as an MTOM backend of publish.
// Each test runs the real s2r binary (built from cmd/s2r, on
// a temporary SQLite) and configures it through the admin API.
//
// The stacks are installed by scripts/interop-deps.sh (make test runs it).
// Without them a test skips with the reason, except under CI (CI or
// S2R_REQUIRE_POSTGRES set), where a missing stack fails.
package interop

import (
	"bufio"
	"bytes"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/tests/serveproc"
)

// missing skips the test, or fails it under CI (CI or
// S2R_REQUIRE_POSTGRES set, as make test and CI do), where
// scripts/interop-deps.sh must have installed every stack.
func missing(t *testing.T, what string) {
	t.Helper()
	msg := what + " is not installed: run scripts/interop-deps.sh (make test does)"
	if os.Getenv("CI") != "" || os.Getenv("S2R_REQUIRE_POSTGRES") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

// skipShort skips a test that drives a third-party SOAP stack under
// go test -short (the quick tier of README "Testing").
func skipShort(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("interop: third-party SOAP stacks are not run with -short")
	}
}

// nodeDir returns test/interop/node with its node_modules, or skips.
func nodeDir(t *testing.T) string {
	t.Helper()
	skipShort(t)
	if _, err := exec.LookPath("node"); err != nil {
		missing(t, "node")
	}
	dir := filepath.Join(serveproc.RepoRoot(), "test", "interop", "node")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "soap", "package.json")); err != nil {
		missing(t, "the npm soap package (test/interop/node/node_modules)")
	}
	return dir
}

// zeepPython returns the python with zeep, or skips.
func zeepPython(t *testing.T) string {
	t.Helper()
	skipShort(t)
	const py = "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import zeep").Run(); err != nil {
		missing(t, "python3-zeep")
	}
	return py
}

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
	removeBin func()
)

func TestMain(m *testing.M) {
	code := m.Run()
	if removeBin != nil {
		removeBin()
	}
	os.Exit(code)
}

// s2rBinary builds cmd/s2r once per test run, when a test first needs
// it (without the stacks, every test skips before).
func s2rBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() { binPath, removeBin, buildErr = serveproc.Build() })
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// startS2R runs s2r serve on a free loopback port with a fresh SQLite
// database and returns its base URL.
func startS2R(t *testing.T) string {
	t.Helper()
	p := serveproc.Start(t, s2rBinary(t), serveproc.Env(t.TempDir(), adminEmail, "S2R_PUBLIC_BASE_URL="))
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("s2r logs:\n%s", serveproc.Tail(p.Log(), 8000))
		}
	})
	return p.Base
}

// adminEmail is the bootstrap admin of every server the tests start.
const adminEmail = "ops@example.com"

// admin sends an admin request as the bootstrap admin, checks the status
// and decodes the answer into out (when not nil).
func admin(t *testing.T, base, method, path string, body any, wantStatus int, out any) {
	t.Helper()
	r := admintest.NewClient(t, base).DoJSON(method, "/admin/v1"+path, adminEmail, body).WantStatus(t, wantStatus)
	if out != nil {
		r.Decode(t, out)
	}
}

// adminDo sends an admin request as the bootstrap admin and returns the
// status and body of the answer.
func adminDo(t *testing.T, base, method, path string, body any) (int, []byte) {
	t.Helper()
	r := admintest.NewClient(t, base).DoJSON(method, "/admin/v1"+path, adminEmail, body)
	return r.Status, r.Body
}

// autopilotResult is the part of an autopilot answer the tests use.
type autopilotResult struct {
	Service struct {
		ServiceID string `json:"serviceId"`
	} `json:"service"`
	Version struct {
		VersionID string `json:"versionId"`
	} `json:"version"`
	Operations []struct {
		OperationID       string `json:"operationId"`
		OperationKey      string `json:"operationKey"`
		SOAPOperationName string `json:"soapOperationName"`
		ServiceID         string `json:"serviceId"`
	} `json:"operations"`
	MappingDiagnostics struct {
		Operations map[string]struct {
			Status string `json:"status"`
		} `json:"operations"`
	} `json:"mappingDiagnostics"`
	BackendProfile struct {
		ProfileID string `json:"profileId"`
	} `json:"backendProfile"`
	DraftSuggestion struct {
		WSDLService string `json:"wsdlService"`
		WSDLPort    string `json:"wsdlPort"`
	} `json:"draftSuggestion"`
}

// operation returns the autopilot's operation of WSDL operation soapName.
func (a autopilotResult) operation(t *testing.T, soapName string) (id, key string) {
	t.Helper()
	for _, op := range a.Operations {
		if op.SOAPOperationName == soapName {
			return op.OperationID, op.OperationKey
		}
	}
	t.Fatalf("autopilot made no operation %s: %+v", soapName, a.Operations)
	return "", ""
}

func (a autopilotResult) operationID(t *testing.T, soapName string) string {
	t.Helper()
	id, _ := a.operation(t, soapName)
	return id
}

func (a autopilotResult) operationKey(t *testing.T, soapName string) string {
	t.Helper()
	_, key := a.operation(t, soapName)
	return key
}

// activate activates the autopilot's version.
func (a autopilotResult) activate(t *testing.T, base string) {
	t.Helper()
	admin(t, base, "POST", "/services/"+a.Service.ServiceID+"/versions/"+a.Version.VersionID+":activate", nil, http.StatusOK, nil)
}

// reviewManualMappings saves (unchanged, as a person reviewing them would)
// the mapping of every operation of the first service that the answer
// reports MANUAL_REQUIRED (its body needs a type the WSDL does not
// define), so that the draft can be activated; it returns how many.
func (a autopilotResult) reviewManualMappings(t *testing.T, base string) int {
	t.Helper()
	n := 0
	for _, op := range a.Operations {
		if op.ServiceID != a.Service.ServiceID || a.MappingDiagnostics.Operations[op.OperationKey].Status != "MANUAL_REQUIRED" {
			continue
		}
		n++
		identity := map[string]any{"mode": "identity"}
		admin(t, base, "PUT", "/operations/"+op.OperationID+"/mapping",
			map[string]any{"requestMapping": identity, "responseMapping": identity, "faultMapping": identity}, http.StatusOK, nil)
	}
	return n
}

// runTool runs name with args in dir (a minute at most) and returns its
// stdout; a failure fails the test with its stderr.
func runTool(t *testing.T, dir, name string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.String())
	}
	return out
}

// runNode runs a node script of test/interop/node and returns its stdout.
func runNode(t *testing.T, dir string, args ...string) []byte {
	t.Helper()
	return runTool(t, dir, "node", args...)
}

// startListener starts name with args in dir, a server that prints
// "PORT=<n>" once it listens on 127.0.0.1, and returns the port. The
// server is killed when the test ends.
func startListener(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		cmd.Wait()
	})
	port := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if p, ok := strings.CutPrefix(sc.Text(), "PORT="); ok {
				port <- p
			}
		}
		close(port)
	}()
	select {
	case p, ok := <-port:
		if !ok {
			t.Fatalf("%s %s ended without a port:\n%s", name, strings.Join(args, " "), stderr.String())
		}
		return p
	case <-time.After(30 * time.Second):
		t.Fatalf("%s %s printed no port within 30s:\n%s", name, strings.Join(args, " "), stderr.String())
	}
	return ""
}

// startNodeBackend starts backend.js with a WSDL and SOAP version and
// returns its endpoint URL.
func startNodeBackend(t *testing.T, dir, wsdlFile, version string) string {
	t.Helper()
	return "http://127.0.0.1:" + startListener(t, dir, "node", "backend.js", wsdlFile, version) + "/echo"
}

// runZeep runs test/interop/python/client.py with py (zeepPython) and
// returns its stdout.
func runZeep(t *testing.T, py string, args ...string) []byte {
	t.Helper()
	script := filepath.Join(serveproc.RepoRoot(), "test", "interop", "python", "client.py")
	return runTool(t, "", py, append([]string{script}, args...)...)
}

// importWSDL imports test/interop/wsdl/file by autopilot as service key in
// direction, calling backendURL; the version is not activated yet.
func importWSDL(t *testing.T, base, file, key, direction, backendURL string) autopilotResult {
	t.Helper()
	wsdlText, err := os.ReadFile(filepath.Join(serveproc.RepoRoot(), "test", "interop", "wsdl", file))
	if err != nil {
		t.Fatal(err)
	}
	var auto autopilotResult
	admin(t, base, "POST", "/wsdl/import-xml:autopilot", map[string]any{"xml": string(wsdlText),
		"environment": "dev", "serviceKey": key, "direction": direction, "backendUrl": backendURL},
		http.StatusCreated, &auto)
	return auto
}

// importEcho starts the npm soap backend of test/interop/wsdl/file in
// SOAP version and imports the same WSDL by autopilot as service key in
// direction, calling that backend; the version is not activated yet.
func importEcho(t *testing.T, base, dir, file, version, key, direction string) autopilotResult {
	t.Helper()
	endpoint := startNodeBackend(t, dir, filepath.Join(serveproc.RepoRoot(), "test", "interop", "wsdl", file), version)
	return importWSDL(t, base, file, key, direction, endpoint)
}
