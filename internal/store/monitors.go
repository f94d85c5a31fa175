package store

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/s2r-project/s2r/internal/model"
)

// monitorConfig is the JSON form of the config column.
type monitorConfig struct {
	Enabled      bool            `json:"enabled"`
	IntervalSec  int             `json:"intervalSec"`
	OperationKey string          `json:"operationKey"`
	DatasetID    *string         `json:"datasetId"`
	Payload      json.RawMessage `json:"payload"`
	ExpectStatus int             `json:"expectStatus"`
}

// PutSyntheticMonitor replaces the synthetic-monitor configuration of
// m.ServiceID.
func (tx *Tx) PutSyntheticMonitor(ctx context.Context, m model.SyntheticMonitor) error {
	cfg, err := json.Marshal(monitorConfig{Enabled: m.Enabled, IntervalSec: m.IntervalSec,
		OperationKey: m.OperationKey, DatasetID: m.DatasetID, Payload: m.Payload, ExpectStatus: m.ExpectStatus})
	if err != nil {
		return fmt.Errorf("store: synthetic monitor: %w", err)
	}
	if _, err := tx.Exec(ctx, "DELETE FROM synthetic_monitors WHERE service_id = $1", m.ServiceID); err != nil {
		return fmt.Errorf("store: synthetic monitor: %w", err)
	}
	_, err = tx.Exec(ctx, `INSERT INTO synthetic_monitors (service_id, config, updated_at, updated_by)
		VALUES ($1, $2, $3, $4)`, m.ServiceID, string(cfg), NewTime(m.UpdatedAt), m.UpdatedBy)
	if err != nil {
		return fmt.Errorf("store: synthetic monitor: %w", err)
	}
	return nil
}

// SyntheticMonitor returns the configuration of a service; ErrNotFound
// when none was stored.
func (s *Store) SyntheticMonitor(ctx context.Context, serviceID string) (model.SyntheticMonitor, error) {
	return syntheticMonitor(ctx, s.reader(), serviceID)
}

// SyntheticMonitor returns the configuration of a service as seen by the
// transaction.
func (tx *Tx) SyntheticMonitor(ctx context.Context, serviceID string) (model.SyntheticMonitor, error) {
	return syntheticMonitor(ctx, tx, serviceID)
}

func syntheticMonitor(ctx context.Context, q Querier, serviceID string) (model.SyntheticMonitor, error) {
	var (
		text string
		at   Time
		m    = model.SyntheticMonitor{ServiceID: serviceID}
		cfg  monitorConfig
	)
	err := q.QueryRow(ctx, "SELECT config, updated_at, updated_by FROM synthetic_monitors WHERE service_id = $1",
		serviceID).Scan(&text, &at, &m.UpdatedBy)
	if err != nil {
		return m, fmt.Errorf("store: synthetic monitor: %w", err)
	}
	if err := json.Unmarshal([]byte(text), &cfg); err != nil {
		return m, fmt.Errorf("store: synthetic monitor column: %w", err)
	}
	m.Enabled, m.IntervalSec, m.OperationKey = cfg.Enabled, cfg.IntervalSec, cfg.OperationKey
	m.DatasetID, m.Payload, m.ExpectStatus, m.UpdatedAt = cfg.DatasetID, cfg.Payload, cfg.ExpectStatus, at.Time
	return m, nil
}
