package interop

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/tests/filetree"
	"github.com/s2r-project/s2r/internal/tests/poll"
	"github.com/s2r-project/s2r/internal/tests/serveproc"
	"github.com/s2r-project/s2r/internal/wsdlcorpus"
	"github.com/s2r-project/s2r/internal/zipset"
)

// zeepLoadExpectations pins the corpus WSDLs that python3-zeep does not
// load as s2r imported them, by corpus path: a substring of every problem
// the test reports for it, and why that is the file's or zeep's doing,
// not s2r's. Each one behaves the same when zeep loads the original file
// from disk.
var zeepLoadExpectations = map[string]zeepPin{
	// The binding is SOAP 1.1 but its port carries a soap12:address (which
	// s2r rewrites): zeep finds no SOAP 1.1 address on the port.
	"vpulim+node-soap/test/wsdl/recursive.wsdl": {want: `has address ""`,
		why: "SOAP 1.1 binding with a soap12:address: zeep sees no address"},
	// xsd:complexType directly inside xsd:complexType: not a valid schema;
	// s2r's importer is lenient, zeep refuses it.
	"postmanlabs+wsdl-to-postman/test/data/validWSDLs11/circularComplexTypeReference.wsdl": {
		want: "Unexpected tag `{http://www.w3.org/2001/XMLSchema}complexType`", why: "invalid schema (complexType in complexType)"},
	// soapenc:arrayType of the SOAP 1.2 encoding: zeep ships no schema for
	// http://www.w3.org/2003/05/soap-encoding.
	"vpulim+node-soap/test/wsdl/rpcexample.wsdl": {want: "No schema available for the namespace 'http://www.w3.org/2003/05/soap-encoding'",
		why: "zeep has no SOAP 1.2 encoding schema"},
	// soap_import_2.wsdl imports the SOAP 1.1 encoding schema from its
	// public URL, which the import does not hold: s2r leaves it as
	// written, and the test loads nothing from outside s2r.
	"mvantellingen+python-zeep/tests/wsdl_files/soap_import_main.wsdl": {want: "not loaded, outside s2r: http://schemas.xmlsoap.org/soap/encoding/",
		why: "imports http://schemas.xmlsoap.org/soap/encoding/ from the network"},
	// A binding without wsdl:service: s2r imports the binding (the
	// backend URL is given), zeep lists only services' ports.
	"vpulim+node-soap/test/wsdl/tnsImportConflict/foo.wsdl": {want: "zeep sees no port", why: "no wsdl:service, only a binding"},
	// The port names tns:TestBinding in http://tempuri.org, but the
	// binding is in namespace foo (the node-soap "tns conflict" case):
	// s2r resolves it, zeep drops the port.
	"vpulim+node-soap/test/wsdl/tnsImportConflict/root.wsdl": {want: "zeep sees no port",
		why: "the port's binding QName names another namespace than the binding's"},
	// Broken references that s2r's lenient import tolerates (it leaves the
	// piece out, or lets xs:anyType stand in) and zeep does not.
	"vpulim+node-soap/test/wsdl/recursive2.wsdl": {want: "No definition '{http://bugrepro.com/account}AddAttributeSecureHeader' in 'messages'",
		why: "a soap:header names a message that does not exist (s2r leaves the header out)"},
	"vpulim+node-soap/test/wsdl/xsdinclude/xsd_include.wsdl": {want: "Unable to resolve type {http://www.dummy.com/Types}DummyList",
		why: "a type no schema defines (s2r: xs:anyType stands in, MANUAL_REQUIRED)"},
	"vpulim+node-soap/test/wsdl/extended_element.wsdl": {want: "Unable to resolve type {http://www.Dummy.com/Name/Types}DummyRequest",
		why: "a type no schema defines (s2r: xs:anyType stands in, MANUAL_REQUIRED)"},
	// The schema's default namespace is the 2000/10 draft of XML Schema,
	// which s2r reads as XML Schema and zeep does not: zeep finds the
	// message part invalid and drops the operation (the same when it loads
	// the file from disk with the undeclared s: declared; without, lxml
	// refuses the file).
	"vpulim+node-soap/test/wsdl/wsdl_with_attributes.wsdl": {want: `"GetLastTradePrice",`,
		why: "a schema in the 2000/10 XML Schema namespace, which zeep does not read"},
	"vpulim+node-soap/test/wsdl/complex/registration-common.wsdl": {want: `"registerUser",`,
		why: "the fault message does not exist: zeep drops the operation, s2r only the fault"},
	// The root's own service binds nothing; s2r drafts the imported
	// document's service, which zeep does not list for this root.
	"vpulim+node-soap/test/wsdl/complex/registration.wsdl": {want: "zeep sees no port registrationCommon/registrationCommonHttpSoapPort",
		why: "zeep lists only registrationPortal (no operations); its imported registrationCommon has a missing fault message"},
}

