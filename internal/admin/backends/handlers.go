// Package backends serves the admin routes of backend profiles and what
// exercises them (SPEC 4.8): profile CRUD with encrypted credentials,
// connection, application, generated-sample and REST tests with their
// stored previews, test datasets and synthetic monitors. internal/admin
// lists the routes (Routes) in its one route table.
package backends

import (
	"time"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/contracts"
	"github.com/s2r-project/s2r/internal/secret"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/upstream"
)

// Config holds what the backend handlers need.
type Config struct {
	Store   *store.Store
	Secrets *secret.Box // encrypts profile credentials
	// Client makes the outbound calls of backend tests (the runtime's,
	// whose connections follow the backend policy); nil uses a client of
	// the package's own.
	Client *upstream.Client
	// Contracts parses stored WSDL imports once (a test's operation contract).
	Contracts *contracts.Cache
	Now       func() time.Time // nil: adminapi.Now
}

// Handlers serves the backend routes.
type Handlers struct {
	store     *store.Store
	secrets   *secret.Box
	client    *upstream.Client
	contracts *contracts.Cache
	now       func() time.Time
}

// New returns the backend handlers of cfg.
func New(cfg Config) *Handlers {
	h := &Handlers{store: cfg.Store, secrets: cfg.Secrets, client: cfg.Client, contracts: cfg.Contracts, now: cfg.Now}
	if h.client == nil {
		h.client = defaultBackendClient
	}
	if h.now == nil {
		h.now = adminapi.Now
	}
	return h
}
