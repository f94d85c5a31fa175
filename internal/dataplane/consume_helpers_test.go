package dataplane

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/httpx"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/upstream"
	"github.com/s2r-project/s2r/internal/wsdl"
)

// restSeen is one request the REST backend received.
type restSeen struct {
	method, uri, auth, ct string
	body                  string
}

// restBackend is a REST backend on 127.0.0.1 whose answer each test sets.
type restBackend struct {
	srv  *httptest.Server
	mu   sync.Mutex
	seen []restSeen
	h    http.HandlerFunc
}

func newRESTBackend(t testing.TB) *restBackend {
	b := &restBackend{}
	b.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		b.mu.Lock()
		b.seen = append(b.seen, restSeen{method: r.Method, uri: r.URL.RequestURI(), auth: r.Header.Get("Authorization"),
			ct: r.Header.Get("Content-Type"), body: string(body)})
		h := b.h
		b.mu.Unlock()
		if h == nil {
			http.Error(w, "no handler", 500)
			return
		}
		h(w, r)
	}))
	t.Cleanup(b.srv.Close)
	return b
}

func (b *restBackend) set(h http.HandlerFunc) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.h = h
	b.seen = nil
}

func (b *restBackend) last() restSeen {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.seen) == 0 {
		return restSeen{}
	}
	return b.seen[len(b.seen)-1]
}

func jsonAnswer(status int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

// ordersFiles reads the two files of testdata/orders.
func ordersFiles(t testing.TB) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	for _, name := range []string{"orders.wsdl", "xsd/orders-types.xsd"} {
		b, err := os.ReadFile(filepath.Join("testdata", "orders", filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = b
	}
	return files
}

// ordersSource is the consume service "orders" of testdata/orders whose
// REST backend is url.
func ordersSource(t testing.TB, url string) routing.Source {
	t.Helper()
	files := ordersFiles(t)
	defs, err := wsdl.ParseFiles(context.Background(), "orders.wsdl", files)
	if err != nil {
		t.Fatal(err)
	}
	p := model.BackendProfile{ProfileID: "rest1", ServiceID: "svc-orders", Name: "rest", EndpointURL: url}
	model.ApplyBackendDefaults(&p)
	return routing.Source{
		Service: model.Service{ServiceID: "svc-orders", ServiceKey: "orders", Environment: "dev",
			Direction: model.DirectionConsume, Status: model.ServiceActive},
		Version:  model.Version{VersionID: "v1", WSDLService: "OrdersService", WSDLPort: "OrdersSoap"},
		Artifact: &model.Artifact{ArtifactID: "a1", RootPath: "orders.wsdl", Files: files},
		Contract: defs,
		Operations: []model.Operation{
			{OperationID: "op-get", OperationKey: "get-order", SOAPOperationName: "GetOrder", SOAPVersion: "1.1",
				SOAPAction: "urn:example:orders:GetOrder", RestMethod: "POST", RestPath: "/get-order"},
			{OperationID: "op-create", OperationKey: "create-order", SOAPOperationName: "CreateOrder", SOAPVersion: "1.1",
				SOAPAction: "urn:example:orders:CreateOrder", RestMethod: "POST", RestPath: "/create-order"},
		},
		Mappings: map[string]model.Mapping{
			"op-get": {RequestMapping: []byte(`{"mode":"identity","restMethod":"GET","restPath":"/orders/{id}"}`),
				ResponseMapping: []byte(`{"mode":"identity"}`)},
			"op-create": {RequestMapping: []byte(`{"mode":"identity","restMethod":"POST","restPath":"/orders"}`),
				ResponseMapping: []byte(`{"mode":"identity"}`)},
		},
		Backends:       []upstream.Backend{{Profile: p}},
		DefaultTimeout: 2 * time.Second,
	}
}

// consumeEnv is a dispatcher serving the orders consume service.
type consumeEnv struct {
	srv    *httptest.Server
	log    *txLog
	routes *staticTable
	rest   *restBackend
}

func newConsumeEnv(t testing.TB, cfg Config, edit func(*routing.Source)) *consumeEnv {
	t.Helper()
	e := &consumeEnv{log: &txLog{}, routes: &staticTable{}, rest: newRESTBackend(t)}
	src := ordersSource(t, e.rest.srv.URL+"/api")
	if edit != nil {
		edit(&src)
	}
	svc, err := routing.Compile(src)
	if err != nil {
		t.Fatal(err)
	}
	e.routes.t.Store(routing.NewTable(1, []*routing.Service{svc}, nil))
	client := upstream.NewClient()
	t.Cleanup(client.Close)
	cfg.Routes = e.routes
	cfg.Recorder = e.log
	cfg.Backends = SelectedBackends{Client: client, Selector: upstream.NewSelector(nil, nil)}
	if cfg.MaxPayloadMB == nil {
		cfg.MaxPayloadMB = func() int { return 1 }
	}
	e.srv = httptest.NewServer(httpx.Correlation(New(cfg)))
	t.Cleanup(e.srv.Close)
	return e
}

type consumeResult struct {
	status int
	header http.Header
	body   string
}

func (e *consumeEnv) post(t *testing.T, ct, action, body, cid string) consumeResult {
	t.Helper()
	return e.do(t, http.MethodPost, "/consume/dev/orders", ct, action, body, cid)
}

func (e *consumeEnv) do(t *testing.T, method, path, ct, action, body, cid string) consumeResult {
	t.Helper()
	req, err := http.NewRequest(method, e.srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	if action != "" {
		req.Header.Set("SOAPAction", action)
	}
	req.Header.Set("X-Correlation-Id", cid)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return consumeResult{status: resp.StatusCode, header: resp.Header, body: string(b)}
}

// soap11 and soap12 wrap body content in an envelope of each version.
func soap11(body string) string {
	return `<?xml version="1.0" encoding="UTF-8"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>` +
		body + `</s:Body></s:Envelope>`
}

func soap12(body string) string {
	return `<?xml version="1.0" encoding="UTF-8"?><e:Envelope xmlns:e="http://www.w3.org/2003/05/soap-envelope"><e:Body>` +
		body + `</e:Body></e:Envelope>`
}
