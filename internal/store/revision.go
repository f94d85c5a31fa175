package store

import (
	"context"
	"fmt"
	"strconv"
)

// BumpRevision increments the configuration revision and returns the new
// value. Every admin change that affects the runtime calls it in the same
// transaction as the change, so the revision and the change commit together.
func (tx *Tx) BumpRevision(ctx context.Context) (int64, error) {
	var rev int64
	err := tx.QueryRow(ctx, "UPDATE config_revision SET revision = revision + 1 WHERE id = 1 RETURNING revision").Scan(&rev)
	if err != nil {
		return 0, fmt.Errorf("store: bump revision: %w", err)
	}
	if tx.dialect == Postgres {
		// Delivered to other instances' LISTEN only when the transaction
		// commits.
		if _, err := tx.Exec(ctx, "SELECT pg_notify($1, $2)", revisionChannel, strconv.FormatInt(rev, 10)); err != nil {
			return 0, fmt.Errorf("store: notify revision: %w", err)
		}
	}
	tx.bumped = rev
	return rev, nil
}

// Revision returns the current configuration revision.
func (s *Store) Revision(ctx context.Context) (int64, error) {
	return revision(ctx, s.reader())
}

// Revision returns the configuration revision as seen by the transaction.
func (tx *Tx) Revision(ctx context.Context) (int64, error) {
	return revision(ctx, tx)
}

func revision(ctx context.Context, q Querier) (int64, error) {
	var rev int64
	if err := q.QueryRow(ctx, "SELECT revision FROM config_revision WHERE id = 1").Scan(&rev); err != nil {
		return 0, fmt.Errorf("store: revision: %w", err)
	}
	return rev, nil
}
