package backends

import (
	"errors"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
)

// The SOAP message security members of a backend profile (DESIGN 10.1,
// 10.3): wsSecurity (an object, or null for none) and wsAddressing. Their
// secrets arrive in credentials.wssPassword and
// credentials.wssSigningKeyPem and are sealed like the other credentials.

// applyWSSecurity decodes the wsSecurity member strictly; null removes it.
func applyWSSecurity(p *model.BackendProfile, v jsontext.Value) error {
	if v.Kind() == 'n' {
		p.WSSecurity = nil
		return nil
	}
	if v.Kind() != '{' {
		return adminapi.FieldError("wsSecurity", "must be an object or null")
	}
	var w model.WSSecurity
	if err := json.Unmarshal(v, &w, json.RejectUnknownMembers(true)); err != nil {
		return prefixField("wsSecurity", adminapi.DecodeError(err))
	}
	p.WSSecurity = &w
	return nil
}

// applyWSAddressing sets wsAddressing.
func applyWSAddressing(p *model.BackendProfile, v jsontext.Value) error {
	if v.Kind() != 't' && v.Kind() != 'f' {
		return adminapi.FieldError("wsAddressing", "must be a boolean")
	}
	p.WSAddressing = v.Kind() == 't'
	return nil
}

// prefixField renames the field of a decode error of a nested member.
func prefixField(prefix string, err error) error {
	e, ok := apierr.As(err)
	if !ok {
		return err
	}
	reason, _ := e.Details["reason"].(string)
	field, _ := e.Details["field"].(string)
	if field != "" {
		field = prefix + "." + field
	} else {
		field = prefix
	}
	return adminapi.FieldError(field, reason)
}

// checkWSSecurity validates the profile's WS-Security configuration with
// its secrets as they will be after the change: a UsernameToken needs
// credentials.wssPassword, a signature a signing key matching its
// certificate. The key is the new one when the request sets it, else the
// stored one, opened only to check it. Errors are 400 S2R-VAL-0400 naming
// the field and never quote a secret.
func (s *Handlers) checkWSSecurity(p model.BackendProfile, changes map[string]adminapi.CredentialChange) error {
	w := p.WSSecurity
	if w == nil {
		return nil
	}
	if err := w.Validate(); err != nil {
		return modelFieldError(err)
	}
	password := ""
	if c, ok := changes[model.CredWSSPassword]; ok {
		password = c.Value
	} else if p.Credentials.WSSPassword.IsSet() {
		password = "stored" // only its presence matters here
	}
	key, err := s.wssKeyForCheck(p, changes)
	if err != nil {
		return err
	}
	return modelFieldError(w.ValidateCredentials(password, key))
}

// wssKeyForCheck returns the signing key the profile will have: the one
// the request sets, else the stored one, "" when there is none.
func (s *Handlers) wssKeyForCheck(p model.BackendProfile, changes map[string]adminapi.CredentialChange) (string, error) {
	if c, ok := changes[model.CredWSSSigningKeyPEM]; ok {
		return c.Value, nil
	}
	stored := p.Credentials.WSSSigningKeyPEM
	if p.WSSecurity.Signature == nil || !stored.IsSet() || s.secrets == nil {
		return "", nil
	}
	key, err := s.secrets.Open(stored.Sealed(), model.CredentialAAD(p.ProfileID, model.CredWSSSigningKeyPEM))
	if err != nil {
		return "", apierr.Internal(apierr.AdmInternal, err)
	}
	return string(key), nil
}

// modelFieldError maps a *model.FieldError to 400 S2R-VAL-0400 with
// details.field (and details.index for a list item).
func modelFieldError(err error) error {
	var fe *model.FieldError
	if !errors.As(err, &fe) {
		return err
	}
	e := adminapi.FieldError(fe.Field, fe.Reason)
	if fe.Index >= 0 {
		e = e.WithDetail("index", fe.Index)
	}
	return e
}
