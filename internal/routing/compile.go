package routing

import (
	"fmt"
	"net/netip"
	"sort"
	"strings"
	"time"

	"github.com/s2r-project/s2r/internal/convert"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/soap"
	"github.com/s2r-project/s2r/internal/transform"
	"github.com/s2r-project/s2r/internal/upstream"
	"github.com/s2r-project/s2r/internal/wsdl"
	"github.com/s2r-project/s2r/internal/wssec"
	"github.com/s2r-project/s2r/internal/xsd"
)

// Source is everything stored about one service that its compilation
// needs, already read (and its credentials opened) by the loader.
type Source struct {
	Service    model.Service
	Version    model.Version
	Artifact   *model.Artifact   // nil for a version without an artifact
	Contract   *wsdl.Definitions // parsed Artifact; nil with it
	Operations []model.Operation
	// Mappings are the active mappings by operation id.
	Mappings map[string]model.Mapping
	Backends []upstream.Backend
	Grants   []string
	// InboundWSS is the service's inbound WS-Security policy with its
	// passwords opened; nil or mode off checks nothing.
	InboundWSS *model.InboundWSSecurity
	// Nonces remembers UsernameToken nonces for InboundWSS (shared by
	// every instance in production); needed unless the mode is off.
	Nonces wssec.NonceStore
	// RateLimit is the service's client rate limit, nil for none.
	RateLimit *model.ClientRateLimit
	// CallbackSecret is the service's opened callback secret, nil for none.
	CallbackSecret []byte
	// DefaultTimeout and DefaultRetries are the settings
	// default_timeout_ms and default_retry_count.
	DefaultTimeout time.Duration
	DefaultRetries int
	// Ops, when set, reuses operations compiled by earlier loads.
	Ops *OpCache
}

// Compile compiles one service. Any operation that does not compile fails
// the whole service: a half-served version would answer 404 for
// operations its callers expect.
func Compile(src Source) (*Service, error) {
	m := src.Service
	s := &Service{
		ID:                  m.ServiceID,
		ServiceKey:          m.ServiceKey,
		Name:                m.ServiceName,
		Environment:         m.Environment,
		Direction:           m.Direction,
		Status:              m.Status,
		VersionID:           src.Version.VersionID,
		DebugEnabled:        m.DebugEnabled,
		FaultDetailExposure: orDefault(m.FaultDetailExposureMode, model.FaultDetailSafe),
		CallbackAuthMode:    orDefault(m.CallbackAuthMode, model.CallbackAuthNone),
		CallbackSecret:      src.CallbackSecret,
		RoutingMode:         orDefault(m.BackendRoutingMode, model.RoutingSingle),
		HealthCheckMode:     orDefault(m.BackendHealthCheckMode, model.HealthCheckNone),
		HealthCheckInterval: time.Duration(m.BackendHealthCheckIntervalSec) * time.Second,
		Contract:            src.Contract,
		WSDLPort:            src.Version.WSDLPort,
		WSDLName:            src.Version.WSDLService,
	}
	if s.HealthCheckInterval <= 0 {
		s.HealthCheckInterval = model.DefaultHealthCheckIntervalSec * time.Second
	}
	var err error
	if s.EnvelopeWrap, err = ParseEnvelopeWrap(m.EnvelopeWrapOverride); err != nil {
		return nil, err
	}
	if s.ErrorShape, err = ParseErrorShape(m.ErrorShapeOverride); err != nil {
		return nil, err
	}
	if src.Artifact != nil {
		s.ArtifactID = src.Artifact.ArtifactID
		s.WSDLRoot = src.Artifact.RootPath
		s.WSDLFiles = src.Artifact.Files
	}
	s.Backends, s.DefaultBackend = backends(src.Backends, m.DefaultBackendProfileID)
	if s.Grants, err = ParseGrants(src.Grants); err != nil {
		return nil, err
	}
	if s.WSSecurity, err = compileInboundWSS(src); err != nil {
		return nil, err
	}
	if s.RateLimit, err = compileRateLimit(src.RateLimit, s.ID); err != nil {
		return nil, err
	}
	ops := make([]*Operation, 0, len(src.Operations))
	for _, o := range src.Operations {
		key, cacheable := opKey(src, o)
		var op *Operation
		if cacheable {
			op = src.Ops.get(key)
		}
		if op == nil {
			var err error
			if op, err = compileOperation(src, o); err != nil {
				return nil, fmt.Errorf("operation %s: %w", o.OperationKey, err)
			}
			if cacheable {
				src.Ops.put(key, op)
			}
		}
		ops = append(ops, op)
	}
	return NewService(s, ops), nil
}

func orDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

func backends(in []upstream.Backend, defaultID *string) ([]*Backend, *Backend) {
	out := make([]*Backend, len(in))
	for i := range in {
		out[i] = &Backend{Backend: in[i]}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Profile, out[j].Profile
		if a.RoutingPriority != b.RoutingPriority {
			return a.RoutingPriority < b.RoutingPriority
		}
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return a.ProfileID < b.ProfileID
	})
	if len(out) == 0 {
		return out, nil
	}
	if defaultID != nil {
		for _, b := range out {
			if b.ID() == *defaultID {
				return out, b
			}
		}
	}
	return out, out[0]
}

// ParseGrants parses consumer IP grants: CIDRs, or single addresses as
// one-address prefixes.
func ParseGrants(cidrs []string) ([]netip.Prefix, error) {
	out := make([]netip.Prefix, 0, len(cidrs))
	for _, c := range cidrs {
		c = strings.TrimSpace(c)
		if p, err := netip.ParsePrefix(c); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(c)
		if err != nil {
			return nil, fmt.Errorf("consumer grant %q: not a CIDR or an IP address", c)
		}
		out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return out, nil
}

func compileOperation(src Source, o model.Operation) (*Operation, error) {
	op := &Operation{
		ID:                 o.OperationID,
		Key:                o.OperationKey,
		SOAPName:           o.SOAPOperationName,
		SOAPNamespace:      o.SOAPNamespace,
		SOAPAction:         o.SOAPAction,
		ExecutionMode:      orDefault(o.ExecutionMode, model.ExecutionSync),
		ResponseValidation: orDefault(o.ResponseValidation, model.ValidationStrict),
		Timeout:            src.DefaultTimeout,
		Retries:            src.DefaultRetries,
	}
	op.SetPath(orDefault(strings.ToUpper(o.RestMethod), "POST"), orDefault(o.RestPath, "/"+o.OperationKey))
	if o.TimeoutMs != nil {
		op.Timeout = time.Duration(*o.TimeoutMs) * time.Millisecond
	}
	if o.RetryCount != nil {
		op.Retries = *o.RetryCount
	}
	v := soap.V11
	if o.SOAPVersion != "" {
		var err error
		if v, err = soap.ParseVersion(o.SOAPVersion); err != nil {
			return nil, err
		}
	}
	op.SOAPVersion = v
	if mp, ok := src.Mappings[o.OperationID]; ok {
		op.RequestMapping, op.ResponseMapping, op.FaultMapping = mp.RequestMapping, mp.ResponseMapping, mp.FaultMapping
		var err error
		if op.RequestRenamer, err = ParseRenamer(mp.RequestMapping); err != nil {
			return nil, fmt.Errorf("request mapping: %w", err)
		}
		if op.ResponseRenamer, err = ParseRenamer(mp.ResponseMapping); err != nil {
			return nil, fmt.Errorf("response mapping: %w", err)
		}
		if op.FaultPicker, err = ParsePicker(mp.FaultMapping); err != nil {
			return nil, err
		}
		if op.FaultRenamer, err = ParseRenamer(mp.FaultMapping); err != nil {
			return nil, fmt.Errorf("fault mapping: %w", err)
		}
	}
	for _, r := range o.ValidationRules {
		fr, err := CompileRule(r)
		if err != nil {
			return nil, err
		}
		if r.Target == model.TargetResponse {
			op.ResponseRules = append(op.ResponseRules, fr)
		} else {
			op.RequestRules = append(op.RequestRules, fr)
		}
	}
	if len(o.TransformRules) > 0 {
		p, err := transform.Compile(o.TransformRules)
		if err != nil {
			return nil, err
		}
		op.Transform = p
	}
	if src.Contract == nil {
		return op, nil
	}
	c, ok := src.Contract.Operation(src.Version.WSDLService, src.Version.WSDLPort, o.SOAPOperationName)
	if !ok {
		return nil, fmt.Errorf("the contract has no operation %q", o.SOAPOperationName)
	}
	if err := compileContract(op, c); err != nil {
		return nil, err
	}
	return op, nil
}

// compileContract compiles the plans and JSON Schemas of the contract.
func compileContract(op *Operation, c *xsd.Operation) error {
	op.Contract = c
	in := convert.OptionsFor(c)
	in.OmitDeclarations = true
	var err error
	if op.Request, err = convert.Compile(c.Input, in); err != nil {
		return fmt.Errorf("request plan: %w", err)
	}
	for _, ns := range op.Request.Namespaces() {
		op.Namespaces = append(op.Namespaces, soap.NSDecl{Prefix: ns.Prefix, URI: ns.URI})
	}
	reqDoc := xsd.MessageJSONSchema(c.Input, xsd.JSONSchemaOptions{})
	if op.RequestSchema, err = CompileSchema("mem://s2r/"+op.ID+"/request.json", reqDoc.Document()); err != nil {
		return fmt.Errorf("request schema: %w", err)
	}
	op.Params = paramKinds(reqDoc.Root)
	op.RequestSchemaCheck = needsSchemaCheck(c.Input)
	op.ResponseSchemaCheck = needsSchemaCheck(c.Output)
	if err := compileContractHeaders(op, c); err != nil {
		return err
	}
	if c.Output != nil {
		if op.Response, err = convert.Compile(c.Output, convert.OptionsFor(c)); err != nil {
			return fmt.Errorf("response plan: %w", err)
		}
		if op.ResponseValidation != model.ValidationStrict {
			lax := convert.OptionsFor(c)
			lax.Lax = true
			if op.LaxResponse, err = convert.Compile(c.Output, lax); err != nil {
				return fmt.Errorf("lax response plan: %w", err)
			}
		}
		doc := xsd.MessageJSONSchema(c.Output, xsd.JSONSchemaOptions{}).Document()
		if op.ResponseSchema, err = CompileSchema("mem://s2r/"+op.ID+"/response.json", doc); err != nil {
			return fmt.Errorf("response schema: %w", err)
		}
	}
	compileFaults(op, c)
	return nil
}

// compileFaults sets the operation's declared fault detail plans.
func compileFaults(op *Operation, c *xsd.Operation) { op.Faults = FaultPlans(c) }

// FaultPlans compiles the detail of each declared fault
// (xsd.Fault.DetailMessage: keyed by the detail element's local name),
// indexed by the name of the detail element that selects it; nil when
// none. A fault that does not compile has its detail converted naively.
func FaultPlans(c *xsd.Operation) map[[2]string]*convert.Plan {
	var plans map[[2]string]*convert.Plan
	for _, f := range c.Faults {
		msg := f.DetailMessage()
		if msg == nil {
			continue
		}
		plan, err := convert.Compile(msg, convert.OptionsFor(c))
		if err != nil {
			continue
		}
		for _, p := range msg.Parts {
			name := [2]string{"", p.Name}
			if p.Element != nil {
				name = [2]string{p.Element.Name.Space, p.Element.Name.Local}
			}
			if plans == nil {
				plans = map[[2]string]*convert.Plan{}
			}
			plans[name] = plan
		}
	}
	return plans
}

// paramKinds reads the JSON kind of each top-level member of a request
// schema root.
func paramKinds(root map[string]any) map[string]ParamKind {
	props, _ := root["properties"].(map[string]any)
	out := make(map[string]ParamKind, len(props))
	for name, v := range props {
		sch, _ := v.(map[string]any)
		out[name] = kindOfSchema(sch)
	}
	return out
}

func kindOfSchema(s map[string]any) ParamKind {
	t, _ := s["type"].(string)
	if ts, ok := s["type"].([]any); ok && len(ts) > 0 {
		t, _ = ts[0].(string)
	}
	switch t {
	case "integer", "number":
		return ParamNumber
	case "boolean":
		return ParamBoolean
	case "array":
		items, _ := s["items"].(map[string]any)
		switch kindOfSchema(items) {
		case ParamNumber:
			return ParamNumberArray
		case ParamBoolean:
			return ParamBooleanArray
		}
		return ParamArray
	}
	for _, k := range []string{"oneOf", "anyOf"} {
		if alts, ok := s[k].([]any); ok && len(alts) > 0 {
			if first, ok := alts[0].(map[string]any); ok {
				return kindOfSchema(first)
			}
		}
	}
	return ParamString
}
