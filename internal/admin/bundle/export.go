package bundle

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/s2r-project/s2r/internal/admin/drafts"
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/contracts"
	"github.com/s2r-project/s2r/internal/fetch"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/secret"
	"github.com/s2r-project/s2r/internal/store"
)

// Config holds what the bundle handlers need.
type Config struct {
	Store *store.Store
	// Secrets seals the secrets a bundle gives; nil refuses them.
	Secrets *secret.Box
	// Now is the clock; nil uses adminapi.Now.
	Now func() time.Time
	// Contracts is the parsed-contract cache shared with the rest of
	// admin; nil gives the handlers a cache of their own.
	Contracts *contracts.Cache
	// CheckOverride checks a service's envelopeWrapOverride or
	// errorShapeOverride (member names the field) as the service handlers
	// do, answering 400 naming the field; nil checks only that each is
	// an object or null.
	CheckOverride func(member string, v json.RawMessage) error
}

// Handlers serves the bundle routes.
type Handlers struct {
	store         *store.Store
	secrets       *secret.Box
	now           func() time.Time
	contracts     *contracts.Cache
	checkOverride func(member string, v json.RawMessage) error
}

// New returns the bundle handlers of cfg.
func New(cfg Config) *Handlers {
	h := &Handlers{store: cfg.Store, secrets: cfg.Secrets, now: cfg.Now, contracts: cfg.Contracts,
		checkOverride: cfg.CheckOverride}
	if h.now == nil {
		h.now = adminapi.Now
	}
	if h.contracts == nil {
		h.contracts = contracts.New(cfg.Store)
	}
	return h
}

// Routes lists the bundle routes for internal/admin's route table.
func (h *Handlers) Routes() []adminapi.Route {
	return []adminapi.Route{
		{Method: "GET", Path: "/bundle", Role: model.RoleReader, Handle: h.getBundle, Doc: docGetBundle},
		{Method: "GET", Path: "/bundle.schema.json", Role: model.RoleReader, Handle: h.getSchema, Doc: docGetSchema},
		// Readers may dry-run; postApply checks the operator role for a
		// real apply.
		{Method: "POST", Path: "/bundle:apply", Role: model.RoleReader, Handle: h.postApply, Doc: docApplyBundle,
			Audit: adminapi.OnFailure("bundle.apply", "bundle", "bundle")},
	}
}

var docGetBundle = adminapi.Doc{
	Summary: "Export services as a bundle (DESIGN 10.5, docs/bundles.md): each service's settings, the WSDL files, " +
		"operations and mappings of its active version, backend profiles and consumer grants. No secret in any form: " +
		"a secret that is set is {\"set\": true}. JSON; YAML with Accept: application/yaml.",
	Query: []adminapi.Param{
		{Name: "environment", Type: "string", Description: "only services of this environment; repeatable; none: every environment"},
		{Name: "serviceKey", Type: "string", Description: "only services with this key; repeatable; none: every key"},
	},
	Response: Bundle{},
}

// getBundle answers the bundle of the services the query selects.
func (h *Handlers) getBundle(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	envs, keys := q["environment"], q["serviceKey"]
	for field, values := range map[string][]string{"environment": envs, "serviceKey": keys} {
		for _, v := range values {
			if !drafts.KeyPattern.MatchString(v) {
				return adminapi.FieldError(field, "must be 1 to 63 lower-case letters, digits and dashes, starting with a letter or digit")
			}
		}
	}
	b, err := h.export(r.Context(), envs, keys)
	if err != nil {
		return err
	}
	if wantsYAML(r.Header.Get("Accept")) {
		return writeYAML(w, b)
	}
	return adminapi.WriteJSON(w, http.StatusOK, b)
}

// export builds the bundle of the services of envs (none: all) whose key
// is in keys (none: all), ordered by environment, key and direction.
func (h *Handlers) export(ctx context.Context, envs, keys []string) (Bundle, error) {
	b := Bundle{APIVersion: APIVersion, Kind: Kind, Services: []Service{}}
	if len(envs) == 0 {
		envs = []string{""}
	}
	slices.Sort(envs)
	for _, env := range slices.Compact(envs) {
		svcs, err := h.services(ctx, env)
		if err != nil {
			return Bundle{}, err
		}
		for _, svc := range svcs {
			if len(keys) > 0 && !slices.Contains(keys, svc.ServiceKey) {
				continue
			}
			s, err := exportService(ctx, h.store, svc)
			if err != nil {
				return Bundle{}, err
			}
			b.Services = append(b.Services, s)
		}
	}
	return b, nil
}

