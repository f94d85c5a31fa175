package dataplane

import "github.com/s2r-project/s2r/internal/routing"

// RouteSource gives the current route table (routing.Reloader implements
// it). Table must be safe for concurrent use and must not do I/O; a nil
// table has no routes.
type RouteSource interface {
	Table() *routing.Table
}

// lookup returns the compiled service of (direction, environment,
// serviceKey) in the current table, or nil.
func (d *Dispatcher) lookup(dir Direction, environment, serviceKey string) *routing.Service {
	if d.cfg.Routes == nil {
		return nil
	}
	return d.cfg.Routes.Table().Lookup(string(dir), environment, serviceKey)
}
