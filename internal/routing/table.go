// Package routing holds the runtime route table: the stored configuration
// of every active service compiled once into immutable values (contracts,
// conversion plans, JSON Schema and regex validators, transform programs,
// backends with their credentials opened) so that nothing on the request
// path reads the database, parses a WSDL or compiles a pattern. The
// global settings the request path reads (Settings) are compiled with
// it, from the same revision.
//
// A Table is a snapshot: it is never modified after NewTable, and a
// Reloader swaps whole tables atomically when the configuration revision
// changes. This package does no I/O and never imports the store; the
// compilation from stored rows lives in routing/load, so the data plane can
// depend on routing without reaching the database.
package routing

import (
	"sort"
	"time"

	"github.com/s2r-project/s2r/internal/model"
)

// Key identifies a runtime service: (direction, environment, serviceKey)
// (DESIGN 6.1).
type Key struct {
	Direction   string
	Environment string
	ServiceKey  string
}

// ServiceError records a service that was left out of a table because it
// did not compile; the rest of the table is served (docs/decisions-runtime.md).
type ServiceError struct {
	ServiceID string
	Key       Key
	Err       error
}

// Table is an immutable route table built at one configuration revision.
// Its methods are safe for concurrent use and do no I/O.
type Table struct {
	revision int64
	builtAt  time.Time
	services map[Key]*Service
	byID     map[string]*Service
	errors   []ServiceError
	settings Settings
	// replaced is closed by the Reloader when it swaps in the next table
	// (Settings.Replaced).
	replaced chan struct{}
}

// NewTable builds a table of services at revision rev. errs lists the
// services that were left out. When two services share a key (which the
// store forbids) the first one wins.
func NewTable(rev int64, services []*Service, errs []ServiceError) *Table {
	t := &Table{
		revision: rev,
		builtAt:  time.Now(),
		services: make(map[Key]*Service, len(services)),
		byID:     make(map[string]*Service, len(services)),
		errors:   errs,
		settings: defaultSettings,
		replaced: make(chan struct{}),
	}
	t.settings.replaced = t.replaced
	for _, s := range services {
		k := s.Key()
		if _, dup := t.services[k]; dup {
			continue
		}
		t.services[k] = s
		t.byID[s.ID] = s
	}
	return t
}

// defaultSettings is the snapshot of the default settings, which a table
// carries until WithSettings gives it the stored ones.
var defaultSettings = CompileSettings(model.DefaultSettings(), nil)

// DefaultSettings returns the snapshot of the default settings.
func DefaultSettings() Settings { return defaultSettings }

// WithSettings returns a copy of t that carries s; t is unchanged. The
// copy shares t's Replaced channel: it stands in for t.
func (t *Table) WithSettings(s Settings) *Table {
	c := *t
	c.settings = s
	c.settings.replaced = t.replaced
	return &c
}

// markReplaced closes t's Replaced channel, once. Only the Reloader
// calls it, under its load lock.
func (t *Table) markReplaced() {
	if t.replaced == nil {
		return
	}
	select {
	case <-t.replaced:
	default:
		close(t.replaced)
	}
}

// Settings returns the settings compiled with the table. A nil table has
// the default settings.
func (t *Table) Settings() Settings {
	if t == nil {
		return defaultSettings
	}
	return t.settings
}

// Revision returns the configuration revision the table was built from.
// A nil table has revision -1.
func (t *Table) Revision() int64 {
	if t == nil {
		return -1
	}
	return t.revision
}

// BuiltAt returns when the table was built.
func (t *Table) BuiltAt() time.Time {
	if t == nil {
		return time.Time{}
	}
	return t.builtAt
}

// Lookup returns the service for (direction, environment, serviceKey), or
// nil. A nil table has no services.
func (t *Table) Lookup(direction, environment, serviceKey string) *Service {
	if t == nil {
		return nil
	}
	return t.services[Key{Direction: direction, Environment: environment, ServiceKey: serviceKey}]
}

// ServiceByID returns the service with id, or nil.
func (t *Table) ServiceByID(id string) *Service {
	if t == nil {
		return nil
	}
	return t.byID[id]
}

// Services returns the services of the table ordered by key.
func (t *Table) Services() []*Service {
	if t == nil {
		return nil
	}
	out := make([]*Service, 0, len(t.services))
	for _, s := range t.services {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].Key(), out[j].Key()
		if a.Direction != b.Direction {
			return a.Direction < b.Direction
		}
		if a.Environment != b.Environment {
			return a.Environment < b.Environment
		}
		return a.ServiceKey < b.ServiceKey
	})
	return out
}

// Errors returns the services left out of the table because they did not
// compile.
func (t *Table) Errors() []ServiceError {
	if t == nil {
		return nil
	}
	return t.errors
}
