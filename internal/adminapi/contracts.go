package adminapi

import (
	"context"
	"errors"

	"github.com/s2r-project/s2r/internal/catalog"
	"github.com/s2r-project/s2r/internal/contracts"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/wsdl"
	"github.com/s2r-project/s2r/internal/xsd"
)

// Definitions returns the parsed contract of v's import, through the
// contracts cache; nil when v has no import or it is gone.
func Definitions(ctx context.Context, c *contracts.Cache, v model.Version) (*wsdl.Definitions, error) {
	if v.ArtifactID == nil {
		return nil, nil
	}
	defs, err := c.Definitions(ctx, *v.ArtifactID)
	var ie *wsdl.ImportError
	if errors.Is(err, store.ErrNotFound) || errors.As(err, &ie) {
		return nil, nil
	}
	return defs, err
}

// ContractsOf returns the contract of each operation of version v by
// operation id (operations missing from the contract have none).
func ContractsOf(ctx context.Context, c *contracts.Cache, v model.Version, ops []model.Operation) (map[string]*xsd.Operation, error) {
	defs, err := Definitions(ctx, c, v)
	if err != nil {
		return nil, err
	}
	out := make(map[string]*xsd.Operation, len(ops))
	ix := catalog.NewContractIndex(defs)
	for _, op := range ops {
		if ct := ix.Contract(v.WSDLService, v.WSDLPort, op); ct != nil {
			out[op.OperationID] = ct
		}
	}
	return out, nil
}

// ContractOf returns the contract of one operation of v, nil when none.
func ContractOf(ctx context.Context, c *contracts.Cache, v model.Version, op model.Operation) (*xsd.Operation, error) {
	defs, err := Definitions(ctx, c, v)
	if err != nil {
		return nil, err
	}
	return catalog.Contract(defs, v.WSDLService, v.WSDLPort, op), nil
}
