package admin

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/catalog"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/wsdl"
	"github.com/s2r-project/s2r/internal/xsd"
)

// autopilotOptions are the DESIGN 8 fields besides the contract, plus the
// optional choice of WSDL service, port or SOAP version.
type autopilotOptions struct {
	Environment string
	ServiceKey  string
	ServiceName string
	Direction   string
	BackendURL  string
	WSDLService string
	WSDLPort    string
	SOAPVersion string
}

// autopilotFormFields are the multipart fields of the autopilot and
// generate-service forms.
var autopilotFormFields = []string{"environment", "serviceKey", "serviceName", "direction", "backendUrl",
	"wsdlService", "wsdlPort", "soapVersion", "rootPath"}

// optionsFromForm reads the options from multipart fields.
func optionsFromForm(f map[string]string) autopilotOptions {
	return autopilotOptions{Environment: f["environment"], ServiceKey: f["serviceKey"], ServiceName: f["serviceName"],
		Direction: f["direction"], BackendURL: f["backendUrl"], WSDLService: f["wsdlService"], WSDLPort: f["wsdlPort"],
		SOAPVersion: f["soapVersion"]}
}

// validate checks the options that do not depend on the contract and
// fills the default direction.
func (o *autopilotOptions) validate() error {
	switch {
	case o.Environment == "":
		return adminapi.FieldError("environment", "is required")
	case !serviceKeyPattern.MatchString(o.Environment):
		return adminapi.FieldError("environment", "must be 1 to 63 lower-case letters, digits and dashes, starting with a letter or digit")
	case o.ServiceKey != "" && !serviceKeyPattern.MatchString(o.ServiceKey):
		return adminapi.FieldError("serviceKey", "must be 1 to 63 lower-case letters, digits and dashes, starting with a letter or digit")
	case utf8.RuneCountInString(o.ServiceName) > 200:
		return adminapi.FieldError("serviceName", "must be at most 200 characters")
	}
	switch o.Direction {
	case "":
		o.Direction = model.DirectionPublish
	case model.DirectionPublish, model.DirectionConsume, model.DirectionGateway:
	default:
		return adminapi.FieldError("direction", "must be publish, consume or gateway")
	}
	switch o.SOAPVersion {
	case "", wsdl.SOAP11, wsdl.SOAP12:
	default:
		return adminapi.FieldError("soapVersion", "must be 1.1 or 1.2")
	}
	if o.BackendURL != "" {
		if err := checkBackendURL(o.BackendURL); err != nil {
			return err
		}
	}
	return nil
}

// checkBackendURL accepts an absolute http or https URL without userinfo.
func checkBackendURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return adminapi.FieldError("backendUrl", "must be an absolute http or https URL")
	}
	if u.User != nil {
		return adminapi.FieldError("backendUrl", "must not carry credentials; set them on the backend profile")
	}
	return nil
}

// choosePort picks the WSDL service and SOAP port to draft from. With
// soapVersion set, the first port of that version (in the named service
// and port, if given) wins; otherwise catalog.SelectPort: the named
// service/port, else the first service's SOAP 1.1 port, else its SOAP 1.2
// port.
func choosePort(defs *wsdl.Definitions, o autopilotOptions) (string, *wsdl.Port, error) {
	if o.SOAPVersion == "" {
		svc, p, err := catalog.SelectPort(defs, o.WSDLService, o.WSDLPort)
		if err != nil {
			return "", nil, portError(o, err)
		}
		return svc, p, nil
	}
	for _, svc := range defs.Services {
		if o.WSDLService != "" && svc.Name != o.WSDLService {
			continue
		}
		for _, p := range svc.Ports {
			if p.Skipped == "" && p.SOAPVersion == o.SOAPVersion && (o.WSDLPort == "" || p.Name == o.WSDLPort) {
				return svc.Name, p, nil
			}
		}
	}
	return "", nil, adminapi.FieldError("soapVersion", "no SOAP "+o.SOAPVersion+" port matches the choice")
}

// portError names the option a failed port choice concerns.
func portError(o autopilotOptions, err error) error {
	field := "wsdlService"
	if o.WSDLPort != "" {
		field = "wsdlPort"
	} else if o.WSDLService == "" {
		field = ""
	}
	return adminapi.FieldError(field, err.Error())
}

// deriveServiceKey is the documented rule: the lower-kebab-case of the WSDL
// service name (catalog.OperationKey's rule): CountryInfoService →
// country-info-service.
func deriveServiceKey(wsdlService string) string { return catalog.OperationKey(wsdlService) }

