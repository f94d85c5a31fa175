package store

import (
	"context"
	"fmt"

	"github.com/s2r-project/s2r/internal/model"
)

// OnboardedEndpoints returns every service that is not deprecated, once
// per backend profile.
func (s *Store) OnboardedEndpoints(ctx context.Context) ([]model.OnboardedEndpoint, error) {
	rows, err := s.reader().Query(ctx, "SELECT s.service_id, s.direction, s.environment, s.service_key, s.status, "+
		"COALESCE(b.endpoint_url, '') FROM services s LEFT JOIN backend_profiles b ON b.service_id = s.service_id "+
		"WHERE s.status <> 'deprecated' ORDER BY s.service_id, b.profile_id")
	if err != nil {
		return nil, fmt.Errorf("store: onboarded endpoints: %w", err)
	}
	defer rows.Close()
	var out []model.OnboardedEndpoint
	for rows.Next() {
		var e model.OnboardedEndpoint
		if err := rows.Scan(&e.ServiceID, &e.Direction, &e.Environment, &e.ServiceKey, &e.Status, &e.EndpointURL); err != nil {
			return nil, fmt.Errorf("store: onboarded endpoints: %w", err)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: onboarded endpoints: %w", mapError(err))
	}
	return out, nil
}

// DiscoveryRowMatches returns the match of every row of every tenant.
func (s *Store) DiscoveryRowMatches(ctx context.Context) ([]model.RowMatch, error) {
	rows, err := s.reader().Query(ctx, "SELECT row_id, service_uri, COALESCE(onboarded_service_id, ''), environment, service_key "+
		"FROM discovery_rows ORDER BY row_id")
	if err != nil {
		return nil, fmt.Errorf("store: discovery row matches: %w", err)
	}
	defer rows.Close()
	var out []model.RowMatch
	for rows.Next() {
		var m model.RowMatch
		if err := rows.Scan(&m.RowID, &m.ServiceURI, &m.OnboardedServiceID, &m.Environment, &m.ServiceKey); err != nil {
			return nil, fmt.Errorf("store: discovery row matches: %w", err)
		}
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: discovery row matches: %w", mapError(err))
	}
	return out, nil
}

// SetDiscoveryRowMatch records a row's onboarding match (stored events
// keep the match they were ingested with).
func (tx *Tx) SetDiscoveryRowMatch(ctx context.Context, m model.RowMatch) error {
	_, err := tx.Exec(ctx, "UPDATE discovery_rows SET onboarded_service_id = $2, environment = $3, service_key = $4 WHERE row_id = $1",
		m.RowID, nullString(m.OnboardedServiceID), m.Environment, m.ServiceKey)
	if err != nil {
		return fmt.Errorf("store: set discovery row match: %w", err)
	}
	return nil
}
