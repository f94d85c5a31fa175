package store

import (
	"context"
	"fmt"

	"github.com/s2r-project/s2r/internal/model"
)

// CreateTestDataset stores a new dataset; a name already used by the
// service gives ErrAlreadyExists, a missing service ErrConflict.
func (tx *Tx) CreateTestDataset(ctx context.Context, d model.TestDataset) error {
	_, err := tx.Exec(ctx, `INSERT INTO test_datasets (dataset_id, service_id, name, operation_key, payload,
		created_at, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
		d.DatasetID, d.ServiceID, d.Name, d.OperationKey, string(d.Payload), NewTime(d.CreatedAt), d.CreatedBy)
	if err != nil {
		return fmt.Errorf("store: create test dataset: %w", err)
	}
	return nil
}

// DeleteTestDataset removes a dataset; ErrNotFound when there is none.
func (tx *Tx) DeleteTestDataset(ctx context.Context, id string) error {
	res, err := tx.Exec(ctx, "DELETE FROM test_datasets WHERE dataset_id = $1", id)
	if err != nil {
		return fmt.Errorf("store: delete test dataset: %w", err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return fmt.Errorf("store: delete test dataset %s: %w", id, ErrNotFound)
	}
	return nil
}

const datasetColumns = "dataset_id, service_id, name, operation_key, payload, created_at, created_by"

// TestDataset returns the dataset with id as seen by the transaction;
// ErrNotFound when there is none.
func (tx *Tx) TestDataset(ctx context.Context, id string) (model.TestDataset, error) {
	return testDataset(ctx, tx, id)
}

// TestDataset returns the dataset with id; ErrNotFound when there is none.
func (s *Store) TestDataset(ctx context.Context, id string) (model.TestDataset, error) {
	return testDataset(ctx, s.reader(), id)
}

func testDataset(ctx context.Context, q Querier, id string) (model.TestDataset, error) {
	d, err := scanDataset(q.QueryRow(ctx, "SELECT "+datasetColumns+" FROM test_datasets WHERE dataset_id = $1", id).Scan)
	if err != nil {
		return d, fmt.Errorf("store: test dataset: %w", err)
	}
	return d, nil
}

// TestDatasets returns the datasets of a service ordered by name.
func (s *Store) TestDatasets(ctx context.Context, serviceID string) ([]model.TestDataset, error) {
	rows, err := s.reader().Query(ctx, "SELECT "+datasetColumns+
		" FROM test_datasets WHERE service_id = $1 ORDER BY name, dataset_id", serviceID)
	if err != nil {
		return nil, fmt.Errorf("store: test datasets: %w", err)
	}
	defer rows.Close()
	out := []model.TestDataset{}
	for rows.Next() {
		d, err := scanDataset(rows.Scan)
		if err != nil {
			return nil, fmt.Errorf("store: test datasets: %w", err)
		}
		out = append(out, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: test datasets: %w", mapError(err))
	}
	return out, nil
}

func scanDataset(scan func(...any) error) (model.TestDataset, error) {
	var (
		d       model.TestDataset
		payload string
		created Time
	)
	if err := scan(&d.DatasetID, &d.ServiceID, &d.Name, &d.OperationKey, &payload, &created, &d.CreatedBy); err != nil {
		return model.TestDataset{}, err
	}
	d.Payload, d.CreatedAt = []byte(payload), created.Time
	return d, nil
}
