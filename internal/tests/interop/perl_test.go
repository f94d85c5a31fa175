package interop

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/s2r-project/s2r/internal/tests/serveproc"
)

// perlSOAPLite returns perl with SOAP::Lite, or skips.
func perlSOAPLite(t *testing.T) string {
	t.Helper()
	skipShort(t)
	perl, err := exec.LookPath("perl")
	if err != nil {
		missing(t, "perl")
	}
	if err := exec.Command(perl, "-MSOAP::Lite", "-e", "1").Run(); err != nil {
		missing(t, "Perl's SOAP::Lite (Debian libsoap-lite-perl)")
	}
	return perl
}

// perlResult is what test/interop/perl/client.pl prints: the answer's
// leaves as [path, value] pairs in document order.
type perlResult = stackResult[[][]any]

// TestPerlSOAPLiteStack: Perl's SOAP::Lite (Debian libsoap-lite-perl) as a
// client of consume — requests built the way SOAP::Lite users write
// document/literal calls, in SOAP 1.1 and 1.2, values exact both ways,
// Faults read under the status each version's HTTP binding gives — and as
// a backend of publish (one SOAP::Transport::HTTP::Daemon) for a
// document/literal and an rpc/encoded contract, each with a Fault. Its
// answers qualify every member through a default namespace, which s2r
// accepts in encoded structs and arrays too.
func TestPerlSOAPLiteStack(t *testing.T) {
	perl := perlSOAPLite(t)
	base := startS2R(t)
	rest := newRESTOrders(t)
	importOrdersForStacks(t, base, rest, "orders-perl")
	endpoint := base + "/consume/dev/orders-perl"
	dir := filepath.Join(serveproc.RepoRoot(), "test", "interop", "perl")
	call := func(t *testing.T, op, args, version string) perlResult {
		t.Helper()
		var r perlResult
		decode(t, runTool(t, dir, perl, "client.pl", endpoint, op, args, version, "urn:example:orders"), &r)
		return r
	}
	order := func(id, name, total, paid string, tags []string) [][]any {
		out := [][]any{{"order/id", id}, {"order/name", name}, {"order/total", total}, {"order/paid", paid}}
		for _, tag := range tags {
			out = append(out, []any{"order/tags", tag})
		}
		return append(out, []any{"order/note", nil})
	}
	for _, version := range []string{"1.1", "1.2"} {
		t.Run("client of consume/SOAP "+version, func(t *testing.T) {
			r := call(t, "GetOrder", `[["id","9007199254740993"]]`, version)
			want := order("9223372036854775807", "Grüße <&> \"q\" 'a' ✓ 𝄞", "12345678901234567890.000000001", "true", []string{"only one"})
			if d := cmp.Diff(want, r.Result); d != "" || r.Status != 200 {
				t.Errorf("GetOrder (-want +got):\n%s%+v", d, r)
			}

			r = call(t, "CreateOrder", `[["order",[["id","-9223372036854775808"],["name","naïve & <b>bold</b> ]]> ✓"],`+
				`["total","0.000000000000000000001"],["paid",false],["tags","x"],["note",null]]]]`, version)
			if b := rest.lastBody(); b != createdREST {
				t.Errorf("REST body:\n got %s\nwant %s", b, createdREST)
			}
			want = order("-9223372036854775808", "naïve & <b>bold</b> ]]> ✓", "0.000000000000000000001", "false", []string{"x"})
			if d := cmp.Diff(want, r.Result); d != "" {
				t.Errorf("CreateOrder (-want +got):\n%s", d)
			}

			checkStackFault(t, call(t, "GetOrder", `[["id","404"]]`, version).Fault, version, "S2R-RUN-0502", false)
			checkStackFault(t, call(t, "GetOrder", `[["id","-5"]]`, version).Fault, version, "S2R-VAL-0411", true)
			checkStackFault(t, call(t, "GetOrder", `[["id","five"]]`, version).Fault, version, "S2R-VAL-0410", true)
		})
	}

	server := "http://127.0.0.1:" + startListener(t, dir, perl, "server.pl") + "/"
	checkStackBackend(t, base, "perl", server, server)
}