// planFromDefs drafts the operations of the chosen port with auto
// mappings. A port that binds no operation is blamed on field (empty when
// the caller did not name the port).
func planFromDefs(defs *wsdl.Definitions, artifactID, service string, port *wsdl.Port, field string) (draftPlan, error) {
	ops, err := catalog.DraftOperations(defs, service, port.Name)
	if err != nil {
		return draftPlan{}, adminapi.FieldError(field, err.Error())
	}
	plan := draftPlan{artifactID: &artifactID, wsdlService: service, wsdlPort: port.Name, ops: ops, maps: make([]model.Mapping, len(ops))}
	for i := range ops {
		// DraftOperations keeps the port's contract order, so the contract
		// is at the same index (a lookup by name would scan every
		// operation of the WSDL each time).
		var c *xsd.Operation
		if i < len(port.Operations) && port.Operations[i].Name == ops[i].SOAPOperationName {
			c = port.Operations[i]
		} else {
			c = catalog.Contract(defs, service, port.Name, ops[i])
		}
		plan.maps[i] = catalog.AutoMapping(c)
	}
	return plan, nil
}

// autopilotPlan is everything autopilot writes, decided before the
// transaction starts.
type autopilotPlan struct {
	store      *parsedImport // the import to store; nil when the artifact exists
	artifact   model.Artifact
	defs       *wsdl.Definitions
	service    model.Service
	draft      draftPlan
	backendURL string
}

// planAutopilot chooses the port, derives the service and drafts the
// operations.
func (s *server) planAutopilot(a model.Artifact, defs *wsdl.Definitions, o autopilotOptions) (*autopilotPlan, error) {
	svcName, port, err := choosePort(defs, o)
	if err != nil {
		return nil, err
	}
	portField := ""
	if o.WSDLPort != "" {
		portField = "wsdlPort"
	}
	draft, err := planFromDefs(defs, a.ArtifactID, svcName, port, portField)
	if err != nil {
		return nil, err
	}
	backendURL := o.BackendURL
	if backendURL == "" {
		if err := checkBackendURL(port.Address); err != nil {
			return nil, adminapi.FieldError("backendUrl", "the WSDL port "+port.Name+" has no usable http(s) soap:address; give backendUrl")
		}
		backendURL = port.Address
	}
	svc := s.newService()
	svc.Environment, svc.Direction = o.Environment, o.Direction
	svc.ServiceKey, svc.ServiceName = o.ServiceKey, o.ServiceName
	if svc.ServiceKey == "" {
		svc.ServiceKey = deriveServiceKey(svcName)
	}
	if svc.ServiceName == "" {
		svc.ServiceName = svcName
	}
	return &autopilotPlan{artifact: a, defs: defs, service: svc, draft: draft, backendURL: backendURL}, nil
}

// autopilotResult is the 201 answer of autopilot and generate-service: at
// least the DESIGN 8 body.
type autopilotResult struct {
	Artifact           artifactView             `json:"artifact"`
	DraftSuggestion    draftSuggestion          `json:"draftSuggestion"`
	Service            model.Service            `json:"service"`
	Version            model.Version            `json:"version"`
	Operations         []model.Operation        `json:"operations"`
	BackendProfile     model.BackendProfile     `json:"backendProfile"`
	MappingDiagnostics mappingDiagnosticsBrief  `json:"mappingDiagnostics"`
	PublishReadiness   *catalog.ReadinessReport `json:"publishReadiness"`
}

// draftSuggestion says what autopilot chose and why.
type draftSuggestion struct {
	ServiceKey         string `json:"serviceKey"`
	ServiceKeyDerived  bool   `json:"serviceKeyDerived"`
	WSDLService        string `json:"wsdlService"`
	WSDLPort           string `json:"wsdlPort"`
	SOAPVersion        string `json:"soapVersion"`
	BackendURL         string `json:"backendUrl"`
	BackendURLFromWSDL bool   `json:"backendUrlFromWsdl"`
}

// mappingDiagnosticsBrief is the mapping diagnostics of the draft: the
// summary counters and each operation's status.
type mappingDiagnosticsBrief struct {
	Summary    catalog.Summary                `json:"summary"`
	Operations map[string]catalog.Diagnostics `json:"operations"`
}

