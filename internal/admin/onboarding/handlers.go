// Package onboarding serves the admin routes that bring a WSDL in (SPEC
// 4.8, DESIGN 8): imports (upload, ZIP, URL through the guarded fetcher,
// pasted XML), autopilot and its batches, which draft a service, version,
// mappings and backend profile in one transaction, and the repair
// previews, report and package of a WSDL that does not import as it is.
// internal/admin lists the routes (Routes) in its one route table.
package onboarding

import (
	"log/slog"
	"time"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/contracts"
	"github.com/s2r-project/s2r/internal/store"
)

// Config holds what the onboarding handlers need.
type Config struct {
	Store  *store.Store
	Logger *slog.Logger // nil: slog.Default()
	// Contracts parses stored imports once; an import primes it.
	Contracts *contracts.Cache
	Now       func() time.Time // nil: adminapi.Now
}

// Handlers serves the onboarding routes.
type Handlers struct {
	store     *store.Store
	log       *slog.Logger
	contracts *contracts.Cache
	now       func() time.Time
}

// New returns the onboarding handlers of cfg.
func New(cfg Config) *Handlers {
	h := &Handlers{store: cfg.Store, log: cfg.Logger, contracts: cfg.Contracts, now: cfg.Now}
	if h.log == nil {
		h.log = slog.Default()
	}
	if h.now == nil {
		h.now = adminapi.Now
	}
	return h
}
