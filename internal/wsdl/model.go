// Package wsdl imports WSDL 1.1 documents: it loads a root document and
// everything it imports or includes through a loader, compiles the schemas
// and turns each SOAP-bound operation into an xsd.Operation contract. It
// also detects and repairs undeclared namespace prefixes.
package wsdl

import (
	"github.com/s2r-project/s2r/internal/xmlstream"
	"github.com/s2r-project/s2r/internal/xsd"
)

// Namespaces of WSDL 1.1 and its bindings.
const (
	NSWSDL   = "http://schemas.xmlsoap.org/wsdl/"
	NSSOAP11 = "http://schemas.xmlsoap.org/wsdl/soap/"
	NSSOAP12 = "http://schemas.xmlsoap.org/wsdl/soap12/"
	NSHTTP   = "http://schemas.xmlsoap.org/wsdl/http/"
	NSMIME   = "http://schemas.xmlsoap.org/wsdl/mime/"
	NSWSDL20 = "http://www.w3.org/ns/wsdl"
)

// SOAP versions of a port.
const (
	SOAP11 = "1.1"
	SOAP12 = "1.2"
)

// ImportError is the error type of every import failure: file, line and
// reason (an alias of xsd.ImportError, shared with schema loading).
type ImportError = xsd.ImportError

// Definitions is an imported WSDL: its services and their SOAP ports with
// compiled operations, plus what was tolerated on the way.
type Definitions struct {
	Name            string
	TargetNamespace string
	Services        []*Service
	// Warnings lists tolerated problems: skipped non-SOAP ports, schema
	// fallbacks, and the absence of any SOAP binding.
	Warnings []string
	// Documents lists the locations loaded, root first.
	Documents []string
	// Schemas is the compiled schema set of the import.
	Schemas *xsd.Set
}

// Service is a wsdl:service.
type Service struct {
	Name  string
	Ports []*Port
}

// Port is a wsdl:port. Ports without a SOAP binding (HTTP GET/POST) are
// listed with Skipped set and no operations.
type Port struct {
	Name        string
	Binding     xmlstream.Name
	PortType    xmlstream.Name // the binding's portType; zero when skipped
	Address     string         // soap:address location
	SOAPVersion string         // SOAP11 or SOAP12; empty when skipped
	Transport   string
	Skipped     string // why the port is not imported, empty when it is
	Operations  []*xsd.Operation
}

// BoundOperation is an operation with the service and port it is bound to.
type BoundOperation struct {
	Service     string
	Port        string
	SOAPVersion string
	Address     string
	*xsd.Operation
}

// Operations lists every operation of every SOAP port, in document order.
func (d *Definitions) Operations() []BoundOperation {
	var out []BoundOperation
	for _, s := range d.Services {
		for _, p := range s.Ports {
			for _, op := range p.Operations {
				out = append(out, BoundOperation{Service: s.Name, Port: p.Name, SOAPVersion: p.SOAPVersion, Address: p.Address, Operation: op})
			}
		}
	}
	return out
}

// Operation finds an operation by service, port and operation name; an
// empty service or port matches the first that has the operation.
func (d *Definitions) Operation(service, port, name string) (*xsd.Operation, bool) {
	for _, op := range d.Operations() {
		if (service == "" || op.Service == service) && (port == "" || op.Port == port) && op.Name == name {
			return op.Operation, true
		}
	}
	return nil, false
}
