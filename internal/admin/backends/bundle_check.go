package backends

import (
	"slices"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/secret"
)

// CheckProfile validates a whole profile as the profile handlers do: its
// outbound URLs (endpointUrl, tokenUrl, healthCheckUrl when set), the
// parameters its auth type needs, its certificates, its backend
// protection (maxConcurrentRequests, maxRequestsPerSecond,
// queueTimeoutMs) and the shape of its wsSecurity. Errors are 400
// S2R-VAL-0400 naming the field. The bundle apply (internal/admin/bundle)
// checks the profiles of a bundle with it, and their WS-Security secrets
// with CheckProfileWSS once it knows the target's.
func CheckProfile(p model.BackendProfile) error {
	for _, u := range []struct{ field, v string }{{"endpointUrl", p.EndpointURL}, {"tokenUrl", p.TokenURL}, {"healthCheckUrl", p.HealthCheckURL}} {
		if u.v == "" {
			continue
		}
		if err := checkProfileURL(u.field, u.v); err != nil {
			return err
		}
	}
	if err := checkProfile(p, ""); err != nil {
		return err
	}
	return modelFieldError(p.WSSecurity.Validate())
}

// CheckProfileWSS validates the wsSecurity of p with its secrets as they
// will be stored, as the profile handlers do: a UsernameToken needs
// credentials.wssPassword, a signature a signing key matching its
// certificate. p's credentials are the final ones, sealed with box; the
// signing key is opened only to check it. A credential named in pending
// is one the caller will be given later (a bundle says it is set but the
// target lacks it: reported missing, not refused), so its check is left
// out. Errors are 400 S2R-VAL-0400 naming the field, never quoting a
// secret.
func CheckProfileWSS(box *secret.Box, p model.BackendProfile, pending []string) error {
	w := p.WSSecurity
	if w == nil {
		return nil
	}
	if err := w.Validate(); err != nil {
		return modelFieldError(err)
	}
	password := ""
	if p.Credentials.WSSPassword.IsSet() || slices.Contains(pending, model.CredWSSPassword) {
		password = "set" // only its presence matters here
	}
	if slices.Contains(pending, model.CredWSSSigningKeyPEM) {
		unsigned := *w
		unsigned.Signature = nil
		return modelFieldError(unsigned.ValidateCredentials(password, ""))
	}
	key, err := (&Handlers{secrets: box}).wssKeyForCheck(p, nil)
	if err != nil {
		return err
	}
	return modelFieldError(w.ValidateCredentials(password, key))
}
