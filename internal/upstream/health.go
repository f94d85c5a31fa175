package upstream

import (
	"context"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"time"

	"github.com/s2r-project/s2r/internal/fetch"
)

// Health check modes (SPEC 2.1 backendHealthCheckMode).
const (
	HealthNone      = "none"
	HealthPing      = "ping"
	HealthTCP       = "tcp"
	HealthWSDLFetch = "wsdl_fetch"
)

// Health thresholds: a backend turns unhealthy after UnhealthyAfter failed
// checks in a row and healthy again after HealthyAfter successful one. A
// backend never checked yet is healthy. DefaultHealthInterval is used when
// a service sets no backendHealthCheckIntervalSec; a check never runs longer
// than MaxCheckTimeout (nor longer than its interval).
const (
	UnhealthyAfter        = 2
	HealthyAfter          = 1
	DefaultHealthInterval = 30 * time.Second
	MaxCheckTimeout       = 5 * time.Second
)

// HealthTarget is one backend to check, as the route table describes it.
type HealthTarget struct {
	ServiceID  string
	ServiceKey string
	Mode       string
	Interval   time.Duration
	Backend    *Backend
	// Namespace and Operations, when set, make wsdl_fetch check that the
	// fetched WSDL still declares this targetNamespace and these operation
	// names.
	Namespace  string
	Operations []string
}

// BackendHealth is the health state of one backend profile.
type BackendHealth struct {
	ServiceID           string     `json:"serviceId"`
	ServiceKey          string     `json:"serviceKey"`
	ProfileID           string     `json:"profileId"`
	ProfileName         string     `json:"profileName"`
	Mode                string     `json:"mode"`
	Healthy             bool       `json:"healthy"`
	Checked             bool       `json:"checked"`
	LastCheckAt         *time.Time `json:"lastCheckAt"` // nil before the first check
	LastError           string     `json:"lastError"`
	ConsecutiveFailures int        `json:"consecutiveFailures"`
	ConsecutiveOK       int        `json:"consecutiveSuccesses"`
	Breaker             string     `json:"breaker"`
}

// Health holds the health state of every checked backend, keyed by profile
// id. It is safe for concurrent use; Healthy is cheap enough for the
// request path (one mutex-guarded map read).
type Health struct {
	mu sync.RWMutex
	m  map[string]*BackendHealth
}

// NewHealth returns an empty state: every backend is healthy.
func NewHealth() *Health { return &Health{m: map[string]*BackendHealth{}} }

// Healthy reports whether profileID may receive traffic: true unless its
// checks made it unhealthy.
func (h *Health) Healthy(profileID string) bool {
	if h == nil {
		return true
	}
	h.mu.RLock()
	defer h.mu.RUnlock()
	s, ok := h.m[profileID]
	return !ok || s.Healthy
}

// Service returns the states of the backends of serviceID, ordered by
// profile id.
func (h *Health) Service(serviceID string) []BackendHealth {
	h.mu.RLock()
	defer h.mu.RUnlock()
	var out []BackendHealth
	for _, s := range h.m {
		if s.ServiceID == serviceID {
			out = append(out, *s)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ProfileID < out[j].ProfileID })
	return out
}

// All returns every state, ordered by service then profile id.
func (h *Health) All() []BackendHealth {
	h.mu.RLock()
	defer h.mu.RUnlock()
	out := make([]BackendHealth, 0, len(h.m))
	for _, s := range h.m {
		out = append(out, *s)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].ServiceID != out[j].ServiceID {
			return out[i].ServiceID < out[j].ServiceID
		}
		return out[i].ProfileID < out[j].ProfileID
	})
	return out
}

