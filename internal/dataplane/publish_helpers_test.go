package dataplane

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/httpx"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/upstream"
	"github.com/s2r-project/s2r/internal/wsdl"
)

// txLog is a Recorder keeping every record.
type txLog struct {
	mu   sync.Mutex
	recs []*model.TxRecord
}

func (l *txLog) Record(r *model.TxRecord) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.recs = append(l.recs, r)
}

// byCID returns the records of one correlation id.
func (l *txLog) byCID(cid string) []*model.TxRecord {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []*model.TxRecord
	for _, r := range l.recs {
		if r.CorrelationID == cid {
			out = append(out, r)
		}
	}
	return out
}

// staticTable is a RouteSource with a fixed table.
type staticTable struct{ t atomic.Pointer[routing.Table] }

func (s *staticTable) Table() *routing.Table { return s.t.Load() }

// soapBackend is a SOAP backend on 127.0.0.1 whose answer each test sets.
type soapBackend struct {
	srv     *httptest.Server
	handler atomic.Pointer[http.HandlerFunc]
}

func newSOAPBackend(t testing.TB) *soapBackend {
	b := &soapBackend{}
	b.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if h := b.handler.Load(); h != nil {
			(*h)(w, r)
			return
		}
		http.Error(w, "no handler", 500)
	}))
	t.Cleanup(b.srv.Close)
	return b
}

func (b *soapBackend) set(h http.HandlerFunc) { b.handler.Store(&h) }

// envelope11 wraps body content in a SOAP 1.1 envelope.
func envelope11(body string) string {
	return `<?xml version="1.0"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>` +
		body + `</soap:Body></soap:Envelope>`
}

// envelope12 wraps body content in a SOAP 1.2 envelope.
func envelope12(body string) string {
	return `<e:Envelope xmlns:e="http://www.w3.org/2003/05/soap-envelope" xmlns:x="urn:x"><e:Body>` + body + `</e:Body></e:Envelope>`
}

// answer returns a handler writing status and body as text/xml.
func answer(status int, ct, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", ct)
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

func loadCalc(t testing.TB) *wsdl.Definitions {
	t.Helper()
	b, err := os.ReadFile("testdata/calc.wsdl")
	if err != nil {
		t.Fatal(err)
	}
	defs, err := wsdl.ParseFiles(context.Background(), "calc.wsdl", map[string][]byte{"calc.wsdl": b})
	if err != nil {
		t.Fatal(err)
	}
	return defs
}

// calcSource is the calc service of testdata/calc.wsdl pointing at url:
// add (POST /add) and lookup (GET /codes/{code}).
func calcSource(t testing.TB, url string) routing.Source {
	p := model.BackendProfile{ProfileID: "b1", ServiceID: "svc-calc", Name: "primary", EndpointURL: url}
	model.ApplyBackendDefaults(&p)
	timeout := 500
	return routing.Source{
		Service: model.Service{ServiceID: "svc-calc", ServiceKey: "calc", Environment: "dev",
			Direction: model.DirectionPublish, Status: model.ServiceActive},
		Version:  model.Version{VersionID: "v1"},
		Contract: loadCalc(t),
		Operations: []model.Operation{
			{OperationID: "op-add", OperationKey: "add", SOAPOperationName: "Add", SOAPVersion: "1.1",
				SOAPAction: "http://example.com/calc/Add", RestMethod: "POST", RestPath: "/add", TimeoutMs: &timeout},
			{OperationID: "op-lookup", OperationKey: "lookup", SOAPOperationName: "Lookup", SOAPVersion: "1.1",
				SOAPAction: "http://example.com/calc/Lookup", RestMethod: "GET", RestPath: "/codes/{code}", TimeoutMs: &timeout},
			{OperationID: "op-echo", OperationKey: "echo", SOAPOperationName: "Echo", SOAPVersion: "1.1",
				SOAPAction: "http://example.com/calc/Echo", RestMethod: "POST", RestPath: "/echo"},
			{OperationID: "op-status", OperationKey: "status", SOAPOperationName: "Status", SOAPVersion: "1.1",
				SOAPAction: "http://example.com/calc/Status", RestMethod: "POST", RestPath: "/status"},
		},
		Backends:       []upstream.Backend{{Profile: p}},
		DefaultTimeout: 30 * time.Second,
	}
}

// publishEnv is a dispatcher serving one compiled service on 127.0.0.1.
type publishEnv struct {
	srv     *httptest.Server
	log     *txLog
	routes  *staticTable
	backend *soapBackend
}

func newPublishEnv(t testing.TB, edit func(*routing.Source)) *publishEnv {
	t.Helper()
	e := &publishEnv{log: &txLog{}, routes: &staticTable{}, backend: newSOAPBackend(t)}
	e.setSource(t, edit)
	client := upstream.NewClient()
	t.Cleanup(client.Close)
	d := New(Config{
		Routes:       e.routes,
		Recorder:     e.log,
		Backends:     SelectedBackends{Client: client, Selector: upstream.NewSelector(nil, nil)},
		MaxPayloadMB: func() int { return 1 },
	})
	e.srv = httptest.NewServer(httpx.Correlation(d))
	t.Cleanup(e.srv.Close)
	return e
}

func (e *publishEnv) setSource(t testing.TB, edit func(*routing.Source)) {
	t.Helper()
	src := calcSource(t, e.backend.srv.URL+"/calc")
	if edit != nil {
		edit(&src)
	}
	svc, err := routing.Compile(src)
	if err != nil {
		t.Fatal(err)
	}
	e.routes.t.Store(routing.NewTable(1, []*routing.Service{svc}, nil))
}

type publishResult struct {
	status int
	header http.Header
	body   []byte
	err    errBody
}

func (e *publishEnv) call(t *testing.T, method, path, ct, body, cid string, header ...string) publishResult {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, e.srv.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	req.Header.Set("X-Correlation-Id", cid)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	res := publishResult{status: resp.StatusCode, header: resp.Header, body: b}
	if resp.StatusCode >= 400 {
		json.Unmarshal(b, &res.err)
	}
	return res
}
