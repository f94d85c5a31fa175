package access

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/s2r-project/s2r/internal/model"
)

// BindingSource lists the stored bindings. *store.Store implements it.
type BindingSource interface {
	// RoleBindings returns every group role binding.
	RoleBindings(ctx context.Context) ([]model.RoleBinding, error)
	// PermissionBindings returns every direct permission binding.
	PermissionBindings(ctx context.Context) ([]model.PermissionBinding, error)
}

// DefaultCacheTTL bounds how long another instance's binding change can go
// unnoticed.
const DefaultCacheTTL = 5 * time.Second

// Resolver maps identities to callers. Bindings are cached in memory as an
// immutable snapshot: a snapshot is used until it is older than the TTL or
// until Invalidate is called (the admin API calls it after committing a
// binding change, so the instance that made a change sees it at once; other
// instances see it within the TTL). It is safe for concurrent use.
type Resolver struct {
	src       BindingSource
	bootstrap map[string]bool
	dev       string // S2R_DEV_IDENTITY (devidentity.go); "" when off
	ttl       time.Duration
	now       func() time.Time

	gen     atomic.Uint64 // bumped by Invalidate
	snap    atomic.Pointer[snapshot]
	refresh sync.Mutex // one reload at a time
}

// snapshot is the bindings as loaded at one moment, indexed for lookup.
type snapshot struct {
	gen     uint64
	loaded  time.Time
	byEmail map[string][]model.PermissionBinding
	byGroup map[string][]model.RoleBinding
}

// NewResolver returns a Resolver reading bindings from src. bootstrap lists
// the e-mails that are always admin (S2R_BOOTSTRAP_ADMINS). ttl <= 0 means
// DefaultCacheTTL.
func NewResolver(src BindingSource, bootstrap []string, ttl time.Duration) *Resolver {
	if ttl <= 0 {
		ttl = DefaultCacheTTL
	}
	r := &Resolver{src: src, bootstrap: map[string]bool{}, ttl: ttl, now: time.Now}
	for _, e := range bootstrap {
		if e = NormalizeEmail(e); e != "" {
			r.bootstrap[e] = true
		}
	}
	return r
}

// Invalidate drops the cached bindings; the next Resolve reloads them.
func (r *Resolver) Invalidate() { r.gen.Add(1) }

// Resolve returns the caller for id: its highest role over every source and
// the tenant of the source that granted it. A caller without any role has
// Role "". The error is a failure to load bindings.
func (r *Resolver) Resolve(ctx context.Context, id Identity) (Caller, error) {
	snap, err := r.current(ctx)
	if err != nil {
		return Caller{}, err
	}
	var sources []RoleSource
	for _, b := range snap.byEmail[id.Email] {
		sources = append(sources, RoleSource{Kind: SourcePermissionBinding, Role: b.Role, TenantID: b.TenantID, BindingID: b.BindingID})
	}
	for _, g := range id.Groups {
		for _, b := range snap.byGroup[g] {
			sources = append(sources, RoleSource{Kind: SourceRoleBinding, Role: b.Role, TenantID: b.TenantID, Group: g})
		}
	}
	if r.bootstrap[id.Email] {
		sources = append(sources, RoleSource{Kind: SourceBootstrap, Role: model.RoleAdmin, TenantID: model.DefaultTenant})
	}
	c := Caller{Email: id.Email, Groups: id.Groups, Sources: sources}
	if c.Groups == nil {
		c.Groups = []string{}
	}
	if c.Sources == nil {
		c.Sources = []RoleSource{}
	}
	if win, ok := winner(sources); ok {
		c.Role, c.TenantID = win.Role, win.TenantID
	}
	return c, nil
}

// winner picks the source of the caller's role: the highest rank; at equal
// rank the first in source order (permission bindings, then group bindings
// in header order, then the bootstrap list).
func winner(sources []RoleSource) (RoleSource, bool) {
	best := -1
	for i, s := range sources {
		if s.Role.Valid() && (best < 0 || s.Role.Rank() > sources[best].Role.Rank()) {
			best = i
		}
	}
	if best < 0 {
		return RoleSource{}, false
	}
	return sources[best], true
}

// current returns a fresh snapshot, reloading it when stale or invalidated.
func (r *Resolver) current(ctx context.Context) (*snapshot, error) {
	if s := r.snap.Load(); r.fresh(s) {
		return s, nil
	}
	r.refresh.Lock()
	defer r.refresh.Unlock()
	if s := r.snap.Load(); r.fresh(s) {
		return s, nil
	}
	gen := r.gen.Load()
	s, err := r.load(ctx)
	if err != nil {
		return nil, err
	}
	s.gen = gen
	r.snap.Store(s)
	return s, nil
}

func (r *Resolver) fresh(s *snapshot) bool {
	return s != nil && s.gen == r.gen.Load() && r.now().Sub(s.loaded) < r.ttl
}

// load reads every binding into a new snapshot.
func (r *Resolver) load(ctx context.Context) (*snapshot, error) {
	loaded := r.now()
	perms, err := r.src.PermissionBindings(ctx)
	if err != nil {
		return nil, fmt.Errorf("access: load permission bindings: %w", err)
	}
	roles, err := r.src.RoleBindings(ctx)
	if err != nil {
		return nil, fmt.Errorf("access: load role bindings: %w", err)
	}
	s := &snapshot{loaded: loaded, byEmail: map[string][]model.PermissionBinding{}, byGroup: map[string][]model.RoleBinding{}}
	for _, b := range perms {
		e := NormalizeEmail(b.Email)
		s.byEmail[e] = append(s.byEmail[e], b)
	}
	for _, b := range roles {
		s.byGroup[b.Group] = append(s.byGroup[b.Group], b)
	}
	for _, list := range s.byGroup {
		slices.SortStableFunc(list, func(a, b model.RoleBinding) int { return cmp.Compare(b.Role.Rank(), a.Role.Rank()) })
	}
	return s, nil
}