// services lists every service of env ("" every environment).
func (h *Handlers) services(ctx context.Context, env string) ([]model.Service, error) {
	var out []model.Service
	for page := 1; ; page++ {
		p, err := h.store.Services(ctx, model.ServiceFilter{Environment: env,
			Page: model.PageRequest{Page: page, PageSize: model.MaxPageSize}})
		if err != nil {
			return nil, err
		}
		out = append(out, p.Items...)
		if page >= p.TotalPages {
			return out, nil
		}
	}
}

// catalogReader reads what a service's export needs: *store.Store, or a
// *store.Tx so that apply compares with what its transaction sees.
type catalogReader interface {
	BackendProfiles(ctx context.Context, serviceID string) ([]model.BackendProfile, error)
	ConsumerGrants(ctx context.Context, serviceID string) (model.ConsumerGrants, error)
	InboundWSS(ctx context.Context, serviceID string) (model.InboundWSSConfig, error)
	ServiceRateLimit(ctx context.Context, serviceID string) (*model.ClientRateLimit, error)
	Version(ctx context.Context, id string) (model.Version, error)
	Artifact(ctx context.Context, id string) (model.Artifact, error)
	Operations(ctx context.Context, versionID string) ([]model.Operation, error)
	ActiveMappings(ctx context.Context, versionID string) (map[string]model.Mapping, error)
}

var (
	_ catalogReader = (*store.Store)(nil)
	_ catalogReader = (*store.Tx)(nil)
)

// exportService exports one service as q sees it.
func exportService(ctx context.Context, q catalogReader, svc model.Service) (Service, error) {
	s := Service{ServiceKey: svc.ServiceKey, Environment: svc.Environment, Direction: svc.Direction,
		ServiceName: svc.ServiceName, Description: svc.Description, Status: svc.Status, DebugEnabled: svc.DebugEnabled,
		BackendRoutingMode: svc.BackendRoutingMode, BackendHealthCheckMode: svc.BackendHealthCheckMode,
		BackendHealthCheckIntervalSec: svc.BackendHealthCheckIntervalSec, FaultDetailExposureMode: svc.FaultDetailExposureMode,
		EnvelopeWrapOverride: svc.EnvelopeWrapOverride, ErrorShapeOverride: svc.ErrorShapeOverride,
		CallbackAuthMode: svc.CallbackAuthMode, CallbackSecret: secretOf(svc.CallbackSecret)}
	profiles, err := q.BackendProfiles(ctx, svc.ServiceID)
	if err != nil {
		return Service{}, err
	}
	s.BackendProfiles = make([]BackendProfile, 0, len(profiles))
	for _, p := range profiles {
		if svc.DefaultBackendProfileID != nil && *svc.DefaultBackendProfileID == p.ProfileID {
			s.DefaultBackendProfile = p.Name
		}
		s.BackendProfiles = append(s.BackendProfiles, backendProfile(p))
	}
	grants, err := q.ConsumerGrants(ctx, svc.ServiceID)
	if err != nil {
		return Service{}, err
	}
	s.ConsumerGrants = append([]string{}, grants.CIDRs...)
	inbound, err := q.InboundWSS(ctx, svc.ServiceID)
	if err != nil {
		return Service{}, err
	}
	s.InboundWSSecurity = inboundWSS(inbound)
	if s.RateLimits, err = q.ServiceRateLimit(ctx, svc.ServiceID); err != nil {
		return Service{}, err
	}
	if svc.ActiveVersionID != nil {
		if s.Version, err = exportVersion(ctx, q, *svc.ActiveVersionID); err != nil {
			return Service{}, err
		}
	}
	return s, nil
}

