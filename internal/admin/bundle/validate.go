package bundle

import (
	"context"
	"encoding/json"
	"errors"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/s2r-project/s2r/internal/admin/backends"
	"github.com/s2r-project/s2r/internal/admin/drafts"
	"github.com/s2r-project/s2r/internal/fetch"
	"github.com/s2r-project/s2r/internal/limit"
	"github.com/s2r-project/s2r/internal/model"
)

// The values each enumerated service field takes; "" takes the default.
var serviceEnums = []struct {
	field  string
	get    func(*Service) string
	values []string
}{
	{"status", func(s *Service) string { return s.Status }, []string{model.ServiceActive, model.ServiceDisabled, model.ServiceDeprecated}},
	{"backendRoutingMode", func(s *Service) string { return s.BackendRoutingMode },
		[]string{model.RoutingSingle, model.RoutingActivePassive, model.RoutingRoundRobin}},
	{"backendHealthCheckMode", func(s *Service) string { return s.BackendHealthCheckMode },
		[]string{model.HealthCheckNone, model.HealthCheckPing, model.HealthCheckTCP, model.HealthCheckWSDLFetch}},
	{"faultDetailExposureMode", func(s *Service) string { return s.FaultDetailExposureMode },
		[]string{model.FaultDetailSafe, model.FaultDetailFull}},
	{"callbackAuthMode", func(s *Service) string { return s.CallbackAuthMode },
		[]string{model.CallbackAuthNone, model.CallbackAuthSharedSecret}},
}

// routeKey is a service's runtime route key.
type routeKey struct{ direction, environment, serviceKey string }

// checker holds what the checks of a bundle need beyond the bundle.
type checker struct {
	now time.Time
	// override checks a service override (Config.CheckOverride); nil
	// checks the shape only.
	override func(member string, v json.RawMessage) error
	// backends is the outbound policy of backend connections; the
	// addresses of profile URLs whose host is an IP literal must pass it.
	backends fetch.Policy
}

// check validates every service of b and parses the WSDL of each
// version, in bundle order, so that the first problem is the one
// reported and nothing is written for a bad bundle. It fills the
// defaults of empty fields and returns the prepared versions by service
// index.
func (c checker) check(ctx context.Context, b *Bundle) (map[int]*preparedVersion, error) {
	seen := map[routeKey]bool{}
	versions := map[int]*preparedVersion{}
	for i := range b.Services {
		s := &b.Services[i]
		base := ptr("/services", i)
		if err := checkService(base, s, c.override); err != nil {
			return nil, err
		}
		k := routeKey{s.Direction, s.Environment, s.ServiceKey}
		if seen[k] {
			return nil, PointerError(base+"/serviceKey", "another service of the bundle has the same direction, environment and serviceKey")
		}
		seen[k] = true
		if err := c.checkProfiles(base, s); err != nil {
			return nil, err
		}
		if err := checkGrants(base, s); err != nil {
			return nil, err
		}
		if err := checkInbound(base, s.InboundWSSecurity); err != nil {
			return nil, err
		}
		if err := checkRateLimits(base, s); err != nil {
			return nil, err
		}
		if s.Version == nil {
			continue
		}
		pv, err := prepareVersion(ctx, base+"/version", s.Version, c.now)
		if err != nil {
			return nil, err
		}
		versions[i] = pv
	}
	return versions, nil
}

