package dataplane_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/dataplane"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/tests/loopback"
	"github.com/s2r-project/s2r/internal/upstream"
)

// TestSelectedBackends drives the publish/consume Backends over real
// loopback servers: active_passive skips a refusing backend and a 503, but
// never retries an answer that may have been processed.
func TestSelectedBackends(t *testing.T) {
	refused := "http://" + loopback.FreeAddr(t)
	var unavailableHits, faultHits, okHits atomic.Int64
	unavailable := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		unavailableHits.Add(1)
		http.Error(w, "maintenance", http.StatusServiceUnavailable)
	}))
	defer unavailable.Close()
	fault := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		faultHits.Add(1)
		w.WriteHeader(500)
		io.WriteString(w, "<Fault/>")
	}))
	defer fault.Close()
	ok := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		okHits.Add(1)
		io.WriteString(w, "<ok/>")
	}))
	defer ok.Close()
	client := upstream.NewClient()
	defer client.Close()
	sb := dataplane.SelectedBackends{Client: client, Selector: upstream.NewSelector(upstream.NewHealth(), nil)}

	svc := gwService(upstream.RoutingActivePassive, refused, unavailable.URL, ok.URL)
	resp, b, err := sb.Do(context.Background(), svc, upstream.Request{Body: []byte("<x/>")})
	if err != nil || resp.StatusCode != 200 || string(resp.Body) != "<ok/>" || b != svc.Backends[2] {
		t.Fatalf("failover: %v %v %v", resp, b, err)
	}
	svc = gwService(upstream.RoutingActivePassive, fault.URL, ok.URL)
	svc.ID += "-fault"
	resp, b, err = sb.Do(context.Background(), svc, upstream.Request{Body: []byte("<x/>")})
	if err != nil || resp.StatusCode != 500 || b != svc.Backends[0] || okHits.Load() != 1 {
		t.Fatalf("a 500 answer must be final: %v %v %v (ok hits %d)", resp, b, err, okHits.Load())
	}
	svc = gwService(upstream.RoutingSingle, refused, ok.URL)
	svc.ID += "-single"
	_, b, err = sb.Do(context.Background(), svc, upstream.Request{Body: []byte("<x/>")})
	if upstream.KindOf(err) != upstream.KindUnreachable || b != svc.Backends[0] {
		t.Fatalf("single: %v %v", b, err)
	}
	var ae *apierr.Error
	svc = gwService(upstream.RoutingSingle)
	if _, _, err := sb.Do(context.Background(), svc, upstream.Request{}); !errors.As(err, &ae) || ae.Code != apierr.RunUnavailable {
		t.Fatalf("no backend: %v", err)
	}
	if unavailableHits.Load() != 1 || faultHits.Load() != 1 {
		t.Fatalf("hits: unavailable %d, fault %d", unavailableHits.Load(), faultHits.Load())
	}
}

func TestHealthTargets(t *testing.T) {
	a := gwService(upstream.RoutingRoundRobin, "http://10.0.0.1/", "http://10.0.0.2/")
	a.HealthCheckMode, a.HealthCheckInterval = upstream.HealthTCP, 7*time.Second
	b := gwService(upstream.RoutingSingle, "http://10.0.0.3/")
	b.ServiceKey, b.ID = "other", "svc-other"
	table := routing.NewTable(1, []*routing.Service{a, b}, nil)
	got := dataplane.HealthTargets(table)
	if len(got) != 2 || got[0].Backend != &a.Backends[0].Backend || got[1].Interval != 7*time.Second || got[1].Mode != upstream.HealthTCP {
		t.Fatalf("targets %+v", got)
	}
}
