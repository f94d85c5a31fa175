package catalog

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/s2r-project/s2r/internal/wsdl"
)

// PortChoice is one WSDL port a service is drafted from, with the WSDL
// service that holds it.
type PortChoice struct {
	Service string
	Port    *wsdl.Port
}

// SelectPortTypes chooses the ports autopilot onboards when no port is
// named: one per distinct port type bound to SOAP, in document order of
// the port type's first SOAP port, across every WSDL service (only the
// named one when service is not empty) and only of soapVersion when it is
// not empty. For each port type the first SOAP 1.1 port that binds an
// operation is taken, else the first SOAP 1.2 port: two bindings of one
// port type are one API. Port types whose ports bind no operation are left
// out; when that leaves nothing, the first candidate port is returned alone
// so that drafting it reports why (DraftOperations). With no candidate at
// all the error wraps ErrNoOperations.
func SelectPortTypes(defs *wsdl.Definitions, service, soapVersion string) ([]PortChoice, error) {
	var out []PortChoice
	var first *PortChoice
	index := map[string]int{} // port type → position in out
	for _, svc := range defs.Services {
		if service != "" && svc.Name != service {
			continue
		}
		for _, p := range svc.Ports {
			if p.Skipped != "" || (soapVersion != "" && p.SOAPVersion != soapVersion) {
				continue
			}
			if first == nil {
				first = &PortChoice{Service: svc.Name, Port: p}
			}
			if len(p.Operations) == 0 {
				continue
			}
			key := p.PortType.Space + " " + p.PortType.Local
			i, seen := index[key]
			switch {
			case !seen:
				index[key] = len(out)
				out = append(out, PortChoice{Service: svc.Name, Port: p})
			case out[i].Port.SOAPVersion != wsdl.SOAP11 && p.SOAPVersion == wsdl.SOAP11:
				out[i] = PortChoice{Service: svc.Name, Port: p}
			}
		}
	}
	switch {
	case len(out) > 0:
		return out, nil
	case first != nil:
		return []PortChoice{*first}, nil
	case soapVersion != "":
		return nil, fmt.Errorf("%w: no SOAP %s port matches the choice", ErrNoOperations, soapVersion)
	case service != "":
		return nil, fmt.Errorf("%w: no SOAP port in service %q", ErrNoOperations, service)
	}
	return nil, fmt.Errorf("%w: the WSDL has no SOAP port", ErrNoOperations)
}

// maxServiceKeyLen bounds service keys (the admin API's key pattern).
const maxServiceKeyLen = 63

// ServiceKeys derives the keys of the services drafted from several port
// types: the first keeps first (the given or derived key of a single-port
// import); each other is first + "-" + the lower-kebab-case of its port
// type's name (OperationKey's rule), cut to 63 characters; a key already
// taken in the list gets "-2", "-3", … (the base cut so the key still fits).
// "calc" with port types CalcPortType and AdminPortType gives "calc" and
// "calc-admin-port-type".
func ServiceKeys(first string, portTypes []string) []string {
	keys := make([]string, len(portTypes))
	taken := map[string]bool{}
	for i, pt := range portTypes {
		base := first
		if i > 0 {
			base = OperationKey(first + "-" + pt)
		}
		key := base
		for n := 2; taken[key]; n++ {
			suffix := "-" + strconv.Itoa(n)
			key = strings.TrimRight(base[:min(len(base), maxServiceKeyLen-len(suffix))], "-") + suffix
		}
		taken[key] = true
		keys[i] = key
	}
	return keys
}
