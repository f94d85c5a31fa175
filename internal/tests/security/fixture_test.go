package security

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/tests/poll"
)

// calcWSDL is a small document/literal WSDL (Add, Lookup, Echo, Status).
func calcWSDL(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(), "internal", "dataplane", "testdata", "calc.wsdl"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// calcNS is the target namespace of calcWSDL.
const calcNS = "http://example.com/calc"

// backend is a loopback HTTP server that records every request it gets
// and answers with the configured reply.
type backend struct {
	*httptest.Server
	mu    sync.Mutex
	reqs  []recorded
	reply atomic.Pointer[reply]
}

// recorded is one request a backend received.
type recorded struct {
	Method, Path string
	Header       http.Header
	Body         []byte // the first MB
	Length       int64  // bytes of body received
	Complete     bool   // the body ended cleanly (not cut off)
}

// reply is what a backend answers.
type reply struct {
	status int
	ctype  string
	body   []byte
}

func newBackend(t *testing.T) *backend {
	t.Helper()
	b := &backend{}
	b.setReply(200, "text/xml; charset=utf-8", soap11(`<AddResponse xmlns="`+calcNS+`"><result>5</result></AddResponse>`))
	b.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Read the whole body, as a SOAP server parsing it would.
		var head bytes.Buffer
		n, err := io.Copy(io.MultiWriter(&limitedWriter{&head, 1 << 20}, io.Discard), r.Body)
		b.mu.Lock()
		b.reqs = append(b.reqs, recorded{r.Method, r.URL.RequestURI(), r.Header.Clone(), head.Bytes(), n, err == nil})
		b.mu.Unlock()
		if err != nil {
			return
		}
		rp := b.reply.Load()
		w.Header().Set("Content-Type", rp.ctype)
		w.WriteHeader(rp.status)
		w.Write(rp.body)
	}))
	t.Cleanup(b.Close)
	return b
}

// limitedWriter keeps the first n bytes written to it.
type limitedWriter struct {
	w *bytes.Buffer
	n int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if room := l.n - l.w.Len(); room > 0 {
		l.w.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

func (b *backend) setReply(status int, ctype, body string) {
	b.reply.Store(&reply{status, ctype, []byte(body)})
}

// requests returns what the backend received so far.
func (b *backend) requests() []recorded {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]recorded(nil), b.reqs...)
}

func soap11(inner string) string {
	return `<?xml version="1.0" encoding="UTF-8"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>` +
		inner + `</s:Body></s:Envelope>`
}

// services are the runtime services of one server, one per direction.
type services struct {
	publish, consume, gateway onboarded
	backend                   *backend // the SOAP backend of publish and gateway
	rest                      *backend // the REST backend of consume
}

// onboarded is what the autopilot answered for one service.
type onboarded struct {
	serviceID, versionID, profileID, serviceKey string
	operationIDs                                map[string]string // operationKey -> operationId
}

// onboard imports calcWSDL through the autopilot with the given key and
// direction, points it at backendURL and activates it.
func (s *server) onboard(t *testing.T, key, direction, backendURL string) onboarded {
	t.Helper()
	o := s.importDraft(t, key, direction, backendURL)
	s.admin(t, "POST", "/services/"+o.serviceID+"/versions/"+o.versionID+":activate", nil).WantStatus(t, 200)
	return o
}

// importDraft imports calcWSDL through the autopilot and leaves its
// version a draft.
func (s *server) importDraft(t *testing.T, key, direction, backendURL string) onboarded {
	t.Helper()
	r := s.admin(t, "POST", "/wsdl/import-xml:autopilot", map[string]any{"xml": calcWSDL(t), "environment": "dev",
		"serviceKey": key, "direction": direction, "backendUrl": backendURL}).WantStatus(t, 201)
	m := r.JSON(t)
	o := onboarded{serviceID: admintest.Dig(m, "service", "serviceId"), versionID: admintest.Dig(m, "version", "versionId"),
		profileID: admintest.Dig(m, "backendProfile", "profileId"), serviceKey: key, operationIDs: map[string]string{}}
	ops, _ := m["operations"].([]any)
	for _, op := range ops {
		o.operationIDs[admintest.Dig(op, "operationKey")] = admintest.Dig(op, "operationId")
	}
	return o
}

