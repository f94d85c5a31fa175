package store

import (
	"context"
	"fmt"

	"github.com/s2r-project/s2r/internal/model"
)

// PutOpenAPIDocument stores (or replaces) the generated OpenAPI document
// of d.VersionID.
func (tx *Tx) PutOpenAPIDocument(ctx context.Context, d model.OpenAPIDocument) error {
	if _, err := tx.Exec(ctx, "DELETE FROM openapi_documents WHERE version_id = $1", d.VersionID); err != nil {
		return fmt.Errorf("store: openapi document: %w", err)
	}
	_, err := tx.Exec(ctx, `INSERT INTO openapi_documents (version_id, document, sha256, generated_at, generated_by)
		VALUES ($1, $2, $3, $4, $5)`, d.VersionID, string(d.Document), d.SHA256, NewTime(d.GeneratedAt), d.GeneratedBy)
	if err != nil {
		return fmt.Errorf("store: openapi document: %w", err)
	}
	return nil
}

// OpenAPIDocument returns the stored document of a version; ErrNotFound
// when none was generated.
func (s *Store) OpenAPIDocument(ctx context.Context, versionID string) (model.OpenAPIDocument, error) {
	var (
		d   = model.OpenAPIDocument{VersionID: versionID}
		doc string
		at  Time
	)
	err := s.reader().QueryRow(ctx, `SELECT document, sha256, generated_at, generated_by FROM openapi_documents
		WHERE version_id = $1`, versionID).Scan(&doc, &d.SHA256, &at, &d.GeneratedBy)
	if err != nil {
		return d, fmt.Errorf("store: openapi document: %w", err)
	}
	d.Document, d.GeneratedAt = []byte(doc), at.Time
	return d, nil
}
