package drafts

import (
	"context"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/catalog"
	"github.com/s2r-project/s2r/internal/contracts"
	"github.com/s2r-project/s2r/internal/model"
)

// Readiness assesses version v of svc as the stored state stands, reading
// through q (the store or a transaction) and c.
func Readiness(ctx context.Context, c *contracts.Cache, q CatalogReader, svc model.Service, v model.Version) (catalog.ReadinessReport, error) {
	ops, err := q.Operations(ctx, v.VersionID)
	if err != nil {
		return catalog.ReadinessReport{}, err
	}
	maps, err := q.ActiveMappings(ctx, v.VersionID)
	if err != nil {
		return catalog.ReadinessReport{}, err
	}
	contracts, err := adminapi.ContractsOf(ctx, c, v, ops)
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

// CatalogReader is what the store and a transaction both offer for reading
// a version's parts.
type CatalogReader interface {
	Operations(ctx context.Context, versionID string) ([]model.Operation, error)
	ActiveMappings(ctx context.Context, versionID string) (map[string]model.Mapping, error)
	BackendProfiles(ctx context.Context, serviceID string) ([]model.BackendProfile, error)
}
