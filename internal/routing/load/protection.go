package load

import (
	"fmt"

	"github.com/s2r-project/s2r/internal/limit"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/routing"
)

// limiter returns the Limiter of profile p from cfg.Limits (nil without a
// registry). Settings the admin would refuse make the service fail to
// compile rather than run unprotected.
func (c Config) limiter(p model.BackendProfile) (*limit.Limiter, error) {
	if c.Limits == nil {
		return nil, nil
	}
	s := limit.BackendSettings(p.Protection())
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("backend profile %s: %w", p.ProfileID, err)
	}
	return c.Limits.Ensure(p.ProfileID, s), nil
}

// onSwap is what the reloader runs on each table it swaps in, before
// cfg.OnSwap: the limiters take the table's protection settings (profiles
// no longer served are dropped), and every profile's endpoint is tracked
// so that one whose endpoint changed gets a fresh circuit breaker.
func (c Config) onSwap(t *routing.Table) {
	if c.Limits != nil {
		c.Limits.Sync(t.BackendSettings())
	}
	if c.Breakers != nil {
		for _, svc := range t.Services() {
			for _, b := range svc.Backends {
				c.Breakers.Track(b.ID(), b.Profile.EndpointURL)
			}
		}
	}
	if c.OnSwap != nil {
		c.OnSwap(t)
	}
}
