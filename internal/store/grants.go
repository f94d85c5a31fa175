package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/s2r-project/s2r/internal/model"
)

// PutConsumerGrants replaces the consumer IP grant list of g.ServiceID.
func (tx *Tx) PutConsumerGrants(ctx context.Context, g model.ConsumerGrants) error {
	cidrs, err := json.Marshal(g.CIDRs)
	if err != nil {
		return fmt.Errorf("store: consumer grants: %w", err)
	}
	var at Time
	if g.UpdatedAt != nil {
		at = NewTime(*g.UpdatedAt)
	}
	if _, err := tx.Exec(ctx, "DELETE FROM consumer_grants WHERE service_id = $1", g.ServiceID); err != nil {
		return fmt.Errorf("store: consumer grants: %w", err)
	}
	_, err = tx.Exec(ctx, `INSERT INTO consumer_grants (service_id, cidrs, updated_at, updated_by)
		VALUES ($1, $2, $3, $4)`, g.ServiceID, string(cidrs), at, g.UpdatedBy)
	if err != nil {
		return fmt.Errorf("store: consumer grants: %w", err)
	}
	return nil
}

// ConsumerGrants returns the grant list of a service: an empty list with
// no update time when none was ever stored.
func (s *Store) ConsumerGrants(ctx context.Context, serviceID string) (model.ConsumerGrants, error) {
	return consumerGrants(ctx, s.reader(), serviceID)
}

// ConsumerGrants returns the grant list of a service as seen by the
// transaction.
func (tx *Tx) ConsumerGrants(ctx context.Context, serviceID string) (model.ConsumerGrants, error) {
	return consumerGrants(ctx, tx, serviceID)
}

func consumerGrants(ctx context.Context, q Querier, serviceID string) (model.ConsumerGrants, error) {
	g := model.ConsumerGrants{ServiceID: serviceID, CIDRs: []string{}}
	var (
		cidrs string
		at    Time
	)
	err := q.QueryRow(ctx, "SELECT cidrs, updated_at, updated_by FROM consumer_grants WHERE service_id = $1",
		serviceID).Scan(&cidrs, &at, &g.UpdatedBy)
	if errors.Is(err, ErrNotFound) {
		return g, nil
	}
	if err != nil {
		return g, fmt.Errorf("store: consumer grants: %w", err)
	}
	if err := json.Unmarshal([]byte(cidrs), &g.CIDRs); err != nil {
		return g, fmt.Errorf("store: consumer grants column: %w", err)
	}
	t := at.Time
	g.UpdatedAt = &t
	return g, nil
}
