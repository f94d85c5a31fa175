package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/s2r-project/s2r/internal/model"
)

// protectionColumns are the backend protection columns of a profile
// (DESIGN 10.6), read last by scanBackendProfile.
const protectionColumns = `p.max_concurrent_requests, p.max_requests_per_second, p.queue_timeout_ms`

// writeBackendProtection stores the protection fields of profile p, which
// CreateBackendProfile and UpdateBackendProfile have just written.
func (tx *Tx) writeBackendProtection(ctx context.Context, p model.BackendProfile) error {
	_, err := tx.Exec(ctx, `UPDATE backend_profiles SET max_concurrent_requests = $2, max_requests_per_second = $3,
		queue_timeout_ms = $4 WHERE profile_id = $1`,
		p.ProfileID, p.MaxConcurrentRequests, p.MaxRequestsPerSecond, p.QueueTimeoutMs)
	if err != nil {
		return fmt.Errorf("store: backend protection: %w", err)
	}
	return nil
}

// PutServiceRateLimit replaces the client rate limit of a service; nil
// removes it (no limit).
func (tx *Tx) PutServiceRateLimit(ctx context.Context, serviceID string, l *model.ClientRateLimit, at Time, by string) error {
	if _, err := tx.Exec(ctx, "DELETE FROM service_rate_limits WHERE service_id = $1", serviceID); err != nil {
		return fmt.Errorf("store: service rate limit: %w", err)
	}
	if l == nil {
		return nil
	}
	_, err := tx.Exec(ctx, `INSERT INTO service_rate_limits (service_id, client_key, requests_per_minute, burst,
		updated_at, updated_by) VALUES ($1, $2, $3, $4, $5, $6)`,
		serviceID, l.ClientKey, l.RequestsPerMinute, l.Burst, at, by)
	if err != nil {
		return fmt.Errorf("store: service rate limit: %w", err)
	}
	return nil
}

// ServiceRateLimit returns the client rate limit of a service, nil when
// it has none.
func (s *Store) ServiceRateLimit(ctx context.Context, serviceID string) (*model.ClientRateLimit, error) {
	return serviceRateLimit(ctx, s.reader(), serviceID)
}

// ServiceRateLimit returns the client rate limit of a service as seen by
// the transaction.
func (tx *Tx) ServiceRateLimit(ctx context.Context, serviceID string) (*model.ClientRateLimit, error) {
	return serviceRateLimit(ctx, tx, serviceID)
}

func serviceRateLimit(ctx context.Context, q Querier, serviceID string) (*model.ClientRateLimit, error) {
	var l model.ClientRateLimit
	err := q.QueryRow(ctx, "SELECT client_key, requests_per_minute, burst FROM service_rate_limits WHERE service_id = $1",
		serviceID).Scan(&l.ClientKey, &l.RequestsPerMinute, &l.Burst)
	if errors.Is(err, ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("store: service rate limit: %w", err)
	}
	return &l, nil
}