// Report records the outcome of one check of t at at and returns the
// backend's new state.
func (h *Health) Report(t HealthTarget, at time.Time, err error) BackendHealth {
	id := t.Backend.Profile.ProfileID
	h.mu.Lock()
	defer h.mu.Unlock()
	s, ok := h.m[id]
	if !ok {
		s = &BackendHealth{Healthy: true}
		h.m[id] = s
	}
	s.ServiceID, s.ServiceKey, s.ProfileID, s.ProfileName, s.Mode = t.ServiceID, t.ServiceKey, id, t.Backend.Profile.Name, t.Mode
	s.Checked, s.LastCheckAt = true, &at
	if err != nil {
		s.LastError = err.Error()
		s.ConsecutiveFailures++
		s.ConsecutiveOK = 0
		if s.ConsecutiveFailures >= UnhealthyAfter {
			s.Healthy = false
		}
		return *s
	}
	s.LastError = ""
	s.ConsecutiveOK++
	s.ConsecutiveFailures = 0
	if s.ConsecutiveOK >= HealthyAfter {
		s.Healthy = true
	}
	return *s
}

// Apply sets the state of one backend as another instance checked it
// (Checker.Share there). The breaker state is this instance's own and is
// not taken.
func (h *Health) Apply(st BackendHealth) {
	if st.ProfileID == "" || st.LastCheckAt == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	at := *st.LastCheckAt
	st.LastCheckAt, st.Breaker = &at, ""
	h.m[st.ProfileID] = &st
}

// keep drops the states of profiles not in ids (removed backends, or
// services whose mode became none).
func (h *Health) keep(ids map[string]bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for id := range h.m {
		if !ids[id] {
			delete(h.m, id)
		}
	}
}

// Checker runs the health checks of the current route table.
//
// With several instances on one database, one of them checks and the
// others take its results: Exclusive runs a round only on the instance
// leading the health check job, Share publishes each result, and the
// other instances feed what they receive to Health.Apply. When Exclusive
// fails (the database is unreachable) every instance checks on its own
// until it answers again, so routing never runs on a frozen view.
type Checker struct {
	Health *Health
	// Targets returns the backends to check now (from the current route
	// table); it must not block.
	Targets func() []HealthTarget
	// Fetcher returns the fetcher of wsdl_fetch checks, with the current
	// outbound policy (settings outbound_allowed_cidrs and
	// outbound_denied_cidrs); nil fails every wsdl_fetch check.
	Fetcher func() *fetch.Fetcher
	// Policy returns the backend policy tcp and ping checks connect under
	// (Probes.Policy); nil checks no address.
	Policy func() fetch.Policy
	Logger *slog.Logger
	// Tick is how often due checks are looked for; default 1s.
	Tick time.Duration
	// Exclusive, when set, runs fn only if this instance is the one that
	// checks (store.TryExclusive of the health check job); it reports
	// whether fn ran. Nil: this instance checks alone.
	Exclusive func(ctx context.Context, fn func(ctx context.Context) error) (bool, error)
	// Share, when set, receives every result this instance produces, to
	// publish to the other instances.
	Share func(BackendHealth)

	mu       sync.Mutex
	next     map[string]time.Time
	busy     map[string]bool
	degraded bool // Exclusive failed: checking alone
}

