package resilience

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"regexp"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/tests/loopback"
	"github.com/s2r-project/s2r/internal/tests/poll"
)

// calcBackend is a SOAP 1.1 calculator on 127.0.0.1 that really adds: an
// Add request's a and b come back as their sum. It can be stopped (its
// listener and connections closed: callers see connection refused) and
// started again on the same port.
type calcBackend struct {
	t     *testing.T
	addr  string
	calls atomic.Int64 // HTTP requests
	conns atomic.Int64 // TCP connections accepted (tcp health checks among them)

	mu  sync.Mutex
	srv *http.Server
}

var addArgs = regexp.MustCompile(`<(?:\w+:)?a>([^<]*)</(?:\w+:)?a>\s*<(?:\w+:)?b>([^<]*)</(?:\w+:)?b>`)

func startCalc(t *testing.T) *calcBackend {
	c := &calcBackend{t: t, addr: loopback.FreeAddr(t)}
	c.start()
	t.Cleanup(c.stop)
	return c
}

// url is the endpoint of the calculator.
func (c *calcBackend) url() string { return "http://" + c.addr + "/calc" }

func (c *calcBackend) serveHTTP(w http.ResponseWriter, r *http.Request) {
	c.calls.Add(1)
	body, _ := io.ReadAll(r.Body)
	w.Header().Set("Content-Type", "text/xml; charset=utf-8")
	m := addArgs.FindSubmatch(body)
	a, okA := new(big.Float).SetPrec(200).SetString(string(m1(m, 1)))
	b, okB := new(big.Float).SetPrec(200).SetString(string(m1(m, 2)))
	if !okA || !okB {
		w.WriteHeader(http.StatusInternalServerError)
		io.WriteString(w, `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault>`+
			`<faultcode>soap:Client</faultcode><faultstring>not an Add request</faultstring></soap:Fault></soap:Body></soap:Envelope>`)
		return
	}
	fmt.Fprintf(w, `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>`+
		`<AddResponse xmlns="http://example.com/calc"><result>%s</result></AddResponse></soap:Body></soap:Envelope>`,
		new(big.Float).Add(a, b).Text('f', -1))
}

func m1(m [][]byte, i int) []byte {
	if len(m) <= i {
		return nil
	}
	return m[i]
}

// start listens on the backend's port again.
func (c *calcBackend) start() {
	c.t.Helper()
	var ln net.Listener
	var err error
	for range 50 { // the port of a stopped server may take a moment to free
		if ln, err = net.Listen("tcp", c.addr); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		c.t.Fatalf("calc backend: %v", err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(c.serveHTTP)}
	c.mu.Lock()
	c.srv = srv
	c.mu.Unlock()
	go srv.Serve(countingListener{ln, &c.conns})
}

// countingListener counts the connections it accepts.
type countingListener struct {
	net.Listener
	n *atomic.Int64
}

func (l countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.n.Add(1)
	}
	return c, err
}

// stop closes the listener and every connection.
func (c *calcBackend) stop() {
	c.mu.Lock()
	srv := c.srv
	c.srv = nil
	c.mu.Unlock()
	if srv != nil {
		srv.Close()
	}
}

// calcService is the calculator onboarded as a publish service.
type calcService struct {
	ServiceID, VersionID, ProfileID, Key string
	Operations                           map[string]string // operationKey -> operationId
}

// onboardCalc imports calc.wsdl through autopilot as publish service key
// in environment dev, points its backend at endpoint, applies patch to
// the service (when not empty) and activates it; then waits until base
// serves it.
func onboardCalc(t *testing.T, base, key, endpoint string, patch map[string]any) calcService {
	t.Helper()
	s := importCalc(t, base, key, endpoint, patch)
	activateCalc(t, base, s, func() string {
		if r := s.add(base, 2, 3); !r.ok() || string(r.body) != `{"result":5}` {
			return r.String()
		}
		return ""
	})
	return s
}

// onboardAsyncCalc is onboardCalc with the add operation in
// async_callback mode: a call answers 202 with an execution.
func onboardAsyncCalc(t *testing.T, base, key, endpoint string) calcService {
	t.Helper()
	s := importCalc(t, base, key, endpoint, nil)
	mustAdmin(t, base, "PATCH", "/operations/"+s.Operations["add"], map[string]any{"executionMode": "async_callback"}, http.StatusOK)
	activateCalc(t, base, s, func() string {
		if r := s.add(base, 2, 3); r.status != http.StatusAccepted {
			return r.String()
		}
		return ""
	})
	return s
}

func importCalc(t *testing.T, base, key, endpoint string, patch map[string]any) calcService {
	t.Helper()
	var auto struct {
		Service        struct{ ServiceID string } `json:"service"`
		Version        struct{ VersionID string } `json:"version"`
		BackendProfile struct{ ProfileID string } `json:"backendProfile"`
		Operations     []struct{ OperationID, OperationKey string }
	}
	mustAdmin(t, base, "POST", "/wsdl/import-xml:autopilot", map[string]any{
		"xml": calcWSDL, "environment": "dev", "serviceKey": key,
	}, http.StatusCreated).decode(t, &auto)
	s := calcService{ServiceID: auto.Service.ServiceID, VersionID: auto.Version.VersionID,
		ProfileID: auto.BackendProfile.ProfileID, Key: key, Operations: map[string]string{}}
	for _, op := range auto.Operations {
		s.Operations[op.OperationKey] = op.OperationID
	}
	mustAdmin(t, base, "PATCH", "/backend-profiles/"+s.ProfileID, map[string]any{"endpointUrl": endpoint}, http.StatusOK)
	if len(patch) > 0 {
		mustAdmin(t, base, "PATCH", "/services/"+s.ServiceID, patch, http.StatusOK)
	}
	return s
}

// activateCalc activates s's version and waits until served says "".
func activateCalc(t *testing.T, base string, s calcService, served func() string) {
	t.Helper()
	mustAdmin(t, base, "POST", "/services/"+s.ServiceID+"/versions/"+s.VersionID+":activate", nil, http.StatusOK)
	poll.UntilOK(t, 5*time.Second, s.Key+" served", served)
}

// add calls the service's add operation on base.
func (s calcService) add(base string, a, b int) reply {
	return call("POST", base+"/publish/dev/"+s.Key+"/add", fmt.Sprintf(`{"a":%d,"b":%d}`, a, b))
}

// addOK reports whether the answer is the right sum.
func addOK(r reply, a, b int) bool {
	if !r.ok() {
		return false
	}
	var got struct{ Result json.Number }
	return json.Unmarshal(r.body, &got) == nil && got.Result.String() == fmt.Sprint(a+b)
}

// publishLoad calls add on base from n goroutines until ctx ends, and
// hands every answer to each.
func publishLoad(ctx context.Context, n int, s calcService, base func() string, each func(r reply, a, b int)) *sync.WaitGroup {
	var wg sync.WaitGroup
	for w := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ctx.Err() == nil; i++ {
				a, b := w*1000+i, i
				r := s.add(base(), a, b)
				each(r, a, b)
				if r.err != nil {
					time.Sleep(10 * time.Millisecond) // s2r is down: do not spin
				}
			}
		}()
	}
	return &wg
}