// zeepPin is an expected zeep difference: want is a substring of every
// problem reported, why the reason.
type zeepPin struct{ want, why string }

// servingSource is a contract to onboard: a corpus WSDL with the files of
// its folder (import-xml), or a ZIP (an upload, for bytes that are not
// UTF-8).
type servingSource struct {
	name  string // corpus path, or path under the repository
	xml   string
	files map[string]string
	zip   []byte
}

// servedWSDL is one contract onboarded in one direction.
type servedWSDL struct {
	name, direction string
	service         string // public URL of the service
	wsdlService     string // WSDL service and port the autopilot chose
	wsdlPort        string
	operations      []string // SOAP operation names s2r imported, sorted
	refused         string   // the 400's reason when s2r refused the import
}

// TestCorpusWSDLServing onboards every corpus WSDL (and the ISO-8859-1
// multi-file contract of test/interop/wsdl/latin1) by autopilot as a
// gateway and as a consume service (both serve the stored WSDL, SPEC 4.7),
// then, for each, follows every reference of the WSDL s2r serves over
// HTTP (all documents served, well-formed, locations rewritten to s2r,
// soap:address the public URL) and loads it with python3-zeep, all URLs
// in one process: zeep must see the operations s2r imported on the port
// it chose, at the public URL. The corpus WSDLs s2r refuses are those of
// wsdlcorpus.ImportFailures (the e2e onboarding test's table).
func TestCorpusWSDLServing(t *testing.T) {
	py := zeepPython(t)
	sources := corpusSources(t)
	sources = append(sources, zipSource(t, "test/interop/wsdl/latin1"))
	base := startS2R(t)
	var served []*servedWSDL
	for i, src := range sources {
		for _, direction := range []string{"gateway", "consume"} {
			served = append(served, onboardForServing(t, base, src, direction, fmt.Sprintf("%s%02d", direction[:1], i)))
		}
	}
	client := &http.Client{Timeout: 10 * time.Second}
	var urls []string
	for _, s := range served {
		if s.refused == "" {
			poll.Until(t, 5*time.Second, s.service+" served", func() bool {
				resp, err := client.Get(s.service + "?wsdl")
				if err != nil {
					return false
				}
				resp.Body.Close()
				return resp.StatusCode == http.StatusOK
			})
			urls = append(urls, s.service+"?wsdl")
		}
	}
	loaded := loadWithZeep(t, py, urls)
	var table []string
	for _, s := range served {
		name := s.name + " (" + s.direction + ")"
		if s.refused != "" {
			table = append(table, fmt.Sprintf("%-90s refused: %s", name, s.refused))
			continue
		}
		c := crawlServedWSDL(client, s.service)
		for _, p := range c.problems {
			t.Errorf("%s: %s", name, p)
		}
		row := fmt.Sprintf("%d documents, %d addresses", len(c.docs), c.addresses)
		if len(c.external) > 0 {
			row += fmt.Sprintf(", external %v", c.external)
		}
		table = append(table, fmt.Sprintf("%-90s %s; zeep: %s", name, row, checkZeep(t, s, loaded[s.service+"?wsdl"])))
	}
	t.Logf("WSDL serving:\n%s", strings.Join(table, "\n"))
}

