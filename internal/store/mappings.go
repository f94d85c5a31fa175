package store

import (
	"context"
	"fmt"

	"github.com/s2r-project/s2r/internal/model"
)

const mappingColumns = `mapping_id, operation_id, mapping_version, active, request_mapping, response_mapping,
	fault_mapping, source, created_at, created_by`

// CreateMapping stores m as the active mapping of its operation: the
// previous active mapping is deactivated and m gets the next
// mappingVersion (1 for the first). It returns m as stored.
func (tx *Tx) CreateMapping(ctx context.Context, m model.Mapping) (model.Mapping, error) {
	if _, err := tx.Exec(ctx, "UPDATE mappings SET active = $2 WHERE operation_id = $1 AND active = $3",
		m.OperationID, false, true); err != nil {
		return model.Mapping{}, fmt.Errorf("store: deactivate mapping: %w", err)
	}
	err := tx.QueryRow(ctx, "SELECT COALESCE(MAX(mapping_version), 0) + 1 FROM mappings WHERE operation_id = $1",
		m.OperationID).Scan(&m.MappingVersion)
	if err != nil {
		return model.Mapping{}, fmt.Errorf("store: next mapping version: %w", err)
	}
	return tx.insertMapping(ctx, m)
}

// CreateFirstMapping stores m as mapping version 1, active, of an operation
// created in the same transaction (which has no mapping yet: a draft being
// written), without looking for a previous one.
func (tx *Tx) CreateFirstMapping(ctx context.Context, m model.Mapping) (model.Mapping, error) {
	m.MappingVersion = 1
	return tx.insertMapping(ctx, m)
}

func (tx *Tx) insertMapping(ctx context.Context, m model.Mapping) (model.Mapping, error) {
	m.Active = true
	_, err := tx.Exec(ctx, "INSERT INTO mappings ("+mappingColumns+") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
		m.MappingID, m.OperationID, m.MappingVersion, m.Active, rawText(m.RequestMapping), rawText(m.ResponseMapping),
		rawText(m.FaultMapping), m.Source, NewTime(m.CreatedAt), m.CreatedBy)
	if err != nil {
		return model.Mapping{}, fmt.Errorf("store: create mapping: %w", err)
	}
	return m, nil
}

// ActiveMapping returns the active mapping of an operation; ErrNotFound
// when it has none.
func (s *Store) ActiveMapping(ctx context.Context, operationID string) (model.Mapping, error) {
	return activeMapping(ctx, s.reader(), operationID)
}

// ActiveMapping returns the active mapping of an operation as seen by the
// transaction.
func (tx *Tx) ActiveMapping(ctx context.Context, operationID string) (model.Mapping, error) {
	return activeMapping(ctx, tx, operationID)
}

func activeMapping(ctx context.Context, q Querier, operationID string) (model.Mapping, error) {
	m, err := scanMapping(q.QueryRow(ctx, "SELECT "+mappingColumns+
		" FROM mappings WHERE operation_id = $1 AND active = $2", operationID, true).Scan)
	if err != nil {
		return model.Mapping{}, fmt.Errorf("store: active mapping: %w", err)
	}
	return m, nil
}

// ActiveMappings returns the active mapping of every operation of a
// version that has one, by operation id.
func (s *Store) ActiveMappings(ctx context.Context, versionID string) (map[string]model.Mapping, error) {
	return activeMappings(ctx, s.reader(), versionID)
}

// ActiveMappings is Store.ActiveMappings inside the transaction.
func (tx *Tx) ActiveMappings(ctx context.Context, versionID string) (map[string]model.Mapping, error) {
	return activeMappings(ctx, tx, versionID)
}

func activeMappings(ctx context.Context, q Querier, versionID string) (map[string]model.Mapping, error) {
	rows, err := q.Query(ctx, "SELECT m.mapping_id, m.operation_id, m.mapping_version, m.active, m.request_mapping, "+
		"m.response_mapping, m.fault_mapping, m.source, m.created_at, m.created_by FROM mappings m "+
		"JOIN operations o ON o.operation_id = m.operation_id WHERE o.version_id = $1 AND m.active = $2", versionID, true)
	if err != nil {
		return nil, fmt.Errorf("store: active mappings: %w", err)
	}
	defer rows.Close()
	out := map[string]model.Mapping{}
	for rows.Next() {
		m, err := scanMapping(rows.Scan)
		if err != nil {
			return nil, fmt.Errorf("store: active mappings: %w", err)
		}
		out[m.OperationID] = m
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: active mappings: %w", mapError(err))
	}
	return out, nil
}

// rawText returns raw as text, "null" when it is empty.
func rawText(raw []byte) string {
	if len(raw) == 0 {
		return "null"
	}
	return string(raw)
}

func scanMapping(scan func(...any) error) (model.Mapping, error) {
	var (
		m             model.Mapping
		req, res, flt string
		created       Time
	)
	if err := scan(&m.MappingID, &m.OperationID, &m.MappingVersion, &m.Active, &req, &res, &flt, &m.Source,
		&created, &m.CreatedBy); err != nil {
		return model.Mapping{}, err
	}
	m.RequestMapping, m.ResponseMapping, m.FaultMapping = []byte(req), []byte(res), []byte(flt)
	m.CreatedAt = created.Time
	return m, nil
}
