package dataplane

import "github.com/s2r-project/s2r/internal/routing"

// RouteKey identifies a runtime service (DESIGN 6.1).
type RouteKey struct {
	Direction   Direction
	Environment string
	ServiceKey  string
}

// Route is the compiled, immutable runtime configuration of one service.
// Service is nil only for test routes that exist without a configuration.
type Route struct {
	Key     RouteKey
	Service *routing.Service
}

// Routes looks up compiled routes. Implementations are immutable snapshots
// swapped atomically on reload; Lookup must be safe for concurrent use and
// must not do I/O.
type Routes interface {
	// Lookup returns the route for key, or false when there is none.
	Lookup(key RouteKey) (*Route, bool)
}

// NoRoutes is the empty route table: every lookup is not found.
type NoRoutes struct{}

// Lookup implements Routes.
func (NoRoutes) Lookup(RouteKey) (*Route, bool) { return nil, false }

// RouteSource gives the current route table (routing.Reloader implements
// it). Table must not do I/O.
type RouteSource interface {
	Table() *routing.Table
}

// TableRoutes looks routes up in the current table of a RouteSource.
type TableRoutes struct {
	Source RouteSource
}

// Lookup implements Routes.
func (t TableRoutes) Lookup(k RouteKey) (*Route, bool) {
	s := t.Source.Table().Lookup(string(k.Direction), k.Environment, k.ServiceKey)
	if s == nil {
		return nil, false
	}
	return &Route{Key: k, Service: s}, true
}
