package interop

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/s2r-project/s2r/internal/tests/poll"
	"github.com/s2r-project/s2r/internal/tests/serveproc"
)

// restOrders is the REST backend of the orders consume service:
// GET /api/orders/{id} answers a stored order (404 with a JSON error for
// id 404), POST /api/orders answers the order it was sent. It keeps the
// last request body.
type restOrders struct {
	srv  *httptest.Server
	mu   sync.Mutex
	last string
	uris []string
}

// storedOrder holds exact values: unicode and XML special characters, a
// decimal beyond float64, the largest 64-bit integer, an array of one and
// a nil.
const storedOrder = `{"order":{"id":9223372036854775807,"name":"Grüße <&> \"q\" 'a' ✓ 𝄞",` +
	`"total":12345678901234567890.000000001,"paid":true,"tags":["only one"],"note":null}}`

func newRESTOrders(t *testing.T) *restOrders {
	o := &restOrders{}
	o.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		o.mu.Lock()
		o.last = string(b)
		o.uris = append(o.uris, r.Method+" "+r.URL.RequestURI())
		o.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Method == "GET" && r.URL.Path == "/api/orders/404":
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"error":"no order 404"}`)
		case r.Method == "GET" && strings.HasPrefix(r.URL.Path, "/api/orders/"):
			io.WriteString(w, storedOrder)
		case r.Method == "POST" && r.URL.Path == "/api/orders":
			w.WriteHeader(http.StatusCreated)
			w.Write(b) // the order as sent: {"order": …}
		default:
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"error":"unexpected `+r.Method+` `+r.URL.Path+`"}`)
		}
	}))
	t.Cleanup(o.srv.Close)
	return o
}

func (o *restOrders) lastBody() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.last
}

// importOrders imports an orders contract into s2r at base as consume
// service key by autopilot (root and the other files of
// internal/dataplane/testdata/orders), maps GetOrder to GET /orders/{id}
// and CreateOrder to POST /orders on rest, activates it and returns the
// WSDL URL s2r serves.
func importOrders(t *testing.T, base string, rest *restOrders, key, root string, others ...string) string {
	t.Helper()
	auto := importOrdersDraft(t, base, rest, key, root, others...)
	return activateOrders(t, base, auto, key)
}

// importOrdersDraft does importOrders' import and mappings and returns the
// autopilot's answer, leaving the version a draft.
func importOrdersDraft(t *testing.T, base string, rest *restOrders, key, root string, others ...string) autopilotResult {
	t.Helper()
	dir := filepath.Join(serveproc.RepoRoot(), "internal", "dataplane", "testdata", "orders")
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	files := map[string]string{}
	for _, name := range others {
		files[name] = read(name)
	}
	var auto autopilotResult
	admin(t, base, "POST", "/wsdl/import-xml:autopilot", map[string]any{"xml": read(root), "files": files,
		"environment": "dev", "serviceKey": key, "direction": "consume", "backendUrl": rest.srv.URL + "/api"},
		http.StatusCreated, &auto)
	admin(t, base, "PUT", "/operations/"+auto.operationID(t, "GetOrder")+"/mapping", map[string]any{
		"requestMapping": map[string]any{"mode": "identity", "restMethod": "GET", "restPath": "/orders/{id}"}}, http.StatusOK, nil)
	admin(t, base, "PUT", "/operations/"+auto.operationID(t, "CreateOrder")+"/mapping", map[string]any{
		"requestMapping": map[string]any{"mode": "identity", "restMethod": "POST", "restPath": "/orders"}}, http.StatusOK, nil)
	return auto
}

// activateOrders activates an orders draft of service key and returns the
// WSDL URL s2r serves once it serves it.
func activateOrders(t *testing.T, base string, auto autopilotResult, key string) string {
	t.Helper()
	auto.activate(t, base)
	wsdlURL := base + "/consume/dev/" + key + "?wsdl"
	poll.Until(t, 5*time.Second, "WSDL served", func() bool {
		resp, err := http.Get(wsdlURL)
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == 200
	})
	return wsdlURL
}

// clientOrder is an order as a SOAP client reports it, numbers as text.
var clientOrder = map[string]any{"id": "9223372036854775807", "name": "Grüße <&> \"q\" 'a' ✓ 𝄞",
	"total": "12345678901234567890.000000001", "paid": true, "tags": []any{"only one"}, "note": nil}

// createArgs is the CreateOrder call of the clients.
const createArgs = `{"order":{"id":"-9223372036854775808","name":"naïve & <b>bold</b> ]]> ✓","total":"0.000000000000000000001",` +
	`"paid":false,"tags":["x"],"note":null}}`

// createdREST is the REST body s2r must send for createArgs.
const createdREST = `{"order":{"id":-9223372036854775808,"name":"naïve & <b>bold</b> ]]> ✓","total":0.000000000000000000001,` +
	`"paid":false,"tags":["x"],"note":null}}`

