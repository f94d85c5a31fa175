package onboarding

import (
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/s2r-project/s2r/internal/admin/drafts"
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/catalog"
	"github.com/s2r-project/s2r/internal/model"
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

// choosePorts picks the WSDL ports to draft services from. A named port
// (wsdlPort) gives that one port: with soapVersion, the first port of that
// version named so (within wsdlService when given), otherwise
// catalog.SelectPort. Without one, catalog.SelectPortTypes: one port per
// distinct SOAP port type of the named service (every service when none is
// named), SOAP 1.1 preferred, of soapVersion when given.
func choosePorts(defs *wsdl.Definitions, o autopilotOptions) ([]catalog.PortChoice, error) {
	if o.WSDLPort == "" {
		choices, err := catalog.SelectPortTypes(defs, o.WSDLService, o.SOAPVersion)
		if err != nil {
			return nil, portError(o, err)
		}
		return choices, nil
	}
	if o.SOAPVersion == "" {
		svc, p, err := catalog.SelectPort(defs, o.WSDLService, o.WSDLPort)
		if err != nil {
			return nil, portError(o, err)
		}
		return []catalog.PortChoice{{Service: svc, Port: p}}, nil
	}
	for _, svc := range defs.Services {
		if o.WSDLService != "" && svc.Name != o.WSDLService {
			continue
		}
		for _, p := range svc.Ports {
			if p.Skipped == "" && p.SOAPVersion == o.SOAPVersion && p.Name == o.WSDLPort {
				return []catalog.PortChoice{{Service: svc.Name, Port: p}}, nil
			}
		}
	}
	return nil, adminapi.FieldError("soapVersion", "no SOAP "+o.SOAPVersion+" port matches the choice")
}

// portError names the option a failed port choice concerns.
func portError(o autopilotOptions, err error) error {
	field := ""
	switch {
	case o.WSDLPort != "":
		field = "wsdlPort"
	case o.SOAPVersion != "":
		field = "soapVersion"
	case o.WSDLService != "":
		field = "wsdlService"
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
func planFromDefs(defs *wsdl.Definitions, artifactID, service string, port *wsdl.Port, field string) (drafts.Plan, error) {
	ops, err := catalog.DraftOperations(defs, service, port.Name)
	if err != nil {
		return drafts.Plan{}, adminapi.FieldError(field, err.Error())
	}
	plan := drafts.Plan{ArtifactID: &artifactID, WSDLService: service, WSDLPort: port.Name, Ops: ops, Maps: make([]model.Mapping, len(ops))}
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
		plan.Maps[i] = catalog.AutoMapping(c)
	}
	return plan, nil
}

// autopilotPlan is everything autopilot writes, decided before the
// transaction starts: the import and one service per chosen port.
type autopilotPlan struct {
	store    *parsedImport // the import to store; nil when the artifact exists
	artifact model.Artifact
	defs     *wsdl.Definitions
	services []servicePlan
}

// servicePlan is one service autopilot creates: the service, its draft and
// the backend URL of its default profile ("" when neither given nor usable
// in the WSDL: the draft is then BLOCKED until one is set), with what was
// chosen and why.
type servicePlan struct {
	service    model.Service
	draft      drafts.Plan
	backendURL string
	suggestion DraftSuggestion
}

// planAutopilot chooses the ports, derives the services and drafts their
// operations.
func (s *Handlers) planAutopilot(a model.Artifact, defs *wsdl.Definitions, o autopilotOptions) (*autopilotPlan, error) {
	choices, err := choosePorts(defs, o)
	if err != nil {
		return nil, err
	}
	portField := ""
	if o.WSDLPort != "" {
		portField = "wsdlPort"
	}
	firstKey := o.ServiceKey
	if firstKey == "" {
		firstKey = deriveServiceKey(choices[0].Service)
	}
	portTypes := make([]string, len(choices))
	for i, c := range choices {
		portTypes[i] = c.Port.PortType.Local
	}
	keys := catalog.ServiceKeys(firstKey, portTypes)
	plan := &autopilotPlan{artifact: a, defs: defs}
	for i, c := range choices {
		draft, err := planFromDefs(defs, a.ArtifactID, c.Service, c.Port, portField)
		if err != nil {
			return nil, err
		}
		sp := servicePlan{draft: draft, backendURL: o.BackendURL}
		if sp.backendURL == "" && checkBackendURL(c.Port.Address) == nil {
			sp.backendURL = c.Port.Address
		}
		sp.service = drafts.NewService(s.now())
		sp.service.Environment, sp.service.Direction, sp.service.ServiceKey = o.Environment, o.Direction, keys[i]
		sp.service.ServiceName = serviceNameFor(o.ServiceName, c, i)
		sp.suggestion = DraftSuggestion{ServiceKey: keys[i], ServiceKeyDerived: i > 0 || o.ServiceKey == "",
			WSDLService: c.Service, WSDLPort: c.Port.Name, PortType: c.Port.PortType.Local, SOAPVersion: c.Port.SOAPVersion,
			BackendURL: sp.backendURL, BackendURLFromWSDL: o.BackendURL == "" && sp.backendURL != "", WSDLAddress: c.Port.Address}
		plan.services = append(plan.services, sp)
	}
	return plan, nil
}

// serviceNameFor is the name of the i-th service of an autopilot run: the
// given serviceName or the WSDL service name; services after the first add
// their port type in parentheses, so names stay distinguishable.
func serviceNameFor(given string, c catalog.PortChoice, i int) string {
	name := given
	if name == "" {
		name = c.Service
	}
	if i > 0 {
		name += " (" + c.Port.PortType.Local + ")"
	}
	if r := []rune(name); len(r) > maxServiceNameRunes {
		name = string(r[:maxServiceNameRunes])
	}
	return name
}

// maxServiceNameRunes bounds service names (the serviceName field's limit).
const maxServiceNameRunes = 200

// autopilotFromSource parses a new import and runs autopilot on it.
func (s *Handlers) autopilotFromSource(r *http.Request, src *importSource, o autopilotOptions) (*AutopilotResult, error) {
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
	return s.runAutopilot(r, p)
}

// autopilotFromArtifact runs autopilot on a stored import.
func (s *Handlers) autopilotFromArtifact(r *http.Request, artifactID string, o autopilotOptions) (*AutopilotResult, error) {
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
	return s.runAutopilot(r, p)
}

// answerAutopilot writes the 201.
func answerAutopilot(w http.ResponseWriter, res *AutopilotResult) error {
	w.Header().Set("Location", adminapi.Prefix+"/services/"+res.Service.ServiceID+"/versions/"+res.Version.VersionID)
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