// runAutopilot writes the plan in ONE transaction (artifact if new,
// service, draft version, operations, auto mappings, backend profile,
// their audit events and a revision bump) and assesses the draft. Nothing
// is left behind when any step fails.
func (s *server) runAutopilot(r *http.Request, p *autopilotPlan, o autopilotOptions) (*autopilotResult, error) {
	ctx := r.Context()
	res := &autopilotResult{Artifact: viewArtifact(p.artifact, false)}
	err := s.store.Transact(ctx, func(tx *store.Tx) error {
		if _, err := tx.BumpRevision(ctx); err != nil {
			return err
		}
		if p.store != nil {
			if err := storeArtifact(r, tx, p.store); err != nil {
				return err
			}
		}
		if err := createServiceTx(r, tx, p.service); err != nil {
			return err
		}
		draft, err := s.writeDraftTx(ctx, r, tx, p.service.ServiceID, p.draft, "autopilot import", nil)
		if err != nil {
			return err
		}
		res.Version, res.Operations = draft.Version, draft.Operations
		res.BackendProfile, err = s.createImportBackendProfile(r, tx, p.service, p.backendURL)
		if err != nil {
			return err
		}
		res.Service, err = tx.Service(ctx, p.service.ServiceID)
		return err
	})
	if err != nil {
		return nil, err
	}
	s.contracts.Prime(p.artifact, p.defs)
	report, err := s.readinessOf(ctx, s.store, res.Service, res.Version)
	if err != nil {
		return nil, err
	}
	res.PublishReadiness = &report
	res.MappingDiagnostics = mappingDiagnosticsBrief{Summary: report.MappingSummary, Operations: map[string]catalog.Diagnostics{}}
	for _, op := range res.Operations {
		if d, ok := report.MappingDiagnostics[op.OperationID]; ok {
			res.MappingDiagnostics.Operations[op.OperationKey] = d
		}
	}
	res.DraftSuggestion = draftSuggestion{ServiceKey: res.Service.ServiceKey, ServiceKeyDerived: o.ServiceKey == "",
		WSDLService: p.draft.wsdlService, WSDLPort: p.draft.wsdlPort, SOAPVersion: soapVersionOf(p.defs, p.draft),
		BackendURL: p.backendURL, BackendURLFromWSDL: o.BackendURL == ""}
	return res, nil
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
		return serviceConflict(err)
	}
	return tx.InsertAudit(ctx, adminapi.AuditEvent(r, "service.create", "service", svc.ServiceID,
		"created service "+svc.ServiceKey+" ("+svc.Direction+", "+svc.Environment+") by autopilot", nil, svc))
}

// soapVersionOf returns the SOAP version of the drafted port.
func soapVersionOf(defs *wsdl.Definitions, d draftPlan) string {
	for _, svc := range defs.Services {
		for _, p := range svc.Ports {
			if svc.Name == d.wsdlService && p.Name == d.wsdlPort {
				return p.SOAPVersion
			}
		}
	}
	return ""
}

// autopilotFromSource parses a new import and runs autopilot on it.
func (s *server) autopilotFromSource(r *http.Request, src *importSource, o autopilotOptions) (*autopilotResult, error) {
	if err := o.validate(); err != nil {
		return nil, err
	}
	parsed, err := s.parseSource(r.Context(), src)
	if err != nil {
		return nil, err
	}
	p, err := s.planAutopilot(parsed.artifact, parsed.defs, o)
	if err != nil {
		return nil, err
	}
	p.store = parsed
	return s.runAutopilot(r, p, o)
}

// autopilotFromArtifact runs autopilot on a stored import.
func (s *server) autopilotFromArtifact(r *http.Request, artifactID string, o autopilotOptions) (*autopilotResult, error) {
	if err := o.validate(); err != nil {
		return nil, err
	}
	a, err := s.loadArtifact(r, artifactID)
	if err != nil {
		return nil, err
	}
	defs, err := s.contracts.Definitions(r.Context(), artifactID)
	if err != nil {
		return nil, importError(err)
	}
	p, err := s.planAutopilot(a, defs, o)
	if err != nil {
		return nil, err
	}
	return s.runAutopilot(r, p, o)
}

// answerAutopilot writes the 201.
func answerAutopilot(w http.ResponseWriter, res *autopilotResult) error {
	w.Header().Set("Location", Prefix+"/services/"+res.Service.ServiceID+"/versions/"+res.Version.VersionID)
	return adminapi.WriteJSON(w, http.StatusCreated, res)
}

// trimOptions trims surrounding blanks of every option.
func trimOptions(o autopilotOptions) autopilotOptions {
	for _, f := range []*string{&o.Environment, &o.ServiceKey, &o.ServiceName, &o.Direction, &o.BackendURL,
		&o.WSDLService, &o.WSDLPort, &o.SOAPVersion} {
		*f = strings.TrimSpace(*f)
	}
	return o
}