// asyncService is a publish service whose add operation is
// async_callback, with callbacks authenticated by secret.
type asyncService struct {
	onboarded
	secret  string
	backend *backend // acknowledges every request with 202
}

// onboardAsync sets up the async service "secasync" with callback secret
// secret; the async routes exist only once the async area has landed
// (found by the served OpenAPI document).
func (s *server) onboardAsync(t *testing.T, secret string) *asyncService {
	t.Helper()
	a := &asyncService{secret: secret, backend: newBackend(t)}
	a.backend.setReply(202, "text/xml", "")
	a.onboarded = s.importDraft(t, "secasync", "publish", a.backend.URL+"/calc")
	s.admin(t, "PATCH", "/operations/"+a.operationIDs["add"], map[string]any{"executionMode": "async_callback"}).WantStatus(t, 200)
	s.admin(t, "PATCH", "/services/"+a.serviceID, map[string]any{"callbackAuthMode": "shared_secret", "callbackSecret": secret}).WantStatus(t, 200)
	s.admin(t, "POST", "/services/"+a.serviceID+"/versions/"+a.versionID+":activate", nil).WantStatus(t, 200)
	poll.UntilOK(t, settle, "async service served", func() string {
		if r := s.startAsync(t); r.Status != 202 {
			return fmt.Sprintf("%d %s", r.Status, r.Body)
		}
		return ""
	})
	return a
}

// startAsync starts one execution of secasync's add.
func (s *server) startAsync(t *testing.T) resp {
	t.Helper()
	return s.send(t, request{method: "POST", path: "/publish/dev/secasync/add", ctype: "application/json",
		body: strings.NewReader(`{"a":1,"b":2}`)})
}

// executions starts n executions and returns their ids.
func (s *server) executions(t *testing.T, n int) []string {
	t.Helper()
	ids := make([]string, 0, n)
	for range n {
		r := s.startAsync(t).WantStatus(t, 202)
		ids = append(ids, admintest.Dig(r.JSON(t), "correlationId"))
	}
	return ids
}

// onboardAll onboards a publish, a consume and a gateway service (the
// gateway granted to loopback clients) and waits until all three serve.
func (s *server) onboardAll(t *testing.T) *services {
	t.Helper()
	sv := &services{backend: newBackend(t), rest: newBackend(t)}
	sv.rest.setReply(200, "application/json", `{"result": 5}`)
	sv.publish = s.onboard(t, "secpub", "publish", sv.backend.URL+"/calc")
	sv.consume = s.onboard(t, "seccons", "consume", sv.rest.URL+"/calc")
	sv.gateway = s.onboard(t, "secgw", "gateway", sv.backend.URL+"/gw")
	s.admin(t, "PUT", "/services/"+sv.gateway.serviceID+"/consumer-grants", map[string]any{"cidrs": []string{"127.0.0.0/8", "::1/128"}}).WantStatus(t, 200)
	poll.UntilOK(t, settle, "services served", func() string {
		for _, q := range []request{
			{method: "POST", path: "/publish/dev/secpub/add", body: bytes.NewReader([]byte(`{"a":2,"b":3}`)), ctype: "application/json"},
			{method: "GET", path: "/consume/dev/seccons?wsdl"},
			{method: "POST", path: "/gateway/dev/secgw", body: bytes.NewReader([]byte(soap11("<x/>"))), ctype: "text/xml"},
		} {
			if r, err := s.trySend(q); err != nil || r.Status != 200 {
				return q.path + ": " + string(r.Body)
			}
		}
		return ""
	})
	return sv
}

// canary is a loopback TCP listener that counts the connections it gets:
// a fetch, an XXE or an SSRF that reached it shows here.
type canary struct {
	ln   net.Listener
	hits atomic.Int64
	port string
}

func newCanary(t *testing.T, network, addr string) *canary {
	t.Helper()
	ln, err := net.Listen(network, addr)
	if err != nil {
		t.Fatal(err)
	}
	c := &canary{ln: ln}
	_, c.port, _ = net.SplitHostPort(ln.Addr().String())
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			c.hits.Add(1)
			conn.Close()
		}
	}()
	t.Cleanup(func() { ln.Close() })
	return c
}
