package store

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/transform"
)

const operationColumns = `operation_id, version_id, position, operation_key, soap_operation_name, soap_namespace,
	soap_version, soap_action, style, body_use, rest_method, rest_path, timeout_ms, retry_count, execution_mode,
	validation_rules, transform_rules, response_validation`

// CreateOperation stores a new operation of a version at position (the
// order operations are listed in). A second operation with the same key in
// the version gives ErrAlreadyExists.
func (tx *Tx) CreateOperation(ctx context.Context, op model.Operation, position int) error {
	args, err := operationArgs(op)
	if err != nil {
		return fmt.Errorf("store: create operation: %w", err)
	}
	_, err = tx.Exec(ctx, "INSERT INTO operations ("+operationColumns+`) VALUES
		($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
		append(args[:2:2], append([]any{position}, args[2:]...)...)...)
	if err != nil {
		return fmt.Errorf("store: create operation: %w", err)
	}
	return nil
}

// UpdateOperation rewrites the editable columns of operation
// op.OperationID: its key, REST route, timeout, retries, execution mode,
// rules and response validation mode. ErrNotFound when there is none.
func (tx *Tx) UpdateOperation(ctx context.Context, op model.Operation) error {
	a, err := operationArgs(op)
	if err != nil {
		return fmt.Errorf("store: update operation: %w", err)
	}
	res, err := tx.Exec(ctx, `UPDATE operations SET operation_key = $2, rest_method = $3, rest_path = $4,
		timeout_ms = $5, retry_count = $6, execution_mode = $7, validation_rules = $8, transform_rules = $9,
		response_validation = $10
		WHERE operation_id = $1`, a[0], a[2], a[9], a[10], a[11], a[12], a[13], a[14], a[15], a[16])
	if err != nil {
		return fmt.Errorf("store: update operation: %w", err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return fmt.Errorf("store: update operation %s: %w", op.OperationID, ErrNotFound)
	}
	return nil
}

// Operation returns the operation with id; ErrNotFound when there is none.
func (s *Store) Operation(ctx context.Context, id string) (model.Operation, error) {
	return getOperation(ctx, s.reader(), id)
}

// Operation returns the operation with id as seen by the transaction.
func (tx *Tx) Operation(ctx context.Context, id string) (model.Operation, error) {
	return getOperation(ctx, tx, id)
}

func getOperation(ctx context.Context, q Querier, id string) (model.Operation, error) {
	op, err := scanOperation(q.QueryRow(ctx, "SELECT "+operationColumns+" FROM operations WHERE operation_id = $1", id).Scan)
	if err != nil {
		return model.Operation{}, fmt.Errorf("store: operation: %w", err)
	}
	return op, nil
}

// Operations returns the operations of a version in their stored order.
func (s *Store) Operations(ctx context.Context, versionID string) ([]model.Operation, error) {
	return operations(ctx, s.reader(), versionID)
}

// Operations returns the operations of a version as seen by the
// transaction.
func (tx *Tx) Operations(ctx context.Context, versionID string) ([]model.Operation, error) {
	return operations(ctx, tx, versionID)
}

func operations(ctx context.Context, q Querier, versionID string) ([]model.Operation, error) {
	rows, err := q.Query(ctx, "SELECT "+operationColumns+
		" FROM operations WHERE version_id = $1 ORDER BY position, operation_key", versionID)
	if err != nil {
		return nil, fmt.Errorf("store: operations: %w", err)
	}
	defer rows.Close()
	out := []model.Operation{}
	for rows.Next() {
		op, err := scanOperation(rows.Scan)
		if err != nil {
			return nil, fmt.Errorf("store: operations: %w", err)
		}
		out = append(out, op)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: operations: %w", mapError(err))
	}
	return out, nil
}

// operationArgs returns op's column values in operationColumns order,
// without position.
func operationArgs(op model.Operation) ([]any, error) {
	rules := op.ValidationRules
	if rules == nil {
		rules = []model.ValidationRule{}
	}
	vr, err := jsonText(rules)
	if err != nil {
		return nil, err
	}
	trules := op.TransformRules
	if trules == nil {
		trules = []transform.Rule{}
	}
	tr, err := jsonText(trules)
	if err != nil {
		return nil, err
	}
	return []any{op.OperationID, op.VersionID, op.OperationKey, op.SOAPOperationName, op.SOAPNamespace,
		op.SOAPVersion, op.SOAPAction, op.Style, op.Use, op.RestMethod, op.RestPath, op.TimeoutMs, op.RetryCount,
		op.ExecutionMode, vr, tr, responseValidation(op.ResponseValidation)}, nil
}

func scanOperation(scan func(...any) error) (model.Operation, error) {
	var (
		op       model.Operation
		position int
		vr, tr   string
	)
	if err := scan(&op.OperationID, &op.VersionID, &position, &op.OperationKey, &op.SOAPOperationName,
		&op.SOAPNamespace, &op.SOAPVersion, &op.SOAPAction, &op.Style, &op.Use, &op.RestMethod, &op.RestPath,
		&op.TimeoutMs, &op.RetryCount, &op.ExecutionMode, &vr, &tr, &op.ResponseValidation); err != nil {
		return model.Operation{}, err
	}
	if err := json.Unmarshal([]byte(vr), &op.ValidationRules); err != nil {
		return model.Operation{}, fmt.Errorf("validation rules of %s: %w", op.OperationID, err)
	}
	if err := json.Unmarshal([]byte(tr), &op.TransformRules); err != nil {
		return model.Operation{}, fmt.Errorf("transform rules of %s: %w", op.OperationID, err)
	}
	return op, nil
}

// responseValidation stores "" as the default mode, strict.
func responseValidation(mode string) string {
	if mode == "" {
		return model.ValidationStrict
	}
	return mode
}
