package store

import (
	"context"
	"fmt"

	"github.com/s2r-project/s2r/internal/model"
)

// RoleBindings returns every group role binding in the order last stored.
func (s *Store) RoleBindings(ctx context.Context) ([]model.RoleBinding, error) {
	return roleBindings(ctx, s.reader())
}

// RoleBindings returns every group role binding as seen by the transaction.
func (tx *Tx) RoleBindings(ctx context.Context) ([]model.RoleBinding, error) {
	return roleBindings(ctx, tx)
}

func roleBindings(ctx context.Context, q Querier) ([]model.RoleBinding, error) {
	rows, err := q.Query(ctx, "SELECT group_id, role, tenant_id FROM role_bindings ORDER BY position")
	if err != nil {
		return nil, fmt.Errorf("store: role bindings: %w", err)
	}
	defer rows.Close()
	out := []model.RoleBinding{}
	for rows.Next() {
		var b model.RoleBinding
		if err := rows.Scan(&b.Group, &b.Role, &b.TenantID); err != nil {
			return nil, fmt.Errorf("store: role bindings: %w", err)
		}
		out = append(out, b)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: role bindings: %w", mapError(err))
	}
	return out, nil
}

// ReplaceRoleBindings replaces the whole set of group role bindings. Two
// bindings of one group in one tenant give ErrAlreadyExists.
func (tx *Tx) ReplaceRoleBindings(ctx context.Context, bindings []model.RoleBinding) error {
	if _, err := tx.Exec(ctx, "DELETE FROM role_bindings"); err != nil {
		return fmt.Errorf("store: replace role bindings: %w", err)
	}
	for i, b := range bindings {
		_, err := tx.Exec(ctx, "INSERT INTO role_bindings (group_id, tenant_id, role, position) VALUES ($1, $2, $3, $4)",
			b.Group, b.TenantID, string(b.Role), i)
		if err != nil {
			return fmt.Errorf("store: replace role bindings: %w", err)
		}
	}
	return nil
}

const permissionColumns = "binding_id, email, role, tenant_id, created_at, created_by"

// PermissionBindings returns every direct permission binding, oldest first.
func (s *Store) PermissionBindings(ctx context.Context) ([]model.PermissionBinding, error) {
	rows, err := s.reader().Query(ctx, "SELECT "+permissionColumns+" FROM permission_bindings ORDER BY created_at, binding_id")
	if err != nil {
		return nil, fmt.Errorf("store: permission bindings: %w", err)
	}
	defer rows.Close()
	out := []model.PermissionBinding{}
	for rows.Next() {
		b, err := scanPermission(rows.Scan)
		if err != nil {
			return nil, fmt.Errorf("store: permission bindings: %w", err)
		}
		out = append(out, b)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: permission bindings: %w", mapError(err))
	}
	return out, nil
}

// InsertPermissionBinding stores b. An existing binding for the same e-mail
// gives ErrAlreadyExists.
func (tx *Tx) InsertPermissionBinding(ctx context.Context, b model.PermissionBinding) error {
	_, err := tx.Exec(ctx, "INSERT INTO permission_bindings ("+permissionColumns+") VALUES ($1, $2, $3, $4, $5, $6)",
		b.BindingID, b.Email, string(b.Role), b.TenantID, NewTime(b.CreatedAt), b.CreatedBy)
	if err != nil {
		return fmt.Errorf("store: insert permission binding: %w", err)
	}
	return nil
}

// DeletePermissionBinding removes the binding with id and returns it;
// ErrNotFound when there is none.
func (tx *Tx) DeletePermissionBinding(ctx context.Context, id string) (model.PermissionBinding, error) {
	row := tx.QueryRow(ctx, "DELETE FROM permission_bindings WHERE binding_id = $1 RETURNING "+permissionColumns, id)
	b, err := scanPermission(row.Scan)
	if err != nil {
		return model.PermissionBinding{}, fmt.Errorf("store: delete permission binding: %w", err)
	}
	return b, nil
}

func scanPermission(scan func(...any) error) (model.PermissionBinding, error) {
	var (
		b  model.PermissionBinding
		at Time
	)
	if err := scan(&b.BindingID, &b.Email, &b.Role, &b.TenantID, &at, &b.CreatedBy); err != nil {
		return model.PermissionBinding{}, err
	}
	b.CreatedAt = at.Time
	return b, nil
}
