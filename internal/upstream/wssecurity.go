package upstream

import (
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/secret"
	"github.com/s2r-project/s2r/internal/wssec"
)

// openWSSecurity opens the WS-Security secrets of p into b and compiles
// its signer (DESIGN 10.1), once per profile load: the request path only
// calls Sign. A profile without wsSecurity gets no signer.
func openWSSecurity(box *secret.Box, b *Backend) error {
	p := b.Profile
	if p.WSSecurity == nil {
		return nil
	}
	var password, key string
	for _, f := range []struct {
		name string
		dst  *string
	}{{model.CredWSSPassword, &password}, {model.CredWSSSigningKeyPEM, &key}} {
		c := p.Credentials.Field(f.name)
		if !c.IsSet() {
			continue
		}
		if box == nil {
			return authError("credential %s: no secret key configured", f.name)
		}
		plain, err := box.Open(c.Sealed(), model.CredentialAAD(p.ProfileID, f.name))
		if err != nil {
			return authError("credential %s: %w", f.name, err)
		}
		*f.dst = string(plain)
	}
	s, err := wssec.NewSigner(p.WSSecurity, password, key)
	if err != nil {
		return authError("wsSecurity: %w", err) // a FieldError names the field, never the secret
	}
	b.Signer = s
	return nil
}

// secureEnvelope applies the backend's WS-Security to a SOAP envelope: a
// fresh wsse:Security header (nonce, created time, timestamp, signature)
// on every call. A backend whose wsSecurity did not compile sends
// nothing: the call fails as an auth configuration error.
func (b Backend) secureEnvelope(envelope []byte) ([]byte, error) {
	if b.Profile.WSSecurity == nil {
		return envelope, nil
	}
	if b.Signer == nil {
		return nil, authError("wsSecurity is configured but could not be prepared (missing or invalid credentials)")
	}
	out, err := b.Signer.Sign(envelope)
	if err != nil {
		return nil, authError("wsSecurity: %w", err)
	}
	return out, nil
}
