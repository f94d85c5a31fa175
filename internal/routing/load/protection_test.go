package load

import (
	"context"
	"log/slog"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/limit"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
	"github.com/s2r-project/s2r/internal/upstream"
)

// TestSwapAppliesProtection: a table built after the admin set a
// profile's caps and the service's rate limit carries both; the limiter
// survives a reload with new settings; an edit that keeps the endpoint
// keeps an open breaker, and a new endpoint gives a fresh one.
func TestSwapAppliesProtection(t *testing.T) {
	wsdlText, err := os.ReadFile("../../dataplane/testdata/calc.wsdl")
	if err != nil {
		t.Fatal(err)
	}
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		box := admintest.Box(t)
		a := newAdminClient(t, st, box)
		imp := a.importActive(wsdlText, "calc")
		var profiles []model.BackendProfile
		a.do("GET", "/services/"+imp.Service.ServiceID+"/backend-profiles", "", http.StatusOK, &profiles)
		id := profiles[0].ProfileID
		a.do("PATCH", "/backend-profiles/"+id, `{"maxConcurrentRequests":1}`, http.StatusOK, nil)
		a.do("PUT", "/services/"+imp.Service.ServiceID+"/rate-limits", `{"clientKey":"ip","requestsPerMinute":60}`, http.StatusOK, nil)

		limits := limit.NewRegistry(nil)
		breakers := upstream.NewBreakers(upstream.BreakerConfig{ConsecutiveFailures: 1, OpenFor: time.Hour})
		r := NewReloader(Config{Store: st, Secrets: box, Logger: slog.New(slog.DiscardHandler), Limits: limits, Breakers: breakers}, time.Hour)
		ctx := context.Background()
		if err := r.Reload(ctx); err != nil {
			t.Fatal(err)
		}
		svc := r.Table().Lookup("publish", "dev", "calc")
		if svc == nil || svc.RateLimit == nil || svc.Backends[0].Limiter == nil || svc.Backends[0].Limiter != limits.Get(id) {
			t.Fatalf("compiled service lacks its protection: %+v", svc)
		}
		l := svc.Backends[0].Limiter
		release, _, err := l.Acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := l.Acquire(ctx); err == nil {
			t.Fatal("a second call passed maxConcurrentRequests 1")
		}
		done, err := breakers.Allow(id)
		if err != nil {
			t.Fatal(err)
		}
		done(true) // the breaker opens

		a.do("PATCH", "/backend-profiles/"+id, `{"maxConcurrentRequests":2,"routingWeight":3}`, http.StatusOK, nil)
		if err := r.Reload(ctx); err != nil {
			t.Fatal(err)
		}
		if got := r.Table().Lookup("publish", "dev", "calc").Backends[0].Limiter; got != l {
			t.Fatal("the reload replaced the limiter: the call in flight is no longer counted")
		}
		if _, _, err := l.Acquire(ctx); err != nil {
			t.Fatalf("a second call under the raised cap: %v", err)
		}
		if breakers.State(id) != upstream.BreakerOpen {
			t.Fatal("an edit that kept the endpoint reset the breaker")
		}
		a.do("PATCH", "/backend-profiles/"+id, `{"endpointUrl":"http://127.0.0.1:9/calc"}`, http.StatusOK, nil)
		if err := r.Reload(ctx); err != nil {
			t.Fatal(err)
		}
		if got := breakers.State(id); got != upstream.BreakerClosed {
			t.Fatalf("breaker after the endpoint changed: %v, want closed", got)
		}
		release()
	})
}