// corpusSources lists every corpus WSDL with the files of its folder.
func corpusSources(t *testing.T) []servingSource {
	t.Helper()
	var out []servingSource
	for _, rel := range wsdlcorpus.WSDLs(t) {
		out = append(out, servingSource{name: rel, xml: string(wsdlcorpus.Read(t, rel)), files: wsdlcorpus.Siblings(t, rel)})
	}
	return out
}

// zipSource zips the files under dir (relative to the repository root).
func zipSource(t *testing.T, dir string) servingSource {
	t.Helper()
	data, err := zipset.Write(filetree.Read(t, filepath.Join(serveproc.RepoRoot(), filepath.FromSlash(dir))))
	if err != nil {
		t.Fatal(err)
	}
	return servingSource{name: dir, zip: data}
}

// onboardForServing imports src by autopilot as a service of direction
// with key, grants the loopback consumers of a gateway and activates it.
// A corpus WSDL of wsdlcorpus.ImportFailures must be refused with its
// reason, any other source imported (one pinned MANUAL_MAPPING_REQUIRED in
// wsdlcorpus.BlockedDrafts has its mappings reviewed before activation;
// the backend URL is given, so NO_BACKEND_URL does not apply).
func onboardForServing(t *testing.T, base string, src servingSource, direction, key string) *servedWSDL {
	t.Helper()
	s := &servedWSDL{name: src.name, direction: direction, service: base + "/" + direction + "/dev/" + key}
	fields := map[string]string{"environment": "dev", "serviceKey": key, "direction": direction, "backendUrl": "http://127.0.0.1:9/backend"}
	var status int
	var body []byte
	if src.zip != nil {
		status, body = adminUpload(t, base, "/wsdl/import:autopilot", fields, path.Base(src.name)+".zip", src.zip)
	} else {
		req := map[string]any{"xml": src.xml, "files": src.files}
		for k, v := range fields {
			req[k] = v
		}
		status, body = adminDo(t, base, "POST", "/wsdl/import-xml:autopilot", req)
	}
	want, refuse := wsdlcorpus.ImportFailures[src.name]
	if status != http.StatusCreated {
		var e struct {
			Error struct {
				Details struct {
					Reason string `json:"reason"`
				} `json:"details"`
			} `json:"error"`
		}
		json.Unmarshal(body, &e)
		s.refused = fmt.Sprintf("%d %s", status, e.Error.Details.Reason)
		if status != http.StatusBadRequest || !refuse || !strings.Contains(e.Error.Details.Reason, want) {
			t.Errorf("%s (%s): autopilot = %d %.500s, want 201 or a 400 with %q", src.name, direction, status, body, want)
		}
		if s.refused == "" {
			s.refused = "?"
		}
		return s
	}
	if refuse {
		t.Errorf("%s (%s): imported, want a 400 with %q", src.name, direction, want)
	}
	var auto autopilotResult
	if err := json.Unmarshal(body, &auto); err != nil {
		t.Fatalf("%s: autopilot answer: %v", src.name, err)
	}
	s.wsdlService, s.wsdlPort = auto.DraftSuggestion.WSDLService, auto.DraftSuggestion.WSDLPort
	for _, op := range auto.Operations {
		if op.ServiceID == auto.Service.ServiceID { // the first service's port
			s.operations = append(s.operations, op.SOAPOperationName)
		}
	}
	if blocked := wsdlcorpus.BlockedDrafts[src.name]; blocked == "MANUAL_MAPPING_REQUIRED" && auto.reviewManualMappings(t, base) == 0 {
		t.Errorf("%s (%s): pinned %s, but no operation is MANUAL_REQUIRED", src.name, direction, blocked)
	}
	slices.Sort(s.operations)
	if direction == "gateway" {
		admin(t, base, "PUT", "/services/"+auto.Service.ServiceID+"/consumer-grants",
			map[string]any{"cidrs": []string{"127.0.0.0/8"}}, http.StatusOK, nil)
	}
	auto.activate(t, base)
	return s
}