// checkService checks a service's own fields and fills their defaults.
func checkService(base string, s *Service, checkOverride func(string, json.RawMessage) error) error {
	for _, f := range []struct{ name, v string }{{"direction", s.Direction}, {"environment", s.Environment}, {"serviceKey", s.ServiceKey}} {
		if f.v == "" {
			return PointerError(base+"/"+f.name, "is required")
		}
	}
	if !slices.Contains([]string{model.DirectionPublish, model.DirectionConsume, model.DirectionGateway}, s.Direction) {
		return PointerError(base+"/direction", "must be publish, consume or gateway")
	}
	for _, f := range []struct{ name, v string }{{"environment", s.Environment}, {"serviceKey", s.ServiceKey}} {
		if !drafts.KeyPattern.MatchString(f.v) {
			return PointerError(base+"/"+f.name, "must be 1 to 63 lower-case letters, digits and dashes, starting with a letter or digit")
		}
	}
	if s.ServiceName == "" {
		s.ServiceName = s.ServiceKey
	}
	if len([]rune(s.ServiceName)) > 200 {
		return PointerError(base+"/serviceName", "must be at most 200 characters")
	}
	if len([]rune(s.Description)) > 2000 {
		return PointerError(base+"/description", "must be at most 2000 characters")
	}
	def := drafts.NewService(time.Time{})
	defaults := map[string]*string{"status": &s.Status, "backendRoutingMode": &s.BackendRoutingMode,
		"backendHealthCheckMode": &s.BackendHealthCheckMode, "faultDetailExposureMode": &s.FaultDetailExposureMode,
		"callbackAuthMode": &s.CallbackAuthMode}
	defValues := map[string]string{"status": def.Status, "backendRoutingMode": def.BackendRoutingMode,
		"backendHealthCheckMode": def.BackendHealthCheckMode, "faultDetailExposureMode": def.FaultDetailExposureMode,
		"callbackAuthMode": def.CallbackAuthMode}
	for _, e := range serviceEnums {
		if *defaults[e.field] == "" {
			*defaults[e.field] = defValues[e.field]
		}
		if !slices.Contains(e.values, e.get(s)) {
			return PointerError(base+"/"+e.field, "must be one of "+strings.Join(e.values, ", "))
		}
	}
	if s.BackendHealthCheckIntervalSec == 0 {
		s.BackendHealthCheckIntervalSec = def.BackendHealthCheckIntervalSec
	}
	if s.BackendHealthCheckIntervalSec < 5 || s.BackendHealthCheckIntervalSec > 3600 {
		return PointerError(base+"/backendHealthCheckIntervalSec", "must be between 5 and 3600")
	}
	for _, f := range []struct {
		name string
		raw  json.RawMessage
	}{{"envelopeWrapOverride", s.EnvelopeWrapOverride}, {"errorShapeOverride", s.ErrorShapeOverride}} {
		t := strings.TrimSpace(string(f.raw))
		switch {
		case t == "" || t == "null":
		case !strings.HasPrefix(t, "{"):
			return PointerError(base+"/"+f.name, "must be an object or null")
		case checkOverride != nil:
			if err := checkOverride(f.name, json.RawMessage(t)); err != nil {
				return at(base, err)
			}
		}
	}
	if s.CallbackSecret != nil && s.CallbackSecret.Value != "" && s.CallbackAuthMode != model.CallbackAuthSharedSecret {
		return PointerError(base+"/callbackSecret", "is only used with callbackAuthMode shared_secret")
	}
	return nil
}

// checkProfiles checks the backend profiles as the profile handlers do,
// and their URLs against the outbound backend policy.
func (c checker) checkProfiles(base string, s *Service) error {
	names := map[string]bool{}
	for j, p := range s.BackendProfiles {
		pb := ptr(base+"/backendProfiles", j)
		if p.Name == "" || len(p.Name) > 100 {
			return PointerError(pb+"/name", "must be 1 to 100 characters")
		}
		if names[p.Name] {
			return PointerError(pb+"/name", "another backend profile of the service has this name")
		}
		names[p.Name] = true
		if p.AuthType != "" && !slices.Contains(model.AuthTypes, p.AuthType) {
			return PointerError(pb+"/authType", "must be one of "+strings.Join(model.AuthTypes, ", "))
		}
		for name := range p.Credentials {
			if !slices.Contains(model.CredentialFields, name) {
				return PointerError(ptr(pb+"/credentials", name), "must be one of "+strings.Join(model.CredentialFields, ", "))
			}
		}
		m := profileModel(p, model.BackendProfile{})
		if err := backends.CheckProfile(m); err != nil {
			return at(pb, err)
		}
		if err := checkProfileRanges(pb, m); err != nil {
			return err
		}
		if err := c.checkAddresses(pb, m); err != nil {
			return err
		}
	}
	if s.DefaultBackendProfile != "" && !names[s.DefaultBackendProfile] {
		return PointerError(base+"/defaultBackendProfile", "names no backend profile of the service")
	}
	return nil
}

// checkGrants checks the consumer grants: CIDRs or bare addresses.
func checkGrants(base string, s *Service) error {
	for k, g := range s.ConsumerGrants {
		g = strings.TrimSpace(g)
		var err error
		if strings.Contains(g, "/") {
			var p netip.Prefix
			if p, err = netip.ParsePrefix(g); err == nil && p.Masked() != p {
				return PointerError(ptr(base+"/consumerGrants", k), "has host bits set")
			}
		} else {
			_, err = netip.ParseAddr(g)
		}
		if err != nil {
			return PointerError(ptr(base+"/consumerGrants", k), "must be an IP address or CIDR such as 10.0.0.0/8")
		}
	}
	return nil
}

