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

// Report records the outcome of one check of t at at.
func (h *Health) Report(t HealthTarget, at time.Time, err error) {
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
		return
	}
	s.LastError = ""
	s.ConsecutiveOK++
	s.ConsecutiveFailures = 0
	if s.ConsecutiveOK >= HealthyAfter {
		s.Healthy = true
	}
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

	mu   sync.Mutex
	next map[string]time.Time
	busy map[string]bool
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
		c.CheckDue(ctx, time.Now())
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// CheckDue starts the checks that are due at now and returns without
// waiting for them.
func (c *Checker) CheckDue(ctx context.Context, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.next == nil {
		c.next, c.busy = map[string]time.Time{}, map[string]bool{}
	}
	ids := map[string]bool{}
	for _, t := range c.Targets() {
		if t.Backend == nil || t.Mode == "" || t.Mode == HealthNone {
			continue
		}
		id := t.Backend.Profile.ProfileID
		ids[id] = true
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
	c.Health.keep(ids)
	for id := range c.next {
		if !ids[id] {
			delete(c.next, id)
		}
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
		wasHealthy := c.Health.Healthy(t.Backend.Profile.ProfileID)
		c.Health.Report(t, time.Now(), err)
		if now := c.Health.Healthy(t.Backend.Profile.ProfileID); now != wasHealthy && c.Logger != nil {
			c.Logger.Warn("backend health changed", "service", t.ServiceKey, "profile", t.Backend.Profile.ProfileID,
				"healthy", now, "mode", t.Mode, "error", errText(err))
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
