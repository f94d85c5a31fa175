package onboarding

import (
	"errors"
	"net/http"

	"github.com/s2r-project/s2r/internal/admin/drafts"
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/catalog"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

// AutopilotResult is the 201 answer of autopilot and generate-service: the
// DESIGN 8 body for the first service, plus services (every service the
// call created, the first included) and, in operations, every operation
// the call onboarded with its serviceId.
type AutopilotResult struct {
	Artifact           ArtifactView             `json:"artifact"`
	DraftSuggestion    DraftSuggestion          `json:"draftSuggestion"`
	Service            model.Service            `json:"service"`
	Version            model.Version            `json:"version"`
	Operations         []onboardedOperation     `json:"operations"`
	BackendProfile     model.BackendProfile     `json:"backendProfile"`
	MappingDiagnostics mappingDiagnosticsBrief  `json:"mappingDiagnostics"`
	PublishReadiness   *catalog.ReadinessReport `json:"publishReadiness"`
	Services           []onboardedService       `json:"services"`
}

// onboardedService is one service an autopilot call created: what was
// chosen, the service, its draft version, default backend profile, mapping
// diagnostics and publish readiness.
type onboardedService struct {
	DraftSuggestion    DraftSuggestion          `json:"draftSuggestion"`
	Service            model.Service            `json:"service"`
	Version            model.Version            `json:"version"`
	BackendProfile     model.BackendProfile     `json:"backendProfile"`
	MappingDiagnostics mappingDiagnosticsBrief  `json:"mappingDiagnostics"`
	PublishReadiness   *catalog.ReadinessReport `json:"publishReadiness"`
	operations         []model.Operation
}

// onboardedOperation is an operation of the draft with the service it
// belongs to.
type onboardedOperation struct {
	model.Operation
	ServiceID string `json:"serviceId"`
}

// DraftSuggestion says what autopilot chose for one service and why.
// backendUrl is empty when the WSDL's address (wsdlAddress) is not an
// absolute http(s) URL and none was given: the draft is then BLOCKED until
// the backend profile gets one.
type DraftSuggestion struct {
	ServiceKey         string `json:"serviceKey"`
	ServiceKeyDerived  bool   `json:"serviceKeyDerived"`
	WSDLService        string `json:"wsdlService"`
	WSDLPort           string `json:"wsdlPort"`
	PortType           string `json:"portType"`
	SOAPVersion        string `json:"soapVersion"`
	BackendURL         string `json:"backendUrl"`
	BackendURLFromWSDL bool   `json:"backendUrlFromWsdl"`
	WSDLAddress        string `json:"wsdlAddress"`
}

// mappingDiagnosticsBrief is the mapping diagnostics of the draft: the
// summary counters and each operation's status.
type mappingDiagnosticsBrief struct {
	Summary    catalog.Summary                `json:"summary"`
	Operations map[string]catalog.Diagnostics `json:"operations"`
}

// runAutopilot writes the plan in ONE transaction (artifact if new, and for
// every planned service: the service, its draft version, operations, auto
// mappings, backend profile, their audit events; a revision bump) and
// assesses each draft. Nothing is left behind when any step fails: a key
// taken by an existing service refuses the whole call.
func (s *Handlers) runAutopilot(r *http.Request, p *autopilotPlan) (*AutopilotResult, error) {
	ctx := r.Context()
	created := make([]onboardedService, len(p.services))
	err := s.store.ChangeConfig(ctx, func(tx *store.Tx) error {
		if p.store != nil {
			if err := storeArtifact(r, tx, p.store); err != nil {
				return err
			}
		}
		for i, sp := range p.services {
			if err := s.createOnboardedTx(r, tx, sp, &created[i]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.contracts.Prime(p.artifact, p.defs)
	res := &AutopilotResult{Artifact: viewArtifact(p.artifact, false), Operations: []onboardedOperation{}}
	for i := range created {
		c := &created[i]
		if err := s.assessOnboarded(r, c); err != nil {
			return nil, err
		}
		c.DraftSuggestion = p.services[i].Suggestion
		for _, op := range c.operations {
			res.Operations = append(res.Operations, onboardedOperation{Operation: op, ServiceID: c.Service.ServiceID})
		}
	}
	first := created[0]
	res.DraftSuggestion, res.Service, res.Version, res.BackendProfile = first.DraftSuggestion, first.Service, first.Version, first.BackendProfile
	res.MappingDiagnostics, res.PublishReadiness, res.Services = first.MappingDiagnostics, first.PublishReadiness, created
	return res, nil
}

// createOnboardedTx writes one planned service in tx: the service, its
// draft with operations and mappings, and its default backend profile.
func (s *Handlers) createOnboardedTx(r *http.Request, tx *store.Tx, sp ServicePlan, out *onboardedService) error {
	ctx := r.Context()
	if err := createServiceTx(r, tx, sp.Service); err != nil {
		return err
	}
	v, ops, err := drafts.WriteTx(ctx, r, tx, sp.Service.ServiceID, sp.Draft, "autopilot import", nil, s.now)
	if err != nil {
		return err
	}
	out.Version, out.operations = v, ops
	if out.BackendProfile, err = s.createImportBackendProfile(r, tx, sp.Service, sp.BackendURL); err != nil {
		return err
	}
	out.Service, err = tx.Service(ctx, sp.Service.ServiceID)
	return err
}

// assessOnboarded fills the mapping diagnostics and publish readiness of
// a committed service.
func (s *Handlers) assessOnboarded(r *http.Request, c *onboardedService) error {
	report, err := drafts.Readiness(r.Context(), s.contracts, s.store, c.Service, c.Version)
	if err != nil {
		return err
	}
	c.PublishReadiness = &report
	c.MappingDiagnostics = mappingDiagnosticsBrief{Summary: report.MappingSummary, Operations: map[string]catalog.Diagnostics{}}
	for _, op := range c.operations {
		if d, ok := report.MappingDiagnostics[op.OperationID]; ok {
			c.MappingDiagnostics.Operations[op.OperationKey] = d
		}
	}
	return nil
}

// createServiceTx creates the service of an autopilot run with its audit
// event. A service with the same direction, environment and key is 409
// S2R-ADM-0409 naming the existing service: autopilot never adds a suffix,
// so re-running a script cannot create look-alike services.
func createServiceTx(r *http.Request, tx *store.Tx, svc model.Service) error {
	ctx := r.Context()
	existing, err := tx.ServiceByKey(ctx, svc.Direction, svc.Environment, svc.ServiceKey)
	if err == nil {
		return apierr.New(apierr.AdmAlreadyExists, "a "+svc.Direction+" service "+svc.ServiceKey+" already exists in environment "+
			svc.Environment+": give another serviceKey, or draft a new version of it from this import "+
			"(POST /services/{serviceId}/versions with artifactId)").
			WithDetail("field", "serviceKey").WithDetail("serviceKey", svc.ServiceKey).WithDetail("serviceId", existing.ServiceID)
	}
	if !errors.Is(err, store.ErrNotFound) {
		return err
	}
	if err := tx.CreateService(ctx, svc); err != nil {
		return drafts.ServiceConflict(err)
	}
	return tx.InsertAudit(ctx, adminapi.AuditEvent(r, "service.create", "service", svc.ServiceID,
		"created service "+svc.ServiceKey+" ("+svc.Direction+", "+svc.Environment+") by autopilot", nil, svc))
}
