package store

import (
	"context"
	"fmt"
	"time"

	"github.com/s2r-project/s2r/internal/model"
)

const versionColumns = `version_id, service_id, version_number, status, artifact_id, wsdl_service, wsdl_port,
	created_at, activated_at, created_by, note`

// CreateVersion stores a new version. A second draft or active version of
// the service gives ErrAlreadyExists.
func (tx *Tx) CreateVersion(ctx context.Context, v model.Version) error {
	_, err := tx.Exec(ctx, "INSERT INTO service_versions ("+versionColumns+`) VALUES
		($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
		v.VersionID, v.ServiceID, v.VersionNumber, v.Status, v.ArtifactID, v.WSDLService, v.WSDLPort,
		NewTime(v.CreatedAt), optTime(v.ActivatedAt), v.CreatedBy, v.Note)
	if err != nil {
		return fmt.Errorf("store: create version: %w", err)
	}
	return nil
}

// NextVersionNumber returns the number the service's next version gets:
// one more than the highest so far, 1 for the first.
func (tx *Tx) NextVersionNumber(ctx context.Context, serviceID string) (int, error) {
	var n int
	err := tx.QueryRow(ctx, "SELECT COALESCE(MAX(version_number), 0) + 1 FROM service_versions WHERE service_id = $1",
		serviceID).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("store: next version number: %w", err)
	}
	return n, nil
}

// SetVersionStatus changes the status of version id and, when
// activatedAt is not zero, its activation time. ErrNotFound when there is no
// such version, ErrAlreadyExists when it would make a second draft or
// active version of the service.
func (tx *Tx) SetVersionStatus(ctx context.Context, id, status string, activatedAt time.Time) error {
	res, err := tx.Exec(ctx, `UPDATE service_versions SET status = $2,
		activated_at = COALESCE($3, activated_at) WHERE version_id = $1`, id, status, NewTime(activatedAt))
	if err != nil {
		return fmt.Errorf("store: set version status: %w", err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return fmt.Errorf("store: set version status %s: %w", id, ErrNotFound)
	}
	return nil
}

// optTime returns *t as a storable Time, the zero Time (NULL) for nil.
func optTime(t *time.Time) Time {
	if t == nil {
		return Time{}
	}
	return NewTime(*t)
}

// Version returns the version with id; ErrNotFound when there is none.
func (s *Store) Version(ctx context.Context, id string) (model.Version, error) {
	return getVersion(ctx, s.reader(), "version_id = $1", id)
}

// Version returns the version with id as seen by the transaction.
func (tx *Tx) Version(ctx context.Context, id string) (model.Version, error) {
	return getVersion(ctx, tx, "version_id = $1", id)
}

// VersionWithStatus returns the service's version with status (draft or
// active; there is at most one of each); ErrNotFound when there is none.
func (s *Store) VersionWithStatus(ctx context.Context, serviceID, status string) (model.Version, error) {
	return getVersion(ctx, s.reader(), "service_id = $1 AND status = $2", serviceID, status)
}

// VersionWithStatus is Store.VersionWithStatus inside the transaction.
func (tx *Tx) VersionWithStatus(ctx context.Context, serviceID, status string) (model.Version, error) {
	return getVersion(ctx, tx, "service_id = $1 AND status = $2", serviceID, status)
}

func getVersion(ctx context.Context, q Querier, where string, args ...any) (model.Version, error) {
	v, err := scanVersion(q.QueryRow(ctx, "SELECT "+versionColumns+" FROM service_versions WHERE "+where, args...).Scan)
	if err != nil {
		return model.Version{}, fmt.Errorf("store: version: %w", err)
	}
	return v, nil
}

// Versions returns the service's versions, newest first.
func (s *Store) Versions(ctx context.Context, serviceID string) ([]model.Version, error) {
	return versions(ctx, s.reader(), serviceID)
}

// Versions returns the service's versions, newest first, as seen by the
// transaction.
func (tx *Tx) Versions(ctx context.Context, serviceID string) ([]model.Version, error) {
	return versions(ctx, tx, serviceID)
}

func versions(ctx context.Context, q Querier, serviceID string) ([]model.Version, error) {
	rows, err := q.Query(ctx, "SELECT "+versionColumns+
		" FROM service_versions WHERE service_id = $1 ORDER BY version_number DESC", serviceID)
	if err != nil {
		return nil, fmt.Errorf("store: versions: %w", err)
	}
	defer rows.Close()
	out := []model.Version{}
	for rows.Next() {
		v, err := scanVersion(rows.Scan)
		if err != nil {
			return nil, fmt.Errorf("store: versions: %w", err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: versions: %w", mapError(err))
	}
	return out, nil
}

func scanVersion(scan func(...any) error) (model.Version, error) {
	var (
		v                  model.Version
		created, activated Time
	)
	if err := scan(&v.VersionID, &v.ServiceID, &v.VersionNumber, &v.Status, &v.ArtifactID, &v.WSDLService,
		&v.WSDLPort, &created, &activated, &v.CreatedBy, &v.Note); err != nil {
		return model.Version{}, err
	}
	v.CreatedAt = created.Time
	if !activated.IsZero() {
		t := activated.Time
		v.ActivatedAt = &t
	}
	return v, nil
}
