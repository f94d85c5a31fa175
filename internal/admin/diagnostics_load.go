package admin

import (
	"context"
	"errors"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/catalog"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/wsdl"
	"github.com/s2r-project/s2r/internal/xsd"
)

// versionOf returns version versionID of service serviceID; 404
// S2R-ADM-0404 when either does not exist or the version belongs to
// another service.
func versionOf(ctx context.Context, q interface {
	Version(context.Context, string) (model.Version, error)
}, serviceID, versionID string) (model.Version, error) {
	v, err := q.Version(ctx, versionID)
	if errors.Is(err, store.ErrNotFound) || (err == nil && v.ServiceID != serviceID) {
		return model.Version{}, apierr.New(apierr.AdmNotFound, "version not found for this service")
	}
	return v, err
}

// definitions returns the parsed contract of v's import; nil when v has no
// import or it is gone.
func (s *server) definitions(ctx context.Context, v model.Version) (*wsdl.Definitions, error) {
	if v.ArtifactID == nil {
		return nil, nil
	}
	defs, err := s.contracts.Definitions(ctx, *v.ArtifactID)
	var ie *wsdl.ImportError
	if errors.Is(err, store.ErrNotFound) || errors.As(err, &ie) {
		return nil, nil
	}
	return defs, err
}

// contractsOf returns the contract of each operation of version v by
// operation id (operations missing from the contract have none).
func (s *server) contractsOf(ctx context.Context, v model.Version, ops []model.Operation) (map[string]*xsd.Operation, error) {
	defs, err := s.definitions(ctx, v)
	if err != nil {
		return nil, err
	}
	out := make(map[string]*xsd.Operation, len(ops))
	ix := catalog.NewContractIndex(defs)
	for _, op := range ops {
		if c := ix.Contract(v.WSDLService, v.WSDLPort, op); c != nil {
			out[op.OperationID] = c
		}
	}
	return out, nil
}

// contractOf returns the contract of one operation of v, nil when none.
func (s *server) contractOf(ctx context.Context, v model.Version, op model.Operation) (*xsd.Operation, error) {
	defs, err := s.definitions(ctx, v)
	if err != nil {
		return nil, err
	}
	return catalog.Contract(defs, v.WSDLService, v.WSDLPort, op), nil
}

// readinessOf assesses version v of svc as the stored state stands, reading
// through q (the store or a transaction).
func (s *server) readinessOf(ctx context.Context, q catalogReader, svc model.Service, v model.Version) (catalog.ReadinessReport, error) {
	ops, err := q.Operations(ctx, v.VersionID)
	if err != nil {
		return catalog.ReadinessReport{}, err
	}
	maps, err := q.ActiveMappings(ctx, v.VersionID)
	if err != nil {
		return catalog.ReadinessReport{}, err
	}
	contracts, err := s.contractsOf(ctx, v, ops)
	if err != nil {
		return catalog.ReadinessReport{}, err
	}
	profiles, err := q.BackendProfiles(ctx, svc.ServiceID)
	if err != nil {
		return catalog.ReadinessReport{}, err
	}
	var noURL []string
	for _, p := range profiles {
		if p.EndpointURL == "" {
			noURL = append(noURL, p.ProfileID)
		}
	}
	return catalog.Readiness(catalog.ReadinessInput{Service: svc, Operations: ops, Contracts: contracts,
		Mappings: maps, BackendProfiles: len(profiles), ProfilesWithoutURL: noURL}), nil
}

// catalogReader is what the store and a transaction both offer for reading
// a version's parts.
type catalogReader interface {
	Operations(ctx context.Context, versionID string) ([]model.Operation, error)
	ActiveMappings(ctx context.Context, versionID string) (map[string]model.Mapping, error)
	BackendProfiles(ctx context.Context, serviceID string) ([]model.BackendProfile, error)
}

// immutable is the 409 S2R-ADM-0410 of an edit of a version that is not a
// draft.
func immutable(v model.Version) error {
	return apierr.New(apierr.AdmImmutable, "version "+itoa(v.VersionNumber)+" is "+v.Status+
		": only a draft version can be edited; create a draft (POST /services/{serviceId}/versions)").
		WithDetail("versionId", v.VersionID).WithDetail("versionStatus", v.Status)
}
