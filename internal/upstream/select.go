package upstream

import (
	"context"
	"errors"
	"net"
	"sync"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/limit"
)

// Backend routing modes (SPEC 2.1 backendRoutingMode, 4.6).
const (
	RoutingSingle        = "single"
	RoutingActivePassive = "active_passive"
	RoutingRoundRobin    = "round_robin"
)

// Pool is what backend selection needs of one service: its backends in
// routingPriority order and the index of the preferred one.
type Pool struct {
	// ServiceID keys the round-robin state.
	ServiceID string
	// Mode is single, active_passive or round_robin; anything else is
	// single.
	Mode string
	// Backends are sorted by routingPriority, lowest first.
	Backends []*Backend
	// Preferred is the index of the single-mode backend
	// (defaultBackendProfileId, else the lowest routingPriority: 0).
	Preferred int
}

// Verdict is how one call attempt ended, as the caller judges it.
type Verdict struct {
	// Failure counts the attempt against the backend's circuit breaker
	// (see IsBackendFailure).
	Failure bool
	// Failover lets active_passive try the next backend. Callers set it
	// only when the backend cannot have acted on the request: the
	// connection failed before anything was sent (FailedBeforeSend), or,
	// for publish and consume, the backend answered 502, 503 or 504 (a
	// proxy in front of it said it is unavailable). A request that may
	// have been processed is never sent twice.
	Failover bool
}

// Selector chooses the backends of each call by the service's routing mode,
// skips unhealthy backends and those whose breaker is open, and reports
// every outcome to the breakers. The data plane handlers (publish, consume,
// gateway) all call Do; it is safe for concurrent use.
//
//   - single: only Pool.Preferred. Unhealthy → 503 S2R-RUN-0503, breaker
//     open → 503 S2R-RUN-0529; no failover.
//   - active_passive: the backends in priority order; the first attempt
//     whose Verdict does not ask for failover is the answer ("first
//     success": any response for the gateway; for publish and consume
//     anything but a connect failure or a 502/503/504).
//   - round_robin: one backend per call, chosen by smooth weighted round
//     robin over routingWeight among the healthy backends whose breaker is
//     not open (nginx's algorithm: deterministic, no bursts); no failover.
//
// Each attempt first takes a place in its backend's Limiter (admit.go):
// a backend over maxConcurrentRequests or maxRequestsPerSecond (after
// waiting up to queueTimeoutMs) is skipped like one whose breaker is open,
// and never called. When no backend may be tried, Do answers 503
// S2R-RUN-0509 with a Retry-After if some backend was at its limit, else
// 503 S2R-RUN-0529 if some backend was skipped for its open breaker, else
// 503 S2R-RUN-0503.
type Selector struct {
	Health   *Health
	Breakers *Breakers

	mu sync.Mutex
	rr map[string]*weighted
}

// NewSelector returns a selector over health (nil: all healthy) and
// breakers (nil: a fresh registry with the default thresholds).
func NewSelector(health *Health, breakers *Breakers) *Selector {
	if breakers == nil {
		breakers = NewBreakers(BreakerConfig{})
	}
	return &Selector{Health: health, Breakers: breakers, rr: map[string]*weighted{}}
}

// Do calls call for the backends chosen from p, in order, until an
// attempt's Verdict does not ask for failover (or the mode allows none).
// It returns the index of the last backend tried (-1 when none was) and
// the error of that attempt, or the 503 of SPEC 7.2 when none could be
// tried.
func (s *Selector) Do(ctx context.Context, p Pool, call func(ctx context.Context, i int) (Verdict, error)) (int, error) {
	if len(p.Backends) == 0 {
		return -1, apierr.New(apierr.RunUnavailable, "the service has no backend")
	}
	last, lastErr := -1, error(nil)
	sawOpen := false
	var refused *limit.Refusal
	for _, i := range s.order(p) {
		b := p.Backends[i]
		if !s.Health.Healthy(b.Profile.ProfileID) {
			continue
		}
		sl, err := admit(ctx, b)
		if err != nil {
			r, ok := limit.AsRefusal(err)
			if !ok {
				return last, err // the caller went away while waiting
			}
			refused = shorterRefusal(refused, r)
			continue
		}
		done, err := s.Breakers.allow(b.Profile.ProfileID, p.ServiceID)
		if err != nil {
			sl.end()
			sawOpen = true
			continue
		}
		actx := ctx
		if sl != nil {
			actx = sl
		}
		v, err := call(actx, i)
		done(v.Failure)
		sl.settle()
		last, lastErr = i, err
		if !v.Failover || p.Mode != RoutingActivePassive || ctx.Err() != nil {
			return i, err
		}
	}
	if last >= 0 {
		return last, lastErr
	}
	if refused != nil {
		return -1, refused.APIError() // 503 S2R-RUN-0509, the shortest Retry-After
	}
	if sawOpen {
		return -1, apierr.New(apierr.RunCircuitOpen, "the circuit breaker of every usable backend is open")
	}
	return -1, apierr.New(apierr.RunUnavailable, "no healthy backend")
}

// order returns the indexes of the backends to try, in order.
func (s *Selector) order(p Pool) []int {
	switch p.Mode {
	case RoutingActivePassive:
		out := make([]int, len(p.Backends))
		for i := range out {
			out[i] = i
		}
		return out
	case RoutingRoundRobin:
		if i := s.pick(p); i >= 0 {
			return []int{i}
		}
		// Nothing eligible: walk them all so Do tells open from unhealthy.
		out := make([]int, len(p.Backends))
		for i := range out {
			out[i] = i
		}
		return out
	}
	pref := p.Preferred
	if pref < 0 || pref >= len(p.Backends) {
		pref = 0
	}
	return []int{pref}
}

// weighted is the smooth weighted round-robin state of one service:
// the current weight of each profile.
type weighted struct {
	current map[string]int
}

// pick chooses the round-robin backend of p, or -1 when none is eligible.
func (s *Selector) pick(p Pool) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	w, ok := s.rr[p.ServiceID]
	if !ok {
		w = &weighted{current: map[string]int{}}
		s.rr[p.ServiceID] = w
	}
	best, total := -1, 0
	for i, b := range p.Backends {
		id := b.Profile.ProfileID
		if !s.Health.Healthy(id) || s.Breakers.State(id) == BreakerOpen {
			continue
		}
		weight := max(b.Profile.RoutingWeight, 1)
		total += weight
		w.current[id] += weight
		if best < 0 || w.current[id] > w.current[p.Backends[best].Profile.ProfileID] {
			best = i
		}
	}
	if best >= 0 {
		w.current[p.Backends[best].Profile.ProfileID] -= total
	}
	return best
}

// FailedBeforeSend reports whether err is a failure to connect: nothing
// of the request reached the backend, so another backend may be tried.
func FailedBeforeSend(err error) bool {
	if KindOf(err) != KindUnreachable && KindOf(err) != KindTimeout {
		return false
	}
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// Status returns the health state of the backend profileID of serviceID
// with its breaker state; a backend never checked is healthy and
// unchecked.
func (s *Selector) Status(serviceID, profileID string) BackendHealth {
	st := BackendHealth{ServiceID: serviceID, ProfileID: profileID, Healthy: true, Mode: HealthNone}
	if s.Health != nil {
		s.Health.mu.RLock()
		if h, ok := s.Health.m[profileID]; ok {
			st = *h
		}
		s.Health.mu.RUnlock()
	}
	st.Breaker = s.Breakers.State(profileID).String()
	return st
}
