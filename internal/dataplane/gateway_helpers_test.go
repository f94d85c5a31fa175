package dataplane_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"sync"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/dataplane"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/upstream"
)

// gwRoutes is a fixed route table.
type gwRoutes struct{ t *routing.Table }

func (g gwRoutes) Table() *routing.Table { return g.t }

// gwRecords keeps every transaction record.
type gwRecords struct {
	mu   sync.Mutex
	recs []*model.TxRecord
}

func (l *gwRecords) Record(r *model.TxRecord) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.recs = append(l.recs, r)
}

func (l *gwRecords) last(t *testing.T) *model.TxRecord {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.recs) == 0 {
		t.Fatal("no transaction recorded")
	}
	return l.recs[len(l.recs)-1]
}

// count returns how many records were taken.
func (l *gwRecords) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.recs)
}

// after waits for record number n+1 (the handler records after the client
// has its answer) and returns it.
func (l *gwRecords) after(t *testing.T, n int) *model.TxRecord {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for l.count() <= n {
		if time.Now().After(deadline) {
			t.Fatalf("no record %d after 2s", n+1)
		}
		time.Sleep(time.Millisecond)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.recs[n]
}

// gwService is a gateway service "dev/calc" with backends at urls, in
// priority order, granting everything.
func gwService(mode string, urls ...string) *routing.Service {
	svc := &routing.Service{ID: "svc-" + mode, ServiceKey: "calc", Environment: "dev", Direction: "gateway",
		Status: "active", RoutingMode: mode, HealthCheckMode: upstream.HealthNone,
		Grants: []netip.Prefix{netip.MustParsePrefix("0.0.0.0/0"), netip.MustParsePrefix("::/0")}}
	for i, u := range urls {
		p := model.BackendProfile{ProfileID: svc.ID + "-" + string(rune('a'+i)), ServiceID: svc.ID, Name: string(rune('a' + i)),
			EndpointURL: u, AuthType: model.AuthNone, RoutingPriority: i}
		model.ApplyBackendDefaults(&p)
		svc.Backends = append(svc.Backends, &routing.Backend{Backend: upstream.Backend{Profile: p}})
	}
	if len(svc.Backends) > 0 {
		svc.DefaultBackend = svc.Backends[0]
	}
	return routing.NewService(svc, nil)
}

// gwSetup is a dispatcher serving svc on a loopback front server.
type gwSetup struct {
	d     *dataplane.Dispatcher
	front *httptest.Server
	recs  *gwRecords
}

func newGW(t testing.TB, svc *routing.Service, mb int, gcfg dataplane.GatewayConfig) *gwSetup {
	recs := &gwRecords{}
	if gcfg.Client == nil {
		c := upstream.NewClient()
		t.Cleanup(c.Close)
		gcfg.Client = c
	}
	d := dataplane.New(dataplane.Config{
		Routes:       gwRoutes{routing.NewTable(1, []*routing.Service{svc}, nil)},
		MaxPayloadMB: func() int { return mb },
		Recorder:     recs,
		Gateway:      gcfg,
	})
	front := httptest.NewServer(d)
	t.Cleanup(front.Close)
	return &gwSetup{d: d, front: front, recs: recs}
}

// hashBackend answers the SHA-256 of the body it received and the
// address headers it saw, as JSON.
func hashBackend(t testing.TB) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := sha256.New()
		n, err := io.Copy(h, r.Body)
		if err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"sha256": hex.EncodeToString(h.Sum(nil)), "n": n,
			"xff": r.Header.Values("X-Forwarded-For"), "forwarded": r.Header.Values("Forwarded"),
			"realIp": r.Header.Values("X-Real-Ip"), "proto": r.Header.Get("X-Forwarded-Proto"),
			"host": r.Header.Get("X-Forwarded-Host"), "contentType": r.Header.Get("Content-Type"),
			"soapAction": r.Header.Get("SOAPAction"), "connection": r.Header.Values("Connection"),
			"keepAlive": r.Header.Values("Keep-Alive"),
		})
	}))
	t.Cleanup(srv.Close)
	return srv
}

type hashAnswer struct {
	SHA256      string   `json:"sha256"`
	N           int64    `json:"n"`
	XFF         []string `json:"xff"`
	Forwarded   []string `json:"forwarded"`
	RealIP      []string `json:"realIp"`
	Proto       string   `json:"proto"`
	Host        string   `json:"host"`
	ContentType string   `json:"contentType"`
	SOAPAction  string   `json:"soapAction"`
	Connection  []string `json:"connection"`
	KeepAlive   []string `json:"keepAlive"`
}

// errorCode reads the S2R code of a JSON error answer.
func errorCode(t testing.TB, body []byte) string {
	t.Helper()
	var e struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	if err := json.Unmarshal(body, &e); err != nil {
		t.Fatalf("error body %q: %v", body, err)
	}
	return e.Error.Code
}

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
