package routing

import (
	"net/netip"
	"slices"
	"time"

	"github.com/s2r-project/s2r/internal/limit"
	"github.com/s2r-project/s2r/internal/upstream"
	"github.com/s2r-project/s2r/internal/wsdl"
	"github.com/s2r-project/s2r/internal/wssec"
)

// Service is the compiled runtime configuration of one active service with
// an active version. It is immutable.
type Service struct {
	ID          string
	ServiceKey  string
	Name        string
	Environment string
	Direction   string
	Status      string
	VersionID   string

	DebugEnabled bool
	// FaultDetailExposure is "safe" or "full".
	FaultDetailExposure string
	// EnvelopeWrap is the parsed envelopeWrapOverride, nil for none.
	EnvelopeWrap *EnvelopeWrap
	// ErrorShape is the parsed errorShapeOverride, nil for the SPEC 7.1
	// shape.
	ErrorShape       *ErrorShape
	CallbackAuthMode string
	// CallbackSecret is the opened shared secret of async callbacks; nil
	// when none is set (or it does not open). Never logged or rendered.
	CallbackSecret []byte

	RoutingMode         string
	HealthCheckMode     string
	HealthCheckInterval time.Duration
	// Backends are sorted by routingPriority (then name, then id).
	Backends []*Backend
	// DefaultBackend is the preferred backend of single mode: the profile
	// named by defaultBackendProfileId, else the first of Backends; nil
	// when the service has no backend.
	DefaultBackend *Backend
	// Grants are the consumer IP grants (gateway); empty grants nobody.
	Grants []netip.Prefix
	// WSSecurity checks the wsse:Security header of consume and gateway
	// requests (DESIGN 10.2), compiled once from the service's inbound
	// policy; nil when the mode is off.
	WSSecurity *wssec.Verifier
	// RateLimit is the service's rate limit per client (DESIGN 10.6);
	// nil: none.
	RateLimit *limit.Policy

	// Contract is the parsed WSDL of the active version (shared, read-only);
	// nil for a version without an artifact.
	Contract   *wsdl.Definitions
	ArtifactID string
	// WSDLRoot is the path of the root WSDL among WSDLFiles, the stored
	// files of the import, for WSDL serving.
	WSDLRoot  string
	WSDLFiles map[string][]byte
	WSDLPort  string
	WSDLName  string

	// Operations in their stored order.
	Operations []*Operation
	byKey      map[string]*Operation
	byAction   map[string]*Operation
	byElement  map[[2]string]*Operation
}

// Key returns the route key of the service.
func (s *Service) Key() Key {
	return Key{Direction: s.Direction, Environment: s.Environment, ServiceKey: s.ServiceKey}
}

// Backend is one backend profile of a service with its credentials opened.
// The secrets live only in memory: they are never logged or rendered.
type Backend struct {
	upstream.Backend
}

// ID returns the profile id.
func (b *Backend) ID() string { return b.Profile.ProfileID }

// NewService indexes ops into s and returns s. It is what the loader calls
// once every field is set; tests build services the same way.
func NewService(s *Service, ops []*Operation) *Service {
	s.Operations = ops
	s.byKey = make(map[string]*Operation, len(ops))
	s.byAction = make(map[string]*Operation, len(ops))
	s.byElement = make(map[[2]string]*Operation, len(ops))
	for _, op := range ops {
		if _, dup := s.byKey[op.Key]; !dup {
			s.byKey[op.Key] = op
		}
		if op.SOAPAction != "" {
			if _, dup := s.byAction[op.SOAPAction]; !dup {
				s.byAction[op.SOAPAction] = op
			}
		}
		if ns, local, ok := op.InputElement(); ok {
			k := [2]string{ns, local}
			if _, dup := s.byElement[k]; !dup {
				s.byElement[k] = op
			}
		}
	}
	return s
}

// Operation returns the operation with operationKey key, or nil.
func (s *Service) Operation(key string) *Operation { return s.byKey[key] }

// OperationByAction returns the operation whose SOAP action is action, or
// nil (consume: SOAPAction or the SOAP 1.2 action parameter).
func (s *Service) OperationByAction(action string) *Operation { return s.byAction[action] }

// OperationByElement returns the operation whose request body element is
// {ns}local, or nil (consume, when the action does not decide).
func (s *Service) OperationByElement(ns, local string) *Operation {
	return s.byElement[[2]string{ns, local}]
}

// MatchREST returns the operation whose restMethod and restPath match
// method and path, with the path parameters. When the path matches an
// operation but not with this method, methodMismatch is true (405).
func (s *Service) MatchREST(method, path string) (op *Operation, params []PathParam, methodMismatch bool) {
	for _, o := range s.Operations {
		p, ok := o.path.Match(path)
		if !ok {
			continue
		}
		if o.RESTMethod != method {
			methodMismatch = true
			continue
		}
		return o, p, false
	}
	return nil, nil, methodMismatch
}

// MethodsFor returns the REST methods the operations answer on path,
// sorted and without repeats: the Allow header of a 405.
func (s *Service) MethodsFor(path string) []string {
	var methods []string
	for _, o := range s.Operations {
		if _, ok := o.path.Match(path); ok && !slices.Contains(methods, o.RESTMethod) {
			methods = append(methods, o.RESTMethod)
		}
	}
	slices.Sort(methods)
	return methods
}
