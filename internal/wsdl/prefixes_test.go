package wsdl

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/s2r-project/s2r/internal/xmlstream"
	"github.com/s2r-project/s2r/internal/xsd"
)

// parsePrefixFixture imports testdata/prefixes/name through a loader that
// counts the loads of each document.
func parsePrefixFixture(t *testing.T, name string) (*Definitions, map[string]int) {
	t.Helper()
	loader := &countingLoader{loader: xsd.DirLoader{Root: filepath.Join("testdata", "prefixes")}, loads: map[string]int{}}
	defs, err := Parse(t.Context(), loader, name, xmlstream.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if err := checkContracts(defs); err != nil {
		t.Error(err)
	}
	return defs, loader.loads
}

// contractOf is summarize without the warnings.
func contractOf(defs *Definitions) string {
	var keep []string
	for _, l := range strings.SplitAfter(summarize(defs), "\n") {
		if !strings.HasPrefix(l, "warning: ") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "")
}

type countingLoader struct {
	loader xsd.Loader
	mu     sync.Mutex
	loads  map[string]int
}

func (c *countingLoader) Load(ctx context.Context, location string) ([]byte, string, error) {
	c.mu.Lock()
	c.loads[location]++
	c.mu.Unlock()
	return c.loader.Load(ctx, location)
}

// TestUndeclaredConventionalPrefixes: element prefixes (wsp:, s:, soap:),
// attribute prefixes (wsu:Id, xmime:expectedContentTypes) and QName values
// (type="s:string", element="tns:Upload") that no declaration binds are
// read by the conventional table and tns as the targetNamespace, with one
// warning per prefix naming file, line and what was assumed. The result is
// the contract of the declared WSDL.
func TestUndeclaredConventionalPrefixes(t *testing.T) {
	defs, _ := parsePrefixFixture(t, "conventional.wsdl")
	want := `service Files
  port FilesSoap SOAP 1.1 binding FilesSoap address "http://10.0.0.9/files"
    Upload document/literal action="urn:files#Upload" in=wrapped(Upload) out=wrapped(UploadResponse) mtom
`
	if diff := cmp.Diff(want, contractOf(defs)); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
	op, _ := defs.Operation("", "", "Upload")
	if len(op.Unresolved) != 0 {
		t.Errorf("Upload needs stand-ins: %v", unresolvedOf(op))
	}
	kids := op.Input.Wrapper.Type.Content.Children
	if len(kids) != 2 || kids[0].Element.Type.Simple.Builtin != "string" || kids[1].Element.Type.Simple.Builtin != "base64Binary" ||
		kids[1].Element.Name != (xmlstream.Name{Space: "urn:files", Local: "data"}) {
		t.Errorf("Upload content %+v", kids)
	}
	if !defs.Schemas.MTOMHint(kids[1].Element) {
		t.Error("xmime:expectedContentTypes was not read as the xmime attribute")
	}
	wantWarnings := []string{
		`conventional.wsdl:10: undeclared namespace prefix "wsp": read as "http://schemas.xmlsoap.org/ws/2004/09/policy", its conventional namespace: WS-Policy 1.2 (2004/09) assumed`,
		`conventional.wsdl:10: undeclared namespace prefix "wsu": read as "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd", its conventional namespace`,
		`conventional.wsdl:14: undeclared namespace prefix "s": read as "http://www.w3.org/2001/XMLSchema", its conventional namespace: XML Schema (2001) assumed`,
		`conventional.wsdl:18: undeclared namespace prefix "xmime": read as "http://www.w3.org/2005/05/xmlmime", its conventional namespace`,
		`conventional.wsdl:35: undeclared namespace prefix "soap": read as "http://schemas.xmlsoap.org/wsdl/soap/", its conventional namespace: a SOAP 1.1 binding assumed`,
		`conventional.wsdl:43: undeclared namespace prefix "tns": read as "urn:files", the document's targetNamespace`,
	}
	if diff := cmp.Diff(wantWarnings, defs.Warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}

// TestUndeclaredPrefixBoundElsewhere: a prefix no conventional table knows
// (q:) is read as the namespace another document of the import set binds
// it to, although that document is read after the one using it: the
// import runs a second pass, loading nothing twice.
func TestUndeclaredPrefixBoundElsewhere(t *testing.T) {
	defs, loads := parsePrefixFixture(t, "set/root.wsdl")
	op, _ := defs.Operation("", "", "GetQuote")
	if op == nil || !op.Input.Wrapped || len(op.Unresolved) != 0 {
		t.Fatalf("GetQuote %+v", op)
	}
	if got := op.Output.Wrapper.Type.Content.Children[0].Element.Type.Simple.Builtin; got != "decimal" {
		t.Errorf("price is %q", got)
	}
	want := []string{`set/root.wsdl:12: undeclared namespace prefix "q": read as "http://www.w3.org/2001/XMLSchema", the namespace it is bound to at set/common.wsdl:4`}
	if diff := cmp.Diff(want, defs.Warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	for loc, n := range loads {
		if n != 1 {
			t.Errorf("%s loaded %d times", loc, n)
		}
	}
	if loads["set/common.wsdl"] != 1 {
		t.Errorf("loads %v", loads)
	}
}

// TestUndeclaredUnknownPrefix: a prefix bound nowhere and not conventional
// reads as its placeholder namespace: an extension element so named is
// ignored, and an operation whose body needs a type, an element or a
// content-model particle written with it is MANUAL_REQUIRED (its
// Unresolved names file, line and what is missing), while the others
// import as usual.
func TestUndeclaredUnknownPrefix(t *testing.T) {
	defs, _ := parsePrefixFixture(t, "unknown.wsdl")
	if len(defs.Operations()) != 4 {
		t.Fatalf("operations %v", defs.Operations())
	}
	want := map[string][]string{
		"Price": {"unknown.wsdl:16: unresolved type reference {urn:s2r:undeclared-prefix:acme}Money"},
		"Order": {"unknown.wsdl:22: schema element <acme:element> has an undeclared prefix with no known namespace"},
		"Track": {"unknown.wsdl:35: unresolved element reference {urn:s2r:undeclared-prefix:acme}Tracking"},
		"Ping":  nil,
	}
	for name, w := range want {
		op, _ := defs.Operation("", "", name)
		if diff := cmp.Diff(w, unresolvedOf(op)); diff != "" {
			t.Errorf("%s unresolved (-want +got):\n%s", name, diff)
		}
	}
	order, _ := defs.Operation("", "", "Order") // bare: a wildcard is not a wrapper's content
	if kids := order.Input.Parts[0].Element.Type.Content.Children; len(kids) != 2 || kids[1].Kind != xsd.ParticleAny ||
		kids[1].MinOccurs != 0 || kids[1].Wildcard.Unresolved == nil {
		t.Errorf("Order content %+v", kids)
	}
	track, _ := defs.Operation("", "", "Track")
	if n := track.Input.Parts[0].Element.Name; n != (xmlstream.Name{Local: "Tracking"}) {
		t.Errorf("Track's stand-in element is %v, want it unqualified", n)
	}
	if !strings.HasPrefix(defs.Warnings[0], `unknown.wsdl:22: undeclared namespace prefix "acme": no known namespace: read as "urn:s2r:undeclared-prefix:acme"`) {
		t.Errorf("first warning %q", defs.Warnings[0])
	}
	if len(defs.Warnings) != 4 {
		t.Errorf("warnings %q", defs.Warnings)
	}
}

// TestUndeclaredPrefixFixturesRepair: the namespace repair proposes for
// each fixture what the import read, and the repaired files import to the
// same contract without prefix warnings.
func TestUndeclaredPrefixFixturesRepair(t *testing.T) {
	files := map[string][]byte{}
	for _, name := range []string{"conventional.wsdl", "unknown.wsdl", "set/root.wsdl", "set/common.wsdl"} {
		b, err := os.ReadFile(filepath.Join("testdata", "prefixes", name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = b
	}
	report, repaired, err := RepairNamespaces(files)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range report.Repairs {
		got[r.File+" "+r.Prefix] = r.URI
	}
	want := map[string]string{
		"conventional.wsdl wsp": "http://schemas.xmlsoap.org/ws/2004/09/policy", "conventional.wsdl wsu": "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd",
		"conventional.wsdl s": xsd.NSXSD, "conventional.wsdl xmime": xsd.NSXMIME, "conventional.wsdl soap": NSSOAP11, "conventional.wsdl tns": "urn:files",
		"unknown.wsdl acme": "", "set/root.wsdl q": xsd.NSXSD,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("proposals (-want +got):\n%s", diff)
	}
	for _, root := range []string{"conventional.wsdl", "set/root.wsdl"} {
		before, _ := parsePrefixFixture(t, root)
		after, err := ParseFiles(t.Context(), root, repaired)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(contractOf(before), contractOf(after)); diff != "" {
			t.Errorf("%s: contract differs after repair (-lenient +repaired):\n%s", root, diff)
		}
		if len(after.Warnings) != 0 {
			t.Errorf("%s: warnings after repair %q", root, after.Warnings)
		}
	}
	served := DeclareUndeclared(map[string][]byte{"unknown.wsdl": files["unknown.wsdl"]})
	if _, err := xmlstream.Parse(served["unknown.wsdl"], xmlstream.Limits{}); err != nil {
		t.Errorf("DeclareUndeclared left the document not namespace-well-formed: %v", err)
	}
	if !strings.Contains(string(served["unknown.wsdl"]), `xmlns:acme="urn:s2r:undeclared-prefix:acme"`) {
		t.Error("DeclareUndeclared did not declare the placeholder of acme")
	}
}
