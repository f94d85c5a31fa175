package store

import (
	"context"
	"fmt"

	"github.com/s2r-project/s2r/internal/model"
)

// InsertTestPreview saves the request and response of one backend test.
func (tx *Tx) InsertTestPreview(ctx context.Context, p model.TestPreview) error {
	_, err := tx.Exec(ctx, `INSERT INTO test_previews (preview_id, profile_id, operation_id, kind, request, response,
		status, http_status, latency_ms, created_at, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
		p.PreviewID, p.ProfileID, p.OperationID, p.Kind, string(p.Request), string(p.Response), p.Status,
		p.HTTPStatus, p.LatencyMs, NewTime(p.CreatedAt), p.CreatedBy)
	if err != nil {
		return fmt.Errorf("store: insert test preview: %w", err)
	}
	return nil
}

// TestPreviews returns one page of the previews of a profile, newest
// first.
func (s *Store) TestPreviews(ctx context.Context, profileID string, page model.PageRequest) (model.ObservabilityPageRecord[model.TestPreview], error) {
	var total int64
	err := s.reader().QueryRow(ctx, "SELECT COUNT(*) FROM test_previews WHERE profile_id = $1", profileID).Scan(&total)
	if err != nil {
		return model.ObservabilityPageRecord[model.TestPreview]{}, fmt.Errorf("store: count test previews: %w", err)
	}
	rows, err := s.reader().Query(ctx, `SELECT preview_id, profile_id, operation_id, kind, request, response, status,
		http_status, latency_ms, created_at, created_by FROM test_previews WHERE profile_id = $1
		ORDER BY created_at DESC, preview_id DESC LIMIT $2 OFFSET $3`, profileID, page.PageSize, page.Offset())
	if err != nil {
		return model.ObservabilityPageRecord[model.TestPreview]{}, fmt.Errorf("store: test previews: %w", err)
	}
	defer rows.Close()
	items := []model.TestPreview{}
	for rows.Next() {
		var (
			p        model.TestPreview
			req, res string
			created  Time
		)
		if err := rows.Scan(&p.PreviewID, &p.ProfileID, &p.OperationID, &p.Kind, &req, &res, &p.Status,
			&p.HTTPStatus, &p.LatencyMs, &created, &p.CreatedBy); err != nil {
			return model.ObservabilityPageRecord[model.TestPreview]{}, fmt.Errorf("store: test previews: %w", err)
		}
		p.Request, p.Response, p.CreatedAt = []byte(req), []byte(res), created.Time
		items = append(items, p)
	}
	if err := rows.Err(); err != nil {
		return model.ObservabilityPageRecord[model.TestPreview]{}, fmt.Errorf("store: test previews: %w", mapError(err))
	}
	return model.NewPage(items, page, total), nil
}
