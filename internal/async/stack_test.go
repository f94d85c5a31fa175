package async

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/admin"
	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/dataplane"
	"github.com/s2r-project/s2r/internal/httpx"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/observe"
	routeload "github.com/s2r-project/s2r/internal/routing/load"
	"github.com/s2r-project/s2r/internal/server"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/upstream"
)

// Identities of the tests: root is a bootstrap admin, the others get
// direct permission bindings (admintest.Staff).
const (
	rootEmail     = admintest.RootEmail
	operatorEmail = admintest.OperatorEmail
	readerEmail   = admintest.ReaderEmail
	nobodyEmail   = admintest.NobodyEmail
)

// clock is a settable test clock: real time plus an offset.
type clock struct{ offset atomic.Int64 }

func (c *clock) now() time.Time          { return time.Now().Add(time.Duration(c.offset.Load())) }
func (c *clock) advance(d time.Duration) { c.offset.Add(int64(d)) }

// stack is one s2r instance in process, wired as cmd/s2r/serve.go wires
// it: route table reloader, transaction recorder, async executions,
// runtime dispatcher and admin API behind the real middleware, served on
// 127.0.0.1.
type stack struct {
	t     testing.TB
	st    *store.Store
	x     *Executions
	clock *clock
	base  string
	c     *admintest.Client
	logs  *admintest.LogBuffer
}

