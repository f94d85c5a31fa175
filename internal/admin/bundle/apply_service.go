package bundle

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/netip"
	"slices"
	"strings"

	"github.com/s2r-project/s2r/internal/admin/drafts"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

// service applies service i of the bundle, s (checked), whose version
// pv prepared.
func (a *applier) service(i int, s Service, pv *preparedVersion) error {
	base := ptr("/services", i)
	t, err := a.target(base, s)
	if err != nil {
		return err
	}
	idx := len(a.res.Changes)
	a.add(s, KindService, "", ActionUnchanged, nil)
	ids, err := a.profiles(base, s, t.svc)
	if err != nil {
		return err
	}
	var want *string
	if id, ok := ids[s.DefaultBackendProfile]; ok {
		want = &id
	}
	if !samePtr(t.svc.DefaultBackendProfileID, want) {
		t.svc.DefaultBackendProfileID = want
		if !t.created {
			t.fields = append(t.fields, "defaultBackendProfile")
		}
	}
	if t.created || len(t.fields) > 0 {
		t.svc.UpdatedAt = a.now
		if err := a.tx.UpdateService(a.r.Context(), t.svc); err != nil {
			return err
		}
	}
	slices.Sort(t.fields)
	a.res.Changes[idx].Action, a.res.Changes[idx].Fields = actionOf(t.created, t.fields), nonNil(t.fields)
	if err := a.grants(s, t.svc.ServiceID, t.cur, t.created); err != nil {
		return err
	}
	if err := a.inbound(s, t.svc.ServiceID, t.cur); err != nil {
		return err
	}
	if err := a.rateLimits(s, t.svc.ServiceID, t.cur, t.created); err != nil {
		return err
	}
	return a.version(base+"/version", &t.svc, s, pv)
}

// targetService is the target's side of a bundle service: the service
// (created when new, with the bundle's settings applied), its export
// before the apply (zero when new) and the fields that changed so far.
type targetService struct {
	svc     model.Service
	cur     Service
	created bool
	fields  []string
}

// target finds the target's service of s, or creates it, and applies
// the service's own settings and callback secret to it.
func (a *applier) target(base string, s Service) (targetService, error) {
	ctx := a.r.Context()
	svc, err := a.tx.ServiceByKey(ctx, s.Direction, s.Environment, s.ServiceKey)
	t := targetService{svc: svc, created: errors.Is(err, store.ErrNotFound)}
	if err != nil && !t.created {
		return t, err
	}
	if t.created {
		t.svc = drafts.NewService(a.now)
		t.svc.Direction, t.svc.Environment, t.svc.ServiceKey = s.Direction, s.Environment, s.ServiceKey
	} else {
		if t.cur, err = exportService(ctx, a.tx, svc); err != nil {
			return t, err
		}
		t.fields = changedFields(head(s), head(t.cur), "callbackSecret", "defaultBackendProfile")
	}
	setServiceFields(&t.svc, s)
	changed, err := a.callbackSecret(&t.svc, s)
	if err != nil {
		return t, err
	}
	if changed && !t.created {
		t.fields = append(t.fields, "callbackSecret")
	}
	if t.created {
		if err := a.tx.CreateService(ctx, t.svc); err != nil {
			return t, at(base+"/serviceKey", drafts.ServiceConflict(err))
		}
	}
	return t, nil
}

// head is a service entry without its parts (profiles, grants, inbound
// WS-Security, version) and apply-only members.
func head(s Service) Service {
	s.Version, s.BackendProfiles, s.ConsumerGrants, s.InboundWSSecurity, s.CallbackSecret, s.Activate = nil, nil, nil, nil, nil, nil
	s.RateLimits = nil
	return s
}

// setServiceFields sets the settings of s (checked, defaults filled) on svc.
func setServiceFields(svc *model.Service, s Service) {
	svc.ServiceName, svc.Description, svc.Status, svc.DebugEnabled = s.ServiceName, s.Description, s.Status, s.DebugEnabled
	svc.BackendRoutingMode, svc.BackendHealthCheckMode = s.BackendRoutingMode, s.BackendHealthCheckMode
	svc.BackendHealthCheckIntervalSec, svc.FaultDetailExposureMode = s.BackendHealthCheckIntervalSec, s.FaultDetailExposureMode
	svc.EnvelopeWrapOverride, svc.ErrorShapeOverride = compactObject(s.EnvelopeWrapOverride), compactObject(s.ErrorShapeOverride)
	svc.CallbackAuthMode = s.CallbackAuthMode
}

