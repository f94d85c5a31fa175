package catalog

import (
	"errors"
	"fmt"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/wsdl"
	"github.com/s2r-project/s2r/internal/xsd"
)

// ErrNoOperations means the selected WSDL service and port bind no SOAP
// operation.
var ErrNoOperations = errors.New("no SOAP operations to import")

// SelectPort chooses the WSDL service and port a version is drafted from.
// Given names must exist (a given port alone is looked up in every
// service). With none given, the first service with an imported SOAP port
// is taken, and in it the first SOAP 1.1 port, else the first SOAP 1.2
// port: SOAP 1.1 is what most clients and backends speak.
func SelectPort(defs *wsdl.Definitions, service, port string) (string, *wsdl.Port, error) {
	var fallback *wsdl.Port
	var fallbackSvc string
	for _, svc := range defs.Services {
		if service != "" && svc.Name != service {
			continue
		}
		for _, p := range svc.Ports {
			if p.Skipped != "" || (port != "" && p.Name != port) {
				continue
			}
			if p.SOAPVersion == wsdl.SOAP11 || port != "" {
				return svc.Name, p, nil
			}
			if fallback == nil {
				fallback, fallbackSvc = p, svc.Name
			}
		}
		if fallback != nil {
			return fallbackSvc, fallback, nil
		}
	}
	switch {
	case port != "":
		return "", nil, fmt.Errorf("%w: no SOAP port %q in service %q", ErrNoOperations, port, service)
	case service != "":
		return "", nil, fmt.Errorf("%w: no SOAP port in service %q", ErrNoOperations, service)
	}
	return "", nil, fmt.Errorf("%w: the WSDL has no SOAP port", ErrNoOperations)
}

// DraftOperations returns the draft operations of the chosen service and
// port (see SelectPort) in contract order: keys from OperationKey, unique
// per version; REST route POST /<operationKey>; SOAP fields from the
// contract; timeout and retries from the settings (nil); sync execution;
// no rules. OperationID and VersionID are left for the caller to fill.
func DraftOperations(defs *wsdl.Definitions, service, port string) ([]model.Operation, error) {
	if defs == nil {
		return nil, fmt.Errorf("%w: no contract", ErrNoOperations)
	}
	_, p, err := SelectPort(defs, service, port)
	if err != nil {
		return nil, err
	}
	if len(p.Operations) == 0 {
		return nil, fmt.Errorf("%w: port %q binds no operation", ErrNoOperations, p.Name)
	}
	keys := make([]string, len(p.Operations))
	for i, op := range p.Operations {
		keys[i] = OperationKey(op.Name)
	}
	keys = UniqueKeys(keys)
	out := make([]model.Operation, len(p.Operations))
	for i, op := range p.Operations {
		out[i] = model.Operation{
			OperationKey:      keys[i],
			SOAPOperationName: op.Name,
			SOAPNamespace:     SOAPNamespace(op),
			SOAPVersion:       p.SOAPVersion,
			SOAPAction:        op.SOAPAction,
			Style:             StyleName(op.Style),
			Use:               UseName(op.Use),
			RestMethod:        "POST",
			RestPath:          "/" + keys[i],
			ExecutionMode:     model.ExecutionSync,
			ValidationRules:   []model.ValidationRule{},
			TransformRules:    nil,
		}
	}
	return out, nil
}

// SOAPNamespace returns the namespace of the operation's request body: the
// wrapper element's (document wrapped, or rpc's soap:body namespace), else
// the first part element's.
func SOAPNamespace(op *xsd.Operation) string {
	if op == nil || op.Input == nil {
		return ""
	}
	if op.Input.Wrapper != nil && op.Input.Wrapper.Name.Space != "" {
		return op.Input.Wrapper.Name.Space
	}
	if op.Input.Namespace != "" {
		return op.Input.Namespace
	}
	for _, p := range op.Input.Parts {
		if p.Element != nil {
			return p.Element.Name.Space
		}
	}
	return ""
}

// StyleName returns "document" or "rpc".
func StyleName(s xsd.Style) string {
	if s == xsd.RPC {
		return "rpc"
	}
	return "document"
}

// UseName returns "literal" or "encoded".
func UseName(u xsd.Use) string {
	if u == xsd.Encoded {
		return "encoded"
	}
	return "literal"
}

// Contract returns the contract of op in defs: the operation of that SOAP
// name bound in the given service and port when they are set and bind it,
// else the first bound operation with that name and SOAP version. nil when
// there is none. It walks defs without allocating; for many operations of
// one contract use a ContractIndex.
func Contract(defs *wsdl.Definitions, service, port string, op model.Operation) *xsd.Operation {
	if defs == nil {
		return nil
	}
	var fallback *xsd.Operation
	for _, s := range defs.Services {
		for _, p := range s.Ports {
			exact := service != "" && s.Name == service && p.Name == port
			if !exact && (fallback != nil || (op.SOAPVersion != "" && p.SOAPVersion != op.SOAPVersion)) {
				continue
			}
			for _, c := range p.Operations {
				if c.Name != op.SOAPOperationName {
					continue
				}
				if exact {
					return c
				}
				if fallback == nil {
					fallback = c
				}
				break
			}
		}
	}
	return fallback
}

// ContractIndex finds the contracts of many operations of one import in
// constant time each.
type ContractIndex struct {
	exact    map[[3]string]*xsd.Operation // service, port, name
	fallback map[[2]string]*xsd.Operation // name, SOAP version ("" for any)
}

// NewContractIndex indexes every bound operation of defs (nil gives an
// empty index).
func NewContractIndex(defs *wsdl.Definitions) *ContractIndex {
	ix := &ContractIndex{exact: map[[3]string]*xsd.Operation{}, fallback: map[[2]string]*xsd.Operation{}}
	if defs == nil {
		return ix
	}
	for _, s := range defs.Services {
		for _, p := range s.Ports {
			for _, c := range p.Operations {
				ix.exact[[3]string{s.Name, p.Name, c.Name}] = c
				for _, k := range [][2]string{{c.Name, p.SOAPVersion}, {c.Name, ""}} {
					if _, ok := ix.fallback[k]; !ok {
						ix.fallback[k] = c
					}
				}
			}
		}
	}
	return ix
}

// Contract is the package-level Contract through the index.
func (ix *ContractIndex) Contract(service, port string, op model.Operation) *xsd.Operation {
	if service != "" && port != "" {
		if c, ok := ix.exact[[3]string{service, port, op.SOAPOperationName}]; ok {
			return c
		}
	}
	return ix.fallback[[2]string{op.SOAPOperationName, op.SOAPVersion}]
}