// Run checks every due backend each Tick until ctx ends. Checks run
// concurrently, one at a time per backend.
func (c *Checker) Run(ctx context.Context) error {
	tick := c.Tick
	if tick <= 0 {
		tick = time.Second
	}
	t := time.NewTicker(tick)
	defer t.Stop()
	for {
		c.Round(ctx, time.Now())
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// Round forgets the states of backends no longer in the route table, then
// starts the checks due at now if this instance is the one that checks
// (Exclusive), or checks alone when Exclusive cannot tell.
func (c *Checker) Round(ctx context.Context, now time.Time) {
	targets := c.Targets()
	c.forget(targets)
	if c.Exclusive == nil {
		c.CheckDue(ctx, targets, now)
		return
	}
	ran, err := c.Exclusive(ctx, func(ctx context.Context) error {
		c.CheckDue(ctx, targets, now)
		return nil
	})
	switch {
	case err != nil:
		c.setDegraded(true, err)
		c.CheckDue(ctx, targets, now)
	case !ran:
		// Another instance checks: when this one leads again, every
		// backend is due at once.
		c.setDegraded(false, nil)
		c.mu.Lock()
		clear(c.next)
		c.mu.Unlock()
	default:
		c.setDegraded(false, nil)
	}
}

func (c *Checker) setDegraded(on bool, err error) {
	c.mu.Lock()
	changed := c.degraded != on
	c.degraded = on
	c.mu.Unlock()
	if changed && c.Logger != nil {
		if on {
			c.Logger.Warn("backend health: the job lock is unavailable; this instance checks on its own", "error", errText(err))
		} else {
			c.Logger.Info("backend health: the job lock is available again")
		}
	}
}

// forget drops the states and schedules of backends not in targets
// (removed backends, or services whose mode became none).
func (c *Checker) forget(targets []HealthTarget) {
	ids := map[string]bool{}
	for _, t := range targets {
		if t.Backend != nil && t.Mode != "" && t.Mode != HealthNone {
			ids[t.Backend.Profile.ProfileID] = true
		}
	}
	c.Health.keep(ids)
	c.mu.Lock()
	defer c.mu.Unlock()
	for id := range c.next {
		if !ids[id] {
			delete(c.next, id)
		}
	}
}

// CheckDue starts the checks of targets that are due at now and returns
// without waiting for them.
func (c *Checker) CheckDue(ctx context.Context, targets []HealthTarget, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.next == nil {
		c.next, c.busy = map[string]time.Time{}, map[string]bool{}
	}
	for _, t := range targets {
		if t.Backend == nil || t.Mode == "" || t.Mode == HealthNone {
			continue
		}
		id := t.Backend.Profile.ProfileID
		if c.busy[id] || now.Before(c.next[id]) {
			continue
		}
		iv := t.Interval
		if iv <= 0 {
			iv = DefaultHealthInterval
		}
		c.next[id], c.busy[id] = now.Add(iv), true
		go c.checkOne(ctx, t, iv)
	}
}

func (c *Checker) checkOne(ctx context.Context, t HealthTarget, interval time.Duration) {
	timeout := min(interval, MaxCheckTimeout)
	cctx, cancel := context.WithTimeout(ctx, timeout)
	var pr Probes
	if c.Fetcher != nil {
		pr.Fetcher = c.Fetcher()
	}
	if c.Policy != nil {
		p := c.Policy()
		pr.Policy = &p
	}
	err := Check(cctx, pr, t)
	cancel()
	if ctx.Err() == nil {
		id := t.Backend.Profile.ProfileID
		wasHealthy := c.Health.Healthy(id)
		state := c.Health.Report(t, time.Now(), err)
		if now := state.Healthy; now != wasHealthy && c.Logger != nil {
			c.Logger.Warn("backend health changed", "service", t.ServiceKey, "profile", id,
				"healthy", now, "mode", t.Mode, "error", errText(err))
		}
		if c.Share != nil {
			c.Share(state)
		}
	}
	c.mu.Lock()
	delete(c.busy, t.Backend.Profile.ProfileID)
	c.mu.Unlock()
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// Probes is what health checks reach backends with.
type Probes struct {
	// Fetcher fetches the WSDL of wsdl_fetch checks, with the outbound
	// policy; nil fails every wsdl_fetch check.
	Fetcher *fetch.Fetcher
	// Policy, when set, is checked before a tcp or ping probe connects:
	// the backend policy (fetch.Policy.ForBackends), as for the calls the
	// runtime makes to the same endpoint.
	Policy *fetch.Policy
}

// Check runs one check of t by its mode; nil means healthy.
func Check(ctx context.Context, pr Probes, t HealthTarget) error {
	switch t.Mode {
	case HealthNone, "":
		return nil
	case HealthTCP:
		return checkTCP(ctx, pr.Policy, t.Backend.Profile.EndpointURL)
	case HealthPing:
		return checkPing(ctx, pr.Policy, t.Backend.Profile.EndpointURL)
	case HealthWSDLFetch:
		return checkWSDL(ctx, pr.Fetcher, t)
	}
	return fmt.Errorf("unknown health check mode %q", t.Mode)
}
