package bundle

import (
	"slices"

	"github.com/s2r-project/s2r/internal/admin/backends"
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/model"
)

// profiles applies the backend profiles of s (at base in the bundle) to
// service svc, matched by name; a profile of the target the bundle does
// not name is left as it is. It returns the id of every profile of the
// bundle by name.
func (a *applier) profiles(base string, s Service, svc model.Service) (map[string]string, error) {
	ctx := a.r.Context()
	stored, err := a.tx.BackendProfiles(ctx, svc.ServiceID)
	if err != nil {
		return nil, err
	}
	ids := map[string]string{}
	for j, p := range s.BackendProfiles {
		i := slices.IndexFunc(stored, func(o model.BackendProfile) bool { return o.Name == p.Name })
		created := i < 0
		var old model.BackendProfile
		if created {
			old = model.BackendProfile{ProfileID: adminapi.NewID(), ServiceID: svc.ServiceID, CreatedAt: a.now}
		} else {
			old = stored[i]
		}
		m := profileModel(p, old)
		fields := changedFields(backendProfile(m), backendProfile(old), "credentials")
		credFields, err := a.credentials(s, p, &m)
		if err != nil {
			return nil, err
		}
		fields = append(fields, credFields...)
		// The WS-Security secrets are checked with the target's stored
		// values where the bundle gives none.
		if err := backends.CheckProfileWSS(a.h.secrets, m, pendingSecrets(p, m)); err != nil {
			return nil, at(ptr(base+"/backendProfiles", j), err)
		}
		ids[p.Name] = m.ProfileID
		m.UpdatedAt = a.now
		switch {
		case created:
			err = a.tx.CreateBackendProfile(ctx, m)
		case len(fields) > 0:
			err = a.tx.UpdateBackendProfile(ctx, m)
		}
		if err != nil {
			return nil, err
		}
		if created {
			fields = nil
		}
		a.add(s, KindBackendProfile, p.Name, actionOf(created, fields), fields)
	}
	return ids, nil
}

// profileModel is base (the stored profile, or a new one) with the
// settings of the bundle's profile p and the defaults of empty ones; the
// credentials are base's.
func profileModel(p BackendProfile, base model.BackendProfile) model.BackendProfile {
	m := base
	m.Name, m.EndpointURL, m.AuthType, m.Username = p.Name, p.EndpointURL, p.AuthType, p.Username
	m.APIKeyHeaderName, m.TokenURL, m.ClientID, m.Scope = p.APIKeyHeaderName, p.TokenURL, p.ClientID, p.Scope
	m.MTLSEnabled, m.ClientCertPEM, m.CACertPEM = p.MTLSEnabled, p.ClientCertPEM, p.CACertPEM
	m.ConnectTimeoutMs, m.TLSHandshakeTimeoutMs, m.IdleConnTimeoutMs = p.ConnectTimeoutMs, p.TLSHandshakeTimeoutMs, p.IdleConnTimeoutMs
	m.MaxIdleConnsPerHost, m.TimeoutMs, m.RetryCount = p.MaxIdleConnsPerHost, p.TimeoutMs, p.RetryCount
	m.RoutingPriority, m.RoutingWeight, m.HealthCheckURL = p.RoutingPriority, p.RoutingWeight, p.HealthCheckURL
	m.MaxConcurrentRequests, m.MaxRequestsPerSecond, m.QueueTimeoutMs = p.MaxConcurrentRequests, p.MaxRequestsPerSecond, p.QueueTimeoutMs
	m.WSSecurity, m.WSAddressing = p.WSSecurity, p.WSAddressing
	model.ApplyBackendDefaults(&m)
	return m
}