// TestConsumeNodeSOAPClient: the npm soap package loads the WSDL and its
// imports from s2r (two and three files) and calls the consume services in
// SOAP 1.1 and 1.2; values round-trip exactly through the REST backend.
func TestConsumeNodeSOAPClient(t *testing.T) {
	dir := nodeDir(t)
	rest := newRESTOrders(t)
	base := startS2R(t)
	contracts := map[string]string{
		"WSDL importing an XSD": importOrders(t, base, rest, "orders", "orders.wsdl", "xsd/orders-types.xsd"),
		"WSDL importing a WSDL importing an XSD": importOrders(t, base, rest, "orders-split", "orders-split.wsdl",
			"parts/orders-abstract.wsdl", "xsd/orders-types.xsd"),
	}
	for _, name := range []string{"WSDL importing an XSD", "WSDL importing a WSDL importing an XSD"} {
		wsdlURL := contracts[name]
		for _, version := range []string{"1.1", "1.2"} {
			t.Run(name+"/SOAP "+version, func(t *testing.T) {
				var got struct {
					Result map[string]any `json:"result"`
					Fault  map[string]any `json:"fault"`
				}
				decode(t, runNode(t, dir, "client.js", wsdlURL, "GetOrder", `{"id":"9007199254740993"}`, version), &got)
				if d := cmp.Diff(map[string]any{"order": clientOrder}, got.Result); d != "" {
					t.Errorf("GetOrder (-want +got):\n%s", d)
				}

				got.Result = nil
				decode(t, runNode(t, dir, "client.js", wsdlURL, "CreateOrder", createArgs, version), &got)
				if b := rest.lastBody(); b != createdREST {
					t.Errorf("REST body:\n got %s\nwant %s", b, createdREST)
				}
				var want map[string]any
				json.Unmarshal([]byte(createArgs), &want)
				if d := cmp.Diff(want, got.Result); d != "" {
					t.Errorf("CreateOrder (-want +got):\n%s", d)
				}

				got.Result = nil
				decode(t, runNode(t, dir, "client.js", wsdlURL, "GetOrder", `{"id":"404"}`, version), &got)
				if got.Fault == nil || !strings.Contains(mustJSON(got.Fault), "S2R-RUN-0502") {
					t.Errorf("GetOrder 404: want a Fault with S2R-RUN-0502, got %+v", got)
				}
			})
		}
	}
}

// TestConsumeZeepClient: python3-zeep loads multi-file WSDLs from s2r (a
// WSDL importing an XSD; a WSDL importing a WSDL importing an XSD, through
// the rewritten location and schemaLocation) and calls the consume
// services on their SOAP 1.1 and 1.2 ports; values round-trip exactly.
func TestConsumeZeepClient(t *testing.T) {
	py := zeepPython(t)
	rest := newRESTOrders(t)
	base := startS2R(t)
	contracts := map[string]string{
		"WSDL importing an XSD": importOrders(t, base, rest, "orders", "orders.wsdl", "xsd/orders-types.xsd"),
		"WSDL importing a WSDL importing an XSD": importOrders(t, base, rest, "orders-split", "orders-split.wsdl",
			"parts/orders-abstract.wsdl", "xsd/orders-types.xsd"),
	}
	run := func(t *testing.T, args ...string) []byte { return runZeep(t, py, args...) }
	// zeep reports xs:long as a Python int (exact) and xs:decimal as a
	// Decimal (printed as its text).
	zeepOrder := map[string]any{}
	for k, v := range clientOrder {
		zeepOrder[k] = v
	}
	zeepOrder["id"] = json.Number("9223372036854775807")
	for _, name := range []string{"WSDL importing an XSD", "WSDL importing a WSDL importing an XSD"} {
		wsdlURL := contracts[name]
		for _, version := range []string{"1.1", "1.2"} {
			t.Run(name+"/SOAP "+version, func(t *testing.T) {
				var got struct {
					Result map[string]any `json:"result"`
					Fault  map[string]any `json:"fault"`
				}
				decode(t, run(t, wsdlURL, "GetOrder", `{"id":9007199254740993}`, version), &got)
				if d := cmp.Diff(zeepOrder, got.Result); d != "" {
					t.Errorf("GetOrder (-want +got):\n%s", d)
				}

				got.Result = nil
				decode(t, run(t, wsdlURL, "CreateOrder", `{"order":{"id":-9223372036854775808,"name":"naïve & <b>bold</b> ]]> ✓",`+
					`"total":"0.000000000000000000001","paid":false,"tags":["x"],"note":null}}`, version), &got)
				if b := rest.lastBody(); b != createdREST {
					t.Errorf("REST body:\n got %s\nwant %s", b, createdREST)
				}
				want := map[string]any{"id": json.Number("-9223372036854775808"), "name": "naïve & <b>bold</b> ]]> ✓",
					"total": "0.000000000000000000001", "paid": false, "tags": []any{"x"}, "note": nil}
				if d := cmp.Diff(want, got.Result); d != "" {
					t.Errorf("CreateOrder (-want +got):\n%s", d)
				}

				got.Result = nil
				decode(t, run(t, wsdlURL, "GetOrder", `{"id":404}`, version), &got)
				if got.Fault == nil || !strings.Contains(mustJSON(got.Fault), "S2R-RUN-0502") {
					t.Errorf("GetOrder 404: want a Fault with S2R-RUN-0502, got %+v", got)
				}
			})
		}
	}
}

func decode(t *testing.T, b []byte, out any) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.UseNumber()
	if err := dec.Decode(out); err != nil {
		t.Fatalf("client output %q: %v", b, err)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
