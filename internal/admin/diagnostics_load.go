package admin

import (
	"context"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/catalog"
	"github.com/s2r-project/s2r/internal/model"
)

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
	contracts, err := adminapi.ContractsOf(ctx, s.contracts, v, ops)
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
