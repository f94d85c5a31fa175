package openapi

import (
	"github.com/s2r-project/s2r/internal/catalog"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/wsdl"
)

// NewInput is the input of version v of svc: each of ops paired with its
// contract in defs (the version's import; nil when it has none), found by
// the version's WSDL service and port (catalog.ContractIndex). The admin
// API (stored versions) and the offline CLI (a planned import) both build
// their input with it, so equal contracts give equal documents.
func NewInput(svc model.Service, v model.Version, ops []model.Operation, defs *wsdl.Definitions, publicBaseURL string) Input {
	ix := catalog.NewContractIndex(defs)
	in := Input{Service: svc, Version: v, PublicBaseURL: publicBaseURL, Operations: make([]Operation, 0, len(ops))}
	for _, op := range ops {
		in.Operations = append(in.Operations, Operation{Operation: op, Contract: ix.Contract(v.WSDLService, v.WSDLPort, op)})
	}
	return in
}
