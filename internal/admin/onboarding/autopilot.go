package onboarding

import (
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/s2r-project/s2r/internal/admin/drafts"
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/wsdl"
)

// Options are the DESIGN 8 fields besides the contract, plus the
// optional choice of WSDL service, port or SOAP version.
type Options struct {
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
func optionsFromForm(f map[string]string) Options {
	return Options{Environment: f["environment"], ServiceKey: f["serviceKey"], ServiceName: f["serviceName"],
		Direction: f["direction"], BackendURL: f["backendUrl"], WSDLService: f["wsdlService"], WSDLPort: f["wsdlPort"],
		SOAPVersion: f["soapVersion"]}
}

// Validate checks the options that do not depend on the contract and
// fills the default direction.
func (o *Options) Validate() error {
	switch {
	case o.Environment == "":
		return adminapi.FieldError("environment", "is required")
	case !drafts.KeyPattern.MatchString(o.Environment):
		return adminapi.FieldError("environment", "must be 1 to 63 lower-case letters, digits and dashes, starting with a letter or digit")
	case o.ServiceKey != "" && !drafts.KeyPattern.MatchString(o.ServiceKey):
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

// autopilotPlan is everything autopilot writes, decided before the
// transaction starts: the import and one service per chosen port.
type autopilotPlan struct {
	store    *parsedImport // the import to store; nil when the artifact exists
	artifact model.Artifact
	defs     *wsdl.Definitions
	services []ServicePlan
}

// planAutopilot chooses the ports, derives the services and drafts their
// operations (PlanServices).
func (s *Handlers) planAutopilot(a model.Artifact, defs *wsdl.Definitions, o Options) (*autopilotPlan, error) {
	services, err := PlanServices(defs, a.ArtifactID, o, s.now())
	if err != nil {
		return nil, err
	}
	return &autopilotPlan{artifact: a, defs: defs, services: services}, nil
}

// autopilotFromSource parses a new import and runs autopilot on it.
func (s *Handlers) autopilotFromSource(r *http.Request, src *importSource, o Options) (*AutopilotResult, error) {
	if err := o.Validate(); err != nil {
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
	return s.runAutopilot(r, p)
}

// autopilotFromArtifact runs autopilot on a stored import.
func (s *Handlers) autopilotFromArtifact(r *http.Request, artifactID string, o Options) (*AutopilotResult, error) {
	if err := o.Validate(); err != nil {
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
	return s.runAutopilot(r, p)
}

// answerAutopilot writes the 201.
func answerAutopilot(w http.ResponseWriter, res *AutopilotResult) error {
	w.Header().Set("Location", adminapi.Prefix+"/services/"+res.Service.ServiceID+"/versions/"+res.Version.VersionID)
	return adminapi.WriteJSON(w, http.StatusCreated, res)
}

// trimOptions trims surrounding blanks of every option.
func trimOptions(o Options) Options {
	for _, f := range []*string{&o.Environment, &o.ServiceKey, &o.ServiceName, &o.Direction, &o.BackendURL,
		&o.WSDLService, &o.WSDLPort, &o.SOAPVersion} {
		*f = strings.TrimSpace(*f)
	}
	return o
}