// compactObject is a JSON object compacted, nil for none or null.
func compactObject(raw json.RawMessage) json.RawMessage {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || string(t) == "null" {
		return nil
	}
	var b bytes.Buffer
	if err := json.Compact(&b, t); err != nil {
		return t
	}
	return b.Bytes()
}

// callbackSecret applies the bundle's callback secret to svc; it reports
// whether the stored value changed.
func (a *applier) callbackSecret(svc *model.Service, s Service) (bool, error) {
	sec := s.CallbackSecret
	if sec == nil {
		return false, nil
	}
	aad := model.CallbackSecretAAD(svc.ServiceID)
	if sec.Value == "" {
		if sec.Set && !svc.CallbackSecret.IsSet() {
			a.missing(s, "callbackSecret")
		}
		return false, nil
	}
	if a.holds(svc.CallbackSecret, aad, sec.Value) {
		return false, nil
	}
	c, err := a.seal(sec.Value, aad)
	if err != nil {
		return false, err
	}
	svc.CallbackSecret = c
	return true, nil
}

// holds reports whether the stored credential c holds value.
func (a *applier) holds(c model.Credential, aad, value string) bool {
	if !c.IsSet() || a.h.secrets == nil {
		return false
	}
	plain, err := a.h.secrets.Open(c.Sealed(), aad)
	return err == nil && string(plain) == value
}

// seal seals value as a credential changed now by the caller.
func (a *applier) seal(value, aad string) (model.Credential, error) {
	if a.h.secrets == nil {
		return model.Credential{}, apierr.New(apierr.AdmInternal, "secrets cannot be stored: no secret key is configured")
	}
	sealed, err := a.h.secrets.Seal([]byte(value), aad)
	if err != nil {
		return model.Credential{}, apierr.Internal(apierr.AdmInternal, err)
	}
	return model.NewCredential(sealed, a.now, a.by), nil
}

// grants applies the consumer grants; no grants on either side reports
// nothing.
func (a *applier) grants(s Service, serviceID string, cur Service, created bool) error {
	want := normalizeGrants(s.ConsumerGrants)
	if len(want) == 0 && len(cur.ConsumerGrants) == 0 {
		return nil
	}
	var fields []string
	if !same(want, cur.ConsumerGrants) {
		fields = []string{"consumerGrants"}
		g := model.ConsumerGrants{ServiceID: serviceID, CIDRs: want, UpdatedAt: &a.now, UpdatedBy: a.by}
		if err := a.tx.PutConsumerGrants(a.r.Context(), g); err != nil {
			return err
		}
	}
	a.add(s, KindConsumerGrants, "", actionOf(created, fields), fields)
	return nil
}

// rateLimits applies the client rate limit of s (checked and normalized):
// none removes the target's; none on either side reports nothing.
func (a *applier) rateLimits(s Service, serviceID string, cur Service, created bool) error {
	if s.RateLimits == nil && cur.RateLimits == nil {
		return nil
	}
	created = created || cur.RateLimits == nil
	var fields []string
	switch {
	case s.RateLimits == nil:
		fields = []string{"rateLimits"} // removed
	case !created:
		fields = changedFields(*s.RateLimits, *cur.RateLimits)
	}
	if created || len(fields) > 0 {
		if err := a.tx.PutServiceRateLimit(a.r.Context(), serviceID, s.RateLimits, store.NewTime(a.now), a.by); err != nil {
			return err
		}
	}
	a.add(s, KindRateLimits, "", actionOf(created, fields), fields)
	return nil
}

// normalizeGrants is the canonical form the grants handler stores:
// prefixes, a bare address as its one-address prefix, without duplicates.
func normalizeGrants(in []string) []string {
	out := []string{}
	for _, g := range in {
		g = strings.TrimSpace(g)
		var p netip.Prefix
		if strings.Contains(g, "/") {
			p, _ = netip.ParsePrefix(g)
		} else if addr, err := netip.ParseAddr(g); err == nil {
			p = netip.PrefixFrom(addr.Unmap(), addr.Unmap().BitLen())
		}
		if !slices.Contains(out, p.String()) {
			out = append(out, p.String())
		}
	}
	return out
}

// samePtr reports whether two optional ids are equal.
func samePtr(x, y *string) bool { return (x == nil) == (y == nil) && (x == nil || *x == *y) }

// nonNil is s, or an empty list for nil.
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