func newStack(t testing.TB, st *store.Store) *stack {
	t.Helper()
	box := admintest.Box(t)
	log, logs := admintest.Logger()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	t.Cleanup(func() {
		cancel()
		wg.Wait()
		if t.Failed() {
			t.Logf("stack log tail:\n%s", tail(logs.String(), 4000))
		}
	})
	run := func(f func(context.Context) error) {
		wg.Add(1)
		go func() { defer wg.Done(); f(ctx) }()
	}
	routes := routeload.NewReloader(routeload.Config{Store: st, Secrets: box, Logger: log}, 200*time.Millisecond)
	if err := routes.Reload(ctx); err != nil {
		t.Fatal(err)
	}
	rec, err := observe.New(observe.Config{Store: st, Settings: routes, Logger: log, FlushInterval: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	c := &clock{}
	x := New(Config{Store: st, Logger: log, Now: c.now, SweepInterval: time.Hour, Settings: routes})
	client := upstream.NewClient()
	t.Cleanup(client.Close)
	d := dataplane.New(dataplane.Config{Routes: routes, Recorder: rec,
		Backends: dataplane.SelectedBackends{Client: client, Selector: upstream.NewSelector(nil, nil)}, Logger: log, Async: x, MaxPayloadMB: func() int { return 1 }})
	adm := admin.New(admin.Config{Store: st, Secrets: box, Logger: log, BootstrapAdmins: []string{rootEmail},
		Version: "test", Routes: x.Routes(d)})
	reg := server.NewRegistry()
	metrics, err := httpx.NewHTTPMetrics(reg)
	if err != nil {
		t.Fatal(err)
	}
	h := server.Config{Logger: log, Registry: reg, Metrics: metrics, Health: http.NotFoundHandler(), Runtime: d, Admin: adm}.MainHandler()
	api := admintest.Serve(t, h)
	run(routes.Run)
	run(rec.Run)
	run(x.Run)
	// Stacks may share a database: Bind keeps bindings already there.
	admintest.Bind(t, st, admintest.Staff()...)
	return &stack{t: t, st: st, x: x, clock: c, base: api.URL, c: api, logs: logs}
}

// answer is one HTTP answer.
type answer = admintest.Response

// do sends one request; headers are name/value pairs.
func (s *stack) do(method, path, ct string, body []byte, hdr ...string) answer {
	s.t.Helper()
	return s.c.Send(method, path, "", ct, body, hdr...)
}

// admin sends an admin request as email with a JSON body (nil for none).
func (s *stack) admin(method, path, email string, body any) answer {
	s.t.Helper()
	var b []byte
	ct := ""
	if body != nil {
		var err error
		if b, err = json.Marshal(body); err != nil {
			s.t.Fatal(err)
		}
		ct = "application/json"
	}
	return s.c.Send(method, adminapi.Prefix+path, email, ct, b)
}

// service is an onboarded calc service.
type service struct {
	id, key string
	ops     map[string]string // operationKey → operationId
}

// onboard imports testdata/calc.wsdl by autopilot as service key with its
// backend at backendURL, makes the given operations async_callback,
// optionally sets a shared callback secret, and activates it.
func (s *stack) onboard(key, backendURL, callbackSecret string, asyncOps ...string) service {
	s.t.Helper()
	wsdl, err := os.ReadFile("testdata/calc.wsdl")
	if err != nil {
		s.t.Fatal(err)
	}
	a := s.admin("POST", "/wsdl/import-xml:autopilot", rootEmail, map[string]any{"xml": string(wsdl), "environment": "dev",
		"serviceKey": key, "backendUrl": backendURL}).WantStatus(s.t, http.StatusCreated)
	var auto struct {
		Service    struct{ ServiceID string }
		Version    struct{ VersionID string }
		Operations []struct{ OperationID, OperationKey string }
	}
	if err := json.Unmarshal(a.Body, &auto); err != nil {
		s.t.Fatal(err)
	}
	svc := service{id: auto.Service.ServiceID, key: key, ops: map[string]string{}}
	for _, op := range auto.Operations {
		svc.ops[op.OperationKey] = op.OperationID
	}
	for _, k := range asyncOps {
		s.admin("PATCH", "/operations/"+svc.ops[k], operatorEmail, map[string]any{"executionMode": "async_callback"}).
			WantStatus(s.t, http.StatusOK)
	}
	if callbackSecret != "" {
		s.admin("PATCH", "/services/"+svc.id, operatorEmail, map[string]any{"callbackAuthMode": "shared_secret",
			"callbackSecret": callbackSecret}).WantStatus(s.t, http.StatusOK)
	}
	s.admin("POST", "/services/"+svc.id+"/versions/"+auto.Version.VersionID+":activate", operatorEmail, nil).
		WantStatus(s.t, http.StatusOK)
	return svc
}

// publish posts a JSON body to a publish operation, waiting until the
// route table serves the service.
func (s *stack) publish(key, op, body string, hdr ...string) answer {
	s.t.Helper()
	var a answer
	deadline := time.Now().Add(10 * time.Second)
	for {
		a = s.do("POST", "/publish/dev/"+key+"/"+op, "application/json", []byte(body), hdr...)
		if a.Status != http.StatusNotFound || time.Now().After(deadline) {
			return a
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// accepted is the 202 answer of an async publish.
type accepted struct {
	CorrelationID, Status, PollPath, PollToken string
	ExpiresAt                                  time.Time
}

func (s *stack) start(key, op, body string, hdr ...string) accepted {
	s.t.Helper()
	a := s.publish(key, op, body, hdr...).WantStatus(s.t, http.StatusAccepted)
	var acc accepted
	if err := json.Unmarshal(a.Body, &acc); err != nil {
		s.t.Fatal(err)
	}
	if acc.PollToken == "" || a.Header.Get("X-S2R-Poll-Token") != acc.PollToken || a.Header.Get("Location") != acc.PollPath ||
		acc.Status != model.AsyncWaiting || acc.PollPath != "/publish/dev/"+key+"/"+op+"/async/"+acc.CorrelationID {
		s.t.Fatalf("202 answer: %s, headers %v", a.Body, a.Header)
	}
	return acc
}

// pollAnswer is a decoded poll answer.
type pollAnswer struct {
	CorrelationID, Status, PollToken string
	ExpiresAt                        time.Time
	Result, Fault, Error             json.RawMessage
}

// poll polls with token and returns the answer (decoded when 200).
func (s *stack) poll(path, token string) (answer, pollAnswer) {
	s.t.Helper()
	var hdr []string
	if token != "" {
		hdr = []string{"X-S2R-Poll-Token", token}
	}
	a := s.do("GET", path, "", nil, hdr...)
	var p pollAnswer
	if a.Status == http.StatusOK {
		if err := json.Unmarshal(a.Body, &p); err != nil {
			s.t.Fatal(err)
		}
		if p.PollToken == "" || p.PollToken == token || a.Header.Get("X-S2R-Poll-Token") != p.PollToken {
			s.t.Fatalf("poll token not rotated: %s", a.Body)
		}
	}
	return a, p
}

// pollAnswer polls with token and returns the raw answer.
func (s *stack) pollAnswer(path, token string) answer {
	s.t.Helper()
	a, _ := s.poll(path, token)
	return a
}

// callback posts a callback envelope to the operation's callback path.
func (s *stack) callback(key, op, ct, body string, hdr ...string) answer {
	s.t.Helper()
	return s.do("POST", "/_s2r/callback/dev/"+key+"/"+op, ct, []byte(body), hdr...)
}

// execution reads an execution from the store.
func (s *stack) execution(id string) model.AsyncExecution {
	s.t.Helper()
	e, err := s.st.AsyncExecution(context.Background(), id)
	if err != nil {
		s.t.Fatal(err)
	}
	return e
}

// txLogs waits until the recorder has stored at least n runtime logs of
// correlation id (10 s at most) and returns them.
func (s *stack) txLogs(id string, n int) []model.TxLog {
	s.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		logs, err := s.st.TxLogsByCorrelation(context.Background(), id)
		if err != nil {
			s.t.Fatal(err)
		}
		if len(logs) >= n || time.Now().After(deadline) {
			return logs
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}
