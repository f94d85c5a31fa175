package dataplane

import (
	"context"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/upstream"
)

// Backends sends one call of a service to its backends by the service's
// routing mode (SPEC 4.6): it picks the backend (single, active_passive,
// round_robin, health and circuit breaker) and returns the answer with the
// backend that gave it. Failures are *upstream.Error or *apierr.Error
// (503 S2R-RUN-0503 when no backend is usable, 503 S2R-RUN-0529 when the
// breaker is open). The chosen backend is returned even on failure when
// one was tried, for the transaction record.
type Backends interface {
	Do(ctx context.Context, svc *routing.Service, req upstream.Request) (*upstream.Response, *routing.Backend, error)
}

// DefaultBackend is the Backends used until a selector is wired: every
// call goes to the service's default backend (defaultBackendProfileId,
// else the lowest routingPriority).
type DefaultBackend struct {
	Client *upstream.Client
}

// Do implements Backends.
func (d DefaultBackend) Do(ctx context.Context, svc *routing.Service, req upstream.Request) (*upstream.Response, *routing.Backend, error) {
	b := svc.DefaultBackend
	if b == nil {
		return nil, nil, apierr.Newf(apierr.RunUnavailable, "service %q has no backend", svc.ServiceKey)
	}
	resp, err := d.Client.Do(ctx, b.Backend, req)
	return resp, b, err
}