// credentials applies the credentials the bundle gives for profile p to
// m: a value is sealed unless m already holds it, {"set": true} keeps the
// stored value (or is reported missing). It returns the changed fields.
func (a *applier) credentials(s Service, p BackendProfile, m *model.BackendProfile) ([]string, error) {
	var fields []string
	for _, name := range model.CredentialFields {
		sec, ok := p.Credentials[name]
		if !ok {
			continue
		}
		f := m.Credentials.Field(name)
		aad := model.CredentialAAD(m.ProfileID, name)
		switch {
		case sec.Value == "":
			if sec.Set && !f.IsSet() {
				a.missing(s, "backendProfiles/"+p.Name+"/credentials/"+name)
			}
		case !a.holds(*f, aad, sec.Value):
			c, err := a.seal(sec.Value, aad)
			if err != nil {
				return nil, err
			}
			*f = c
			fields = append(fields, "credentials."+name)
		}
	}
	return fields, nil
}

// pendingSecrets names the credentials of p the bundle says are set that
// m, the profile as it will be stored, does not hold: they are reported
// missing, and the checks that need them wait for them.
func pendingSecrets(p BackendProfile, m model.BackendProfile) []string {
	var out []string
	for name, sec := range p.Credentials {
		if f := m.Credentials.Field(name); sec.Set && sec.Value == "" && f != nil && !f.IsSet() {
			out = append(out, name)
		}
	}
	return out
}

// inbound applies the inbound WS-Security policy of s, when it gives one;
// a password given keeps the stored one when equal, {"set": true} keeps
// the stored one (or is reported missing).
func (a *applier) inbound(s Service, serviceID string, cur Service) error {
	w := s.InboundWSSecurity
	if w == nil {
		return nil
	}
	ctx := a.r.Context()
	stored, err := a.tx.InboundWSS(ctx, serviceID)
	if err != nil {
		return err
	}
	c := model.InboundWSSConfig{ServiceID: serviceID, Mode: w.Mode, TrustedCertificatesPEM: w.TrustedCertificatesPEM,
		RequireSignature: w.RequireSignature, RequireTimestamp: w.RequireTimestamp, MaxClockSkewSeconds: w.MaxClockSkewSeconds,
		UsernameTokens: []model.InboundWSSUser{}, UpdatedAt: &a.now, UpdatedBy: a.by}
	if c.TrustedCertificatesPEM == nil {
		c.TrustedCertificatesPEM = []string{}
	}
	var fields []string
	for _, u := range w.UsernameTokens {
		var old model.Credential
		for _, o := range stored.UsernameTokens {
			if o.Username == u.Username {
				old = o.Password
			}
		}
		pw, changed, err := a.inboundPassword(s, serviceID, u, old)
		if err != nil {
			return err
		}
		if changed {
			fields = append(fields, "usernameTokens."+u.Username+".password")
		}
		c.UsernameTokens = append(c.UsernameTokens, model.InboundWSSUser{Username: u.Username, Password: pw})
	}
	created := cur.InboundWSSecurity == nil
	if !created {
		fields = append(changedFields(withoutPasswords(*w), withoutPasswords(*cur.InboundWSSecurity)), fields...)
	}
	if created || len(fields) > 0 {
		if err := a.tx.PutInboundWSS(ctx, c); err != nil {
			return err
		}
	}
	if created {
		fields = nil
	}
	a.add(s, KindInboundWSSecurity, "", actionOf(created, fields), fields)
	return nil
}

// inboundPassword is the password of inbound user u: the given value
// (sealed unless old holds it), or old.
func (a *applier) inboundPassword(s Service, serviceID string, u InboundWSSUser, old model.Credential) (model.Credential, bool, error) {
	if u.Password == nil || u.Password.Value == "" {
		if u.Password != nil && u.Password.Set && !old.IsSet() {
			a.missing(s, "inboundWsSecurity/usernameTokens/"+u.Username+"/password")
		}
		return old, false, nil
	}
	aad := model.InboundWSSPasswordAAD(serviceID, u.Username)
	if a.holds(old, aad, u.Password.Value) {
		return old, false, nil
	}
	c, err := a.seal(u.Password.Value, aad)
	return c, err == nil, err
}

// withoutPasswords is w with its users' passwords left out.
func withoutPasswords(w InboundWSSecurity) InboundWSSecurity {
	users := make([]InboundWSSUser, len(w.UsernameTokens))
	for i, u := range w.UsernameTokens {
		users[i] = InboundWSSUser{Username: u.Username}
	}
	w.UsernameTokens = users
	return w
}
