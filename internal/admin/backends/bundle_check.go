package backends

import "github.com/s2r-project/s2r/internal/model"

// CheckProfile validates a whole profile as the profile handlers do: its
// outbound URLs (endpointUrl, tokenUrl, healthCheckUrl when set), the
// parameters its auth type needs and its certificates. Errors are 400
// S2R-VAL-0400 naming the field. The bundle apply (internal/admin/bundle)
// checks the profiles of a bundle with it.
func CheckProfile(p model.BackendProfile) error {
	for _, u := range []struct{ field, v string }{{"endpointUrl", p.EndpointURL}, {"tokenUrl", p.TokenURL}, {"healthCheckUrl", p.HealthCheckURL}} {
		if u.v == "" {
			continue
		}
		if err := checkProfileURL(u.field, u.v); err != nil {
			return err
		}
	}
	return checkProfile(p, "")
}
