package onboarding

import (
	"time"

	"github.com/s2r-project/s2r/internal/admin/drafts"
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/catalog"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/wsdl"
	"github.com/s2r-project/s2r/internal/xsd"
)

// choosePorts picks the WSDL ports to draft services from. A named port
// (wsdlPort) gives that one port: with soapVersion, the first port of that
// version named so (within wsdlService when given), otherwise
// catalog.SelectPort. Without one, catalog.SelectPortTypes: one port per
// distinct SOAP port type of the named service (every service when none is
// named), SOAP 1.1 preferred, of soapVersion when given.
func choosePorts(defs *wsdl.Definitions, o Options) ([]catalog.PortChoice, error) {
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
func portError(o Options, err error) error {
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
	plan := drafts.Plan{WSDLService: service, WSDLPort: port.Name, Ops: ops, Maps: make([]model.Mapping, len(ops))}
	if artifactID != "" {
		plan.ArtifactID = &artifactID
	}
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

// ServicePlan is one service autopilot creates: the service, its draft and
// the backend URL of its default profile ("" when neither given nor usable
// in the WSDL: the draft is then BLOCKED until one is set), with what was
// chosen and why.
type ServicePlan struct {
	Service    model.Service
	Draft      drafts.Plan
	BackendURL string
	Suggestion DraftSuggestion
}

// PlanServices is autopilot's decision, without storing anything: it
// chooses the ports of defs as o says, derives each service's key and
// name, and drafts its operations with auto mappings (the draft's import
// is artifactID, nil when ""). Services are new (fresh ids, every
// default, created at now); o must have passed Validate. The server's
// autopilot and the offline CLI (internal/offline) both plan with it.
func PlanServices(defs *wsdl.Definitions, artifactID string, o Options, now time.Time) ([]ServicePlan, error) {
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
	plans := make([]ServicePlan, 0, len(choices))
	for i, c := range choices {
		draft, err := planFromDefs(defs, artifactID, c.Service, c.Port, portField)
		if err != nil {
			return nil, err
		}
		sp := ServicePlan{Draft: draft, BackendURL: o.BackendURL}
		if sp.BackendURL == "" && checkBackendURL(c.Port.Address) == nil {
			sp.BackendURL = c.Port.Address
		}
		sp.Service = drafts.NewService(now)
		sp.Service.Environment, sp.Service.Direction, sp.Service.ServiceKey = o.Environment, o.Direction, keys[i]
		sp.Service.ServiceName = serviceNameFor(o.ServiceName, c, i)
		sp.Suggestion = DraftSuggestion{ServiceKey: keys[i], ServiceKeyDerived: i > 0 || o.ServiceKey == "",
			WSDLService: c.Service, WSDLPort: c.Port.Name, PortType: c.Port.PortType.Local, SOAPVersion: c.Port.SOAPVersion,
			BackendURL: sp.BackendURL, BackendURLFromWSDL: o.BackendURL == "" && sp.BackendURL != "", WSDLAddress: c.Port.Address}
		plans = append(plans, sp)
	}
	return plans, nil
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
