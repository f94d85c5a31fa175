package dataplane

// RouteKey identifies a runtime service (DESIGN 6.1).
type RouteKey struct {
	Direction   Direction
	Environment string
	ServiceKey  string
}

// Route is the compiled, immutable runtime configuration of one service.
// It is filled in by the route table work; the dispatcher only needs to
// know whether one exists.
type Route struct {
	Key RouteKey
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