// adminUpload posts a multipart form (fields and one file, field "file")
// as the bootstrap admin and returns the status and body of the answer.
func adminUpload(t *testing.T, base, path string, fields map[string]string, fileName string, data []byte) (int, []byte) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, v := range fields {
		mw.WriteField(k, v)
	}
	fw, err := mw.CreateFormFile("file", fileName)
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(data)
	mw.Close()
	r := admintest.NewClient(t, base).Send("POST", "/admin/v1"+path, adminEmail, mw.FormDataContentType(), buf.Bytes())
	return r.Status, r.Body
}

// zeepLoad is what load_wsdls.py reports for one URL.
type zeepLoad struct {
	URL      string                               `json:"url"`
	Error    string                               `json:"error"`
	Services map[string]map[string]zeepLoadedPort `json:"services"`
}

type zeepLoadedPort struct {
	Binding       string   `json:"binding"` // zeep's binding class
	Address       string   `json:"address"`
	Operations    []string `json:"operations"`
	Notifications []string `json:"notifications"` // operations without input
}

// loadWithZeep loads every URL with python3-zeep in one process
// (test/interop/python/load_wsdls.py) and returns the reports by URL.
func loadWithZeep(t *testing.T, py string, urls []string) map[string]zeepLoad {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	script := filepath.Join(serveproc.RepoRoot(), "test", "interop", "python", "load_wsdls.py")
	cmd := exec.CommandContext(ctx, py, script)
	cmd.Stdin = strings.NewReader(strings.Join(urls, "\n") + "\n")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("load_wsdls.py: %v\n%s", err, serveproc.Tail(stderr.String(), 4000))
	}
	got := map[string]zeepLoad{}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var l zeepLoad
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("load_wsdls.py line %q: %v", sc.Text(), err)
		}
		got[l.URL] = l
	}
	if len(got) != len(urls) {
		t.Fatalf("load_wsdls.py reported %d of %d URLs\n%s", len(got), len(urls), serveproc.Tail(stderr.String(), 4000))
	}
	return got
}

// checkZeep compares what zeep loaded with what s2r imported and returns
// the table cell. zeep must load the served WSDL, see the port s2r chose
// with the operations s2r imported (zeep lists notification operations,
// which s2r skips) and, on every SOAP port, the public URL as address. A
// pinned WSDL must fail these checks as its pin says.
func checkZeep(t *testing.T, s *servedWSDL, l zeepLoad) string {
	t.Helper()
	name := s.name + " (" + s.direction + ")"
	var problems []string
	cell := "fails"
	if l.Error != "" {
		problems = append(problems, "zeep cannot load the served WSDL: "+l.Error)
	} else if port, ok := l.Services[s.wsdlService][s.wsdlPort]; !ok {
		problems = append(problems, fmt.Sprintf("zeep sees no port %s/%s: %v", s.wsdlService, s.wsdlPort, l.Services))
	} else {
		ops := slices.DeleteFunc(slices.Clone(port.Operations), func(op string) bool { return slices.Contains(port.Notifications, op) })
		if d := cmp.Diff(s.operations, ops); d != "" {
			problems = append(problems, fmt.Sprintf("operations of port %s (-s2r +zeep):\n%s", s.wsdlPort, d))
		}
		ports := 0
		for svc, ps := range l.Services {
			for pn, p := range ps {
				ports++
				if strings.HasPrefix(p.Binding, "Soap") && p.Address != s.service {
					problems = append(problems, fmt.Sprintf("zeep port %s/%s (%s) has address %q, want %q", svc, pn, p.Binding, p.Address, s.service))
				}
			}
		}
		cell = fmt.Sprintf("ok, %d ports, %d operations", ports, len(ops))
	}
	pin, pinned := zeepLoadExpectations[s.name]
	switch {
	case pinned && len(problems) == 0:
		t.Errorf("%s: zeep loads the served WSDL as s2r imported it now; unpin it (pinned: %s)", name, pin.why)
	case pinned:
		for _, p := range problems {
			if !strings.Contains(p, pin.want) {
				t.Errorf("%s: %s (pinned for %q only)", name, p, pin.want)
			}
		}
		cell = "pinned: " + pin.why
	default:
		for _, p := range problems {
			t.Errorf("%s: %s", name, p)
		}
	}
	return cell
}
