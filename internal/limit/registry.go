package limit

import (
	"maps"
	"sync"
	"sync/atomic"
)

// Registry holds the Limiter of each backend profile, keyed by profile id.
// Reads are lock-free (a copy-on-write map); profile changes are rare.
type Registry struct {
	clock Clock
	mu    sync.Mutex // serialises writers
	m     atomic.Pointer[map[string]*Limiter]
}

// NewRegistry returns an empty Registry whose limiters read clock (nil:
// the system clock).
func NewRegistry(clock Clock) *Registry {
	r := &Registry{clock: clock}
	r.m.Store(&map[string]*Limiter{})
	return r
}

// Get returns the Limiter of profile id, or nil when it has none.
func (r *Registry) Get(id string) *Limiter {
	return (*r.m.Load())[id]
}

// Set gives profile id the settings s (which must be valid) and returns
// its Limiter. An existing Limiter is reconfigured in place, so the calls
// it has in flight stay counted against the new caps.
func (r *Registry) Set(id string, s BackendSettings) *Limiter {
	r.mu.Lock()
	defer r.mu.Unlock()
	if l := r.Get(id); l != nil {
		l.Configure(s)
		return l
	}
	l := NewLimiter(s, r.clock)
	next := maps.Clone(*r.m.Load())
	next[id] = l
	r.m.Store(&next)
	return l
}

// Ensure returns the Limiter of profile id, created with the settings s
// (which must be valid) when it has none. An existing Limiter keeps its
// settings until Set or Sync: a route table being built gets its
// limiters before it is served, and their settings change when it is.
func (r *Registry) Ensure(id string, s BackendSettings) *Limiter {
	if l := r.Get(id); l != nil {
		return l
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if l := r.Get(id); l != nil {
		return l
	}
	l := NewLimiter(s, r.clock)
	next := maps.Clone(*r.m.Load())
	next[id] = l
	r.m.Store(&next)
	return l
}

// Sync makes the registry hold exactly the profiles of all: each is Set,
// and profiles not in all are dropped (their calls in flight finish on the
// dropped Limiter).
func (r *Registry) Sync(all map[string]BackendSettings) {
	for id, s := range all {
		r.Set(id, s)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	next := maps.Clone(*r.m.Load())
	maps.DeleteFunc(next, func(id string, _ *Limiter) bool {
		_, keep := all[id]
		return !keep
	})
	r.m.Store(&next)
}

// Snapshots returns the counts of every profile's Limiter by profile id.
func (r *Registry) Snapshots() map[string]Snapshot {
	cur := *r.m.Load()
	out := make(map[string]Snapshot, len(cur))
	for id, l := range cur {
		out[id] = l.Snapshot()
	}
	return out
}
