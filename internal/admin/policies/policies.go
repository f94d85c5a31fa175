// Package policies serves the runtime policies of a service that the
// admin API edits apart from its versions: the consumer IP grants of the
// gateway (DESIGN 6.9), the inbound WS-Security policy of consume and
// gateway services (DESIGN 10.2) and the rate limit per client (DESIGN
// 10.6). Each is compiled into the route table on the next reload;
// internal/admin lists Routes in its one route table.
package policies

import (
	"time"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/secret"
	"github.com/s2r-project/s2r/internal/store"
)

// Config holds what the policy handlers need.
type Config struct {
	Store   *store.Store
	Secrets *secret.Box // seals inbound WS-Security passwords; nil refuses new ones
	Now     func() time.Time
}

// Handlers serves the policy routes.
type Handlers struct {
	store   *store.Store
	secrets *secret.Box
	now     func() time.Time
}

// New returns the policy handlers of cfg.
func New(cfg Config) *Handlers {
	now := cfg.Now
	if now == nil {
		now = adminapi.Now
	}
	return &Handlers{store: cfg.Store, secrets: cfg.Secrets, now: now}
}

// Routes lists the policy routes for internal/admin's route table. Roles
// follow DESIGN 6.3: reader for GETs, operator for changes.
func (s *Handlers) Routes() []adminapi.Route {
	const (
		reader   = model.RoleReader
		operator = model.RoleOperator
	)
	return []adminapi.Route{
		{Method: "GET", Path: "/services/{serviceId}/consumer-grants", Role: reader, Handle: s.getConsumerGrants, Doc: docGetConsumerGrants},
		{Method: "PUT", Path: "/services/{serviceId}/consumer-grants", Role: operator, Handle: s.putConsumerGrants, Doc: docPutConsumerGrants,
			Audit: adminapi.OnFailure("consumer_grants.update", "service", "{serviceId}")},
		{Method: "GET", Path: "/services/{serviceId}/inbound-ws-security", Role: reader, Handle: s.getInboundWSS, Doc: docGetInboundWSS},
		{Method: "PUT", Path: "/services/{serviceId}/inbound-ws-security", Role: operator, Handle: s.putInboundWSS, Doc: docPutInboundWSS,
			Audit: adminapi.OnFailure("inbound_ws_security.update", "service", "{serviceId}")},
		{Method: "GET", Path: "/services/{serviceId}/rate-limits", Role: reader, Handle: s.getRateLimits, Doc: docGetRateLimits},
		{Method: "PUT", Path: "/services/{serviceId}/rate-limits", Role: operator, Handle: s.putRateLimits, Doc: docPutRateLimits,
			Audit: adminapi.OnFailure("rate_limits.update", "service", "{serviceId}")},
	}
}
