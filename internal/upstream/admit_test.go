package upstream_test

import (
	"context"
	"testing"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/limit"
	"github.com/s2r-project/s2r/internal/upstream"
)

func capped(p upstream.Pool, maxInFlight int64) upstream.Pool {
	for _, b := range p.Backends {
		b.Limiter = limit.NewLimiter(limit.BackendSettings{MaxConcurrentRequests: &maxInFlight}, nil)
	}
	return p
}

func ok(context.Context, int) (upstream.Verdict, error) { return upstream.Verdict{}, nil }

// TestSelectorAdmitsThroughLimiter: a backend at its cap is not called;
// single mode answers 503 S2R-RUN-0509 with retryAfterSeconds,
// active_passive moves on to the next backend, and a slot is released
// when the call returns unless the call kept it (KeepSlot).
func TestSelectorAdmitsThroughLimiter(t *testing.T) {
	s := upstream.NewSelector(nil, nil)
	ctx := context.Background()

	single := capped(pool(upstream.RoutingSingle, 1), 1)
	var release func()
	if _, err := s.Do(ctx, single, func(ctx context.Context, _ int) (upstream.Verdict, error) {
		release = upstream.KeepSlot(ctx)
		return upstream.Verdict{}, nil
	}); err != nil {
		t.Fatal(err)
	}
	if got := single.Backends[0].Limiter.Snapshot().InFlight; got != 1 {
		t.Fatalf("in flight after a kept slot = %d, want 1", got)
	}
	called := false
	i, err := s.Do(ctx, single, func(context.Context, int) (upstream.Verdict, error) { called = true; return upstream.Verdict{}, nil })
	e, isAPI := apierr.As(err)
	if called || i != -1 || !isAPI || e.Code != apierr.RunBackendSaturated || e.Details["retryAfterSeconds"] != int64(1) {
		t.Fatalf("over the cap: called=%v i=%d err=%v details=%v; want no call, -1, S2R-RUN-0509 retryAfterSeconds 1", called, i, err, e)
	}
	release()
	release() // harmless
	if got := single.Backends[0].Limiter.Snapshot().InFlight; got != 0 {
		t.Fatalf("in flight after release = %d, want 0", got)
	}
	if _, err := s.Do(ctx, single, ok); err != nil {
		t.Fatalf("after release: %v", err)
	}
	if got := single.Backends[0].Limiter.Snapshot().InFlight; got != 0 {
		t.Fatalf("in flight after a call that kept nothing = %d, want 0", got)
	}

	ap := capped(pool(upstream.RoutingActivePassive, 1, 1), 1)
	hold, _, err := ap.Backends[0].Limiter.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer hold()
	i, err = s.Do(ctx, ap, ok)
	if err != nil || i != 1 {
		t.Fatalf("active_passive with the primary saturated: i=%d err=%v, want the secondary", i, err)
	}
	if got := ap.Backends[0].Limiter.Snapshot().RefusedConcurrency; got != 1 {
		t.Errorf("primary refusals = %d, want 1", got)
	}
}
