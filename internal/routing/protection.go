package routing

import (
	"fmt"

	"github.com/s2r-project/s2r/internal/limit"
	"github.com/s2r-project/s2r/internal/model"
)

// compileRateLimit compiles a service's client rate limit (nil: none)
// into the policy its requests are counted under, scoped by the service
// id so services sharing a limit.Clients table keep their clients apart.
func compileRateLimit(l *model.ClientRateLimit, serviceID string) (*limit.Policy, error) {
	if l == nil {
		return nil, nil
	}
	p, err := limit.ClientSettings(*l).Compile(serviceID)
	if err != nil {
		return nil, fmt.Errorf("rate limit: %w", err)
	}
	return p, nil
}

// BackendSettings returns the protection settings of every backend
// profile of t by profile id, for limit.Registry.Sync.
func (t *Table) BackendSettings() map[string]limit.BackendSettings {
	out := map[string]limit.BackendSettings{}
	if t == nil {
		return out
	}
	for _, svc := range t.byID {
		for _, b := range svc.Backends {
			out[b.ID()] = limit.BackendSettings(b.Profile.Protection())
		}
	}
	return out
}

// ProfileServices returns the service id of every backend profile of t by
// profile id, for the protection metrics' labels.
func (t *Table) ProfileServices() map[string]string {
	out := map[string]string{}
	if t == nil {
		return out
	}
	for _, svc := range t.byID {
		for _, b := range svc.Backends {
			out[b.ID()] = svc.ID
		}
	}
	return out
}