// exportVersion exports a version with its import and operations.
func exportVersion(ctx context.Context, q catalogReader, versionID string) (*Version, error) {
	v, err := q.Version(ctx, versionID)
	if err != nil {
		return nil, err
	}
	out := &Version{VersionNumber: v.VersionNumber, WSDLService: v.WSDLService, WSDLPort: v.WSDLPort}
	if v.ArtifactID != nil {
		a, err := q.Artifact(ctx, *v.ArtifactID)
		if err != nil {
			return nil, err
		}
		out.WSDL = wsdlOf(a)
	}
	ops, err := q.Operations(ctx, versionID)
	if err != nil {
		return nil, err
	}
	maps, err := q.ActiveMappings(ctx, versionID)
	if err != nil {
		return nil, err
	}
	out.Operations = make([]Operation, 0, len(ops))
	for _, op := range ops {
		o := Operation{OperationKey: op.OperationKey, SOAPOperationName: op.SOAPOperationName, SOAPVersion: op.SOAPVersion,
			RestMethod: op.RestMethod, RestPath: op.RestPath, TimeoutMs: op.TimeoutMs, RetryCount: op.RetryCount,
			ExecutionMode: op.ExecutionMode, ResponseValidation: op.ResponseValidation, ValidationRules: op.ValidationRules, TransformRules: op.TransformRules}
		if m, ok := maps[op.OperationID]; ok {
			o.Mapping = &Mapping{Source: m.Source, RequestMapping: m.RequestMapping, ResponseMapping: m.ResponseMapping,
				FaultMapping: m.FaultMapping}
		}
		out.Operations = append(out.Operations, o)
	}
	return out, nil
}

// wsdlOf is the text of an import's files. Paths that are URLs (imports
// by URL) are redacted like every URL s2r shows, so a key or token in a
// query string does not leave the server.
func wsdlOf(a model.Artifact) *WSDL {
	w := &WSDL{RootPath: redactLocation(a.RootPath), Files: make(map[string]string, len(a.Files))}
	for p, b := range a.Files {
		w.Files[redactLocation(p)] = string(b)
	}
	return w
}

// redactLocation redacts a URL location; a file path is kept.
func redactLocation(p string) string {
	l := strings.ToLower(p)
	if strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://") {
		return fetch.RedactString(p)
	}
	return p
}

// backendProfile exports a profile: its settings and which credentials
// are set, never their values.
func backendProfile(p model.BackendProfile) BackendProfile {
	out := BackendProfile{Name: p.Name, EndpointURL: p.EndpointURL, AuthType: p.AuthType, Username: p.Username,
		APIKeyHeaderName: p.APIKeyHeaderName, TokenURL: p.TokenURL, ClientID: p.ClientID, Scope: p.Scope,
		Credentials: map[string]SecretSet{}, MTLSEnabled: p.MTLSEnabled, ClientCertPEM: p.ClientCertPEM, CACertPEM: p.CACertPEM,
		ConnectTimeoutMs: p.ConnectTimeoutMs, TLSHandshakeTimeoutMs: p.TLSHandshakeTimeoutMs, IdleConnTimeoutMs: p.IdleConnTimeoutMs,
		MaxIdleConnsPerHost: p.MaxIdleConnsPerHost, TimeoutMs: p.TimeoutMs, RetryCount: p.RetryCount,
		RoutingPriority: p.RoutingPriority, RoutingWeight: p.RoutingWeight, HealthCheckURL: p.HealthCheckURL,
		MaxConcurrentRequests: p.MaxConcurrentRequests, MaxRequestsPerSecond: p.MaxRequestsPerSecond,
		QueueTimeoutMs: p.QueueTimeoutMs, WSSecurity: p.WSSecurity, WSAddressing: p.WSAddressing}
	// Every credential of model.CredentialFields, the WS-Security ones
	// (wssPassword, wssSigningKeyPem) included.
	for _, name := range model.CredentialFields {
		if c := p.Credentials.Field(name); c != nil && c.IsSet() {
			out.Credentials[name] = SecretSet{Set: true}
		}
	}
	return out
}

// inboundWSS exports an inbound WS-Security policy; nil for one never
// stored (mode off with nothing configured).
func inboundWSS(c model.InboundWSSConfig) *InboundWSSecurity {
	if c.UpdatedAt == nil && c.Mode == model.WSSModeOff && len(c.UsernameTokens) == 0 && len(c.TrustedCertificatesPEM) == 0 {
		return nil
	}
	out := &InboundWSSecurity{Mode: c.Mode, UsernameTokens: make([]InboundWSSUser, 0, len(c.UsernameTokens)),
		TrustedCertificatesPEM: append([]string{}, c.TrustedCertificatesPEM...), RequireSignature: c.RequireSignature,
		RequireTimestamp: c.RequireTimestamp, MaxClockSkewSeconds: c.MaxClockSkewSeconds}
	for _, u := range c.UsernameTokens {
		out.UsernameTokens = append(out.UsernameTokens, InboundWSSUser{Username: u.Username, Password: secretOf(u.Password)})
	}
	return out
}