// checkInbound checks an inbound WS-Security policy.
func checkInbound(base string, w *InboundWSSecurity) error {
	if w == nil {
		return nil
	}
	base += "/inboundWsSecurity"
	if w.Mode == "" {
		w.Mode = model.WSSModeOff
	}
	if !slices.Contains([]string{model.WSSModeOff, model.WSSModeOptional, model.WSSModeRequired}, w.Mode) {
		return PointerError(base+"/mode", "must be off, optional or required")
	}
	if len(w.UsernameTokens) > maxInboundEntries || len(w.TrustedCertificatesPEM) > maxInboundEntries {
		return PointerError(base, "usernameTokens and trustedCertificatesPem hold at most 1000 entries each")
	}
	p := model.InboundWSSecurity{Mode: w.Mode, TrustedCertificatesPEM: w.TrustedCertificatesPEM,
		RequireSignature: w.RequireSignature, RequireTimestamp: w.RequireTimestamp, MaxClockSkewSeconds: w.MaxClockSkewSeconds}
	users := map[string]bool{}
	for k, u := range w.UsernameTokens {
		if u.Username == "" || users[u.Username] {
			return PointerError(ptr(base+"/usernameTokens", k, "username"), "must be given once, not empty")
		}
		users[u.Username] = true
		p.UsernameTokens = append(p.UsernameTokens, model.WSSUserPassword{Username: u.Username})
	}
	var fe *model.FieldError
	if err := p.Validate(); errors.As(err, &fe) {
		at := base + "/" + fe.Field
		if fe.Index >= 0 {
			at = ptr(at, fe.Index)
		}
		return PointerError(at, fe.Reason)
	} else if err != nil {
		return PointerError(base, err.Error())
	}
	return nil
}

// checkRateLimits checks the client rate limit with the rules of PUT
// .../rate-limits (limit.ClientSettings) and normalizes it as that route
// stores it: {} is none, burst 0 is requestsPerMinute.
func checkRateLimits(base string, s *Service) error {
	if s.RateLimits == nil || *s.RateLimits == (model.ClientRateLimit{}) {
		s.RateLimits = nil
		return nil
	}
	cs := limit.ClientSettings(*s.RateLimits)
	var fe *model.FieldError
	if err := cs.Validate(); errors.As(err, &fe) {
		return PointerError(base+"/rateLimits/"+fe.Field, fe.Reason)
	} else if err != nil {
		return PointerError(base+"/rateLimits", err.Error())
	}
	l := model.ClientRateLimit(cs.Normalized())
	s.RateLimits = &l
	return nil
}

// maxInboundEntries bounds an inbound policy's lists, as the admin API does.
const maxInboundEntries = 1000

// intRange is a bound an integer member must keep, as the API checks it.
type intRange struct {
	name   string
	v      *int
	lo, hi int
}

// checkRanges checks each present value against its bounds.
func checkRanges(base string, rs ...intRange) error {
	for _, r := range rs {
		if r.v != nil && (*r.v < r.lo || *r.v > r.hi) {
			return PointerError(base+"/"+r.name, "must be between "+strconv.Itoa(r.lo)+" and "+strconv.Itoa(r.hi))
		}
	}
	return nil
}

// checkProfileRanges checks a profile's numbers (defaults applied) with
// the profile handlers' bounds.
func checkProfileRanges(pb string, m model.BackendProfile) error {
	return checkRanges(pb,
		intRange{"connectTimeoutMs", &m.ConnectTimeoutMs, 1, 120000},
		intRange{"tlsHandshakeTimeoutMs", &m.TLSHandshakeTimeoutMs, 1, 120000},
		intRange{"idleConnTimeoutMs", &m.IdleConnTimeoutMs, 1, 3600000},
		intRange{"maxIdleConnsPerHost", &m.MaxIdleConnsPerHost, 1, 10000},
		intRange{"routingPriority", &m.RoutingPriority, -1000000, 1000000},
		intRange{"routingWeight", &m.RoutingWeight, 1, 1000},
		intRange{"timeoutMs", m.TimeoutMs, 1, 600000},
		intRange{"retryCount", m.RetryCount, 0, 10})
}

// checkAddresses refuses a profile URL whose host is an IP address the
// outbound backend policy refuses (settings outbound_allowed_cidrs and
// outbound_denied_cidrs; link-local such as the cloud metadata address,
// multicast, reserved). A host name is checked when the runtime connects.
func (c checker) checkAddresses(pb string, m model.BackendProfile) error {
	for _, u := range []struct{ field, v string }{{"endpointUrl", m.EndpointURL}, {"tokenUrl", m.TokenURL}, {"healthCheckUrl", m.HealthCheckURL}} {
		parsed, err := url.Parse(u.v)
		if u.v == "" || err != nil {
			continue
		}
		ip, err := netip.ParseAddr(parsed.Hostname())
		if err != nil {
			continue
		}
		if err := c.backends.CheckAddr(ip); err != nil {
			return PointerError(pb+"/"+u.field, "the outbound policy refuses this address "+
				"(settings outbound_allowed_cidrs / outbound_denied_cidrs)")
		}
	}
	return nil
}
