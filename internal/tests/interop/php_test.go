package interop

import (
	"encoding/json"
	"net"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/s2r-project/s2r/internal/tests/loopback"
	"github.com/s2r-project/s2r/internal/tests/poll"
	"github.com/s2r-project/s2r/internal/tests/serveproc"
)

// phpSOAP returns the php binary with ext/soap loaded, or skips.
func phpSOAP(t *testing.T) string {
	t.Helper()
	skipShort(t)
	php, err := exec.LookPath("php")
	if err != nil {
		missing(t, "php (Debian php-cli)")
	}
	if err := exec.Command(php, "-r", `exit(extension_loaded("soap") ? 0 : 1);`).Run(); err != nil {
		missing(t, "PHP's ext/soap (Debian php-soap)")
	}
	return php
}

// startPHPServer runs test/interop/php/server.php in PHP's built-in server
// on a free loopback port and returns its base URL.
func startPHPServer(t *testing.T, php string) string {
	t.Helper()
	addr := loopback.FreeAddr(t)
	dir := filepath.Join(serveproc.RepoRoot(), "test", "interop", "php")
	cmd := exec.Command(php, "-S", addr, "server.php")
	cmd.Dir = dir
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	poll.Until(t, 10*time.Second, "php -S listening", func() bool {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
		}
		return err == nil
	})
	return "http://" + addr
}

// phpResult is what test/interop/php/client.php prints.
type phpResult = stackResult[map[string]any]

// TestPHPSoapStack: PHP's ext/soap (Debian php-soap, one php -S process)
// as a client of consume — SoapClient loads s2r's WSDL and its XSD and
// calls it in SOAP 1.1 and 1.2, values exact both ways, Faults read under
// the status each version's HTTP binding gives — and as a backend of
// publish (SoapServer) for a document/literal and an rpc/encoded contract,
// each with a Fault.
func TestPHPSoapStack(t *testing.T) {
	php := phpSOAP(t)
	base := startS2R(t)
	rest := newRESTOrders(t)
	wsdlURL := importOrdersForStacks(t, base, rest, "orders-php")
	client := filepath.Join(serveproc.RepoRoot(), "test", "interop", "php", "client.php")
	call := func(t *testing.T, op, args, version string) phpResult {
		t.Helper()
		var r phpResult
		decode(t, runTool(t, "", php, client, wsdlURL, op, args, version), &r)
		return r
	}
	// ext/soap reads xs:long as an integer and xs:decimal as its text.
	phpOrder := map[string]any{}
	for k, v := range clientOrder {
		phpOrder[k] = v
	}
	phpOrder["id"] = json.Number("9223372036854775807")
	for _, version := range []string{"1.1", "1.2"} {
		t.Run("client of consume/SOAP "+version, func(t *testing.T) {
			r := call(t, "GetOrder", `{"id":"9007199254740993"}`, version)
			if d := cmp.Diff(map[string]any{"order": phpOrder}, r.Result); d != "" || r.Status != 200 {
				t.Errorf("GetOrder (-want +got):\n%s%+v", d, r)
			}

			r = call(t, "CreateOrder", createArgs, version)
			if b := rest.lastBody(); b != createdREST {
				t.Errorf("REST body:\n got %s\nwant %s", b, createdREST)
			}
			var want map[string]any
			decode(t, []byte(createArgs), &want)
			want["order"].(map[string]any)["id"] = json.Number("-9223372036854775808")
			if d := cmp.Diff(want, r.Result); d != "" {
				t.Errorf("CreateOrder (-want +got):\n%s", d)
			}

			checkStackFault(t, call(t, "GetOrder", `{"id":"404"}`, version).Fault, version, "S2R-RUN-0502", false)
			checkStackFault(t, call(t, "GetOrder", `{"id":"-5"}`, version).Fault, version, "S2R-VAL-0411", true)
		})
	}

	server := startPHPServer(t, php)
	checkStackBackend(t, base, "php", server+"/ledger", server+"/accounts")
}
