package upstream_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/fetch"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/tests/poll"
	"github.com/s2r-project/s2r/internal/upstream"
)

func loopbackFetcher() *fetch.Fetcher {
	return fetch.New(fetch.Policy{AllowedCIDRs: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}, Timeout: 2 * time.Second})
}

// waitHealthy polls h until profile's health is want or the deadline.
func waitHealthy(t *testing.T, h *upstream.Health, profile string, want bool) {
	t.Helper()
	poll.Until(t, 5*time.Second, fmt.Sprintf("%s healthy = %v", profile, want), func() bool { return h.Healthy(profile) == want })
}

// TestHealthCheckLeavesAndRejoinsRotation stops a backend's listener: the
// tcp check marks it unhealthy and round robin stops sending to it; the
// listener comes back on the same port and so does the traffic.
func TestHealthCheckLeavesAndRejoinsRotation(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	up := &upstream.Backend{Profile: model.BackendProfile{ProfileID: "hc-a", EndpointURL: "http://" + addr + "/svc", RoutingWeight: 1}}
	other := &upstream.Backend{Profile: model.BackendProfile{ProfileID: "hc-b", EndpointURL: "http://127.0.0.1:1/", RoutingWeight: 1}}
	targets := []upstream.HealthTarget{{ServiceID: "hc", ServiceKey: "hc", Mode: upstream.HealthTCP, Interval: 20 * time.Millisecond, Backend: up}}
	h := upstream.NewHealth()
	c := &upstream.Checker{Health: h, Targets: func() []upstream.HealthTarget { return targets }, Tick: 10 * time.Millisecond}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go c.Run(ctx)
	s := upstream.NewSelector(h, nil)
	p := upstream.Pool{ServiceID: "hc", Mode: upstream.RoutingRoundRobin, Backends: []*upstream.Backend{up, other}}
	share := func() int {
		n := 0
		for range 20 {
			i, _ := s.Do(ctx, p, func(context.Context, int) (upstream.Verdict, error) { return upstream.Verdict{}, nil })
			if i == 0 {
				n++
			}
		}
		return n
	}
	waitHealthy(t, h, "hc-a", true)
	if n := share(); n != 10 {
		t.Fatalf("healthy backend got %d of 20, want 10", n)
	}
	ln.Close()
	waitHealthy(t, h, "hc-a", false)
	if n := share(); n != 0 {
		t.Fatalf("unhealthy backend got %d of 20, want 0", n)
	}
	st := h.Service("hc")
	if len(st) != 1 || st[0].Healthy || st[0].ConsecutiveFailures < upstream.UnhealthyAfter || st[0].LastError == "" {
		t.Fatalf("state %+v", st)
	}
	ln2, err := net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("port %s not reusable: %v", addr, err)
	}
	defer ln2.Close()
	waitHealthy(t, h, "hc-a", true)
	if n := share(); n == 0 {
		t.Fatal("recovered backend got no traffic")
	}
}

func TestWSDLFetchCheck(t *testing.T) {
	var wsdl atomic.Value
	wsdl.Store(`<definitions targetNamespace="urn:calc"><operation name="Add"/></definitions>`)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.RawQuery != "wsdl" {
			http.Error(w, "want ?wsdl", http.StatusNotFound)
			return
		}
		w.Write([]byte(wsdl.Load().(string)))
	}))
	defer srv.Close()
	b := &upstream.Backend{Profile: model.BackendProfile{ProfileID: "w", EndpointURL: srv.URL + "/calc"}}
	tgt := upstream.HealthTarget{Mode: upstream.HealthWSDLFetch, Backend: b, Namespace: "urn:calc", Operations: []string{"Add"}}
	f := loopbackFetcher()
	if err := upstream.Check(context.Background(), upstream.Probes{Fetcher: f}, tgt); err != nil {
		t.Fatalf("healthy WSDL: %v", err)
	}
	wsdl.Store(`<definitions targetNamespace="urn:calc"><operation name="Sub"/></definitions>`)
	if err := upstream.Check(context.Background(), upstream.Probes{Fetcher: f}, tgt); err == nil || !strings.Contains(err.Error(), `"Add"`) {
		t.Fatalf("operation gone: got %v", err)
	}
	srv.Close()
	if err := upstream.Check(context.Background(), upstream.Probes{Fetcher: f}, tgt); err == nil {
		t.Fatal("closed server: no error")
	}
}

// TestPingCheck pings 127.0.0.1; where no ICMP socket may be opened it
// falls back to a TCP connect, which needs a listener.
func TestPingCheck(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	b := &upstream.Backend{Profile: model.BackendProfile{ProfileID: "ping", EndpointURL: "http://" + ln.Addr().String() + "/"}}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if err := upstream.Check(ctx, upstream.Probes{}, upstream.HealthTarget{Mode: upstream.HealthPing, Backend: b}); err != nil {
		t.Fatalf("ping 127.0.0.1: %v", err)
	}
}
