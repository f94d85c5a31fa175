package store

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/s2r-project/s2r/internal/model"
)

// badURLBatch bounds the rows of one multi-row INSERT (4 parameters each;
// well under SQLite's and PostgreSQL's parameter limits).
const badURLBatch = 500

// maxBadURLText bounds a stored path or method of a bad-URL attempt.
const maxBadURLText = 512

// InsertBadURLAttempts stores attempts with multi-row INSERTs.
func (tx *Tx) InsertBadURLAttempts(ctx context.Context, attempts []model.BadURLAttempt) error {
	for len(attempts) > 0 {
		n := min(len(attempts), badURLBatch)
		if err := insertBadURLChunk(ctx, tx, attempts[:n]); err != nil {
			return err
		}
		attempts = attempts[n:]
	}
	return nil
}

func insertBadURLChunk(ctx context.Context, tx *Tx, chunk []model.BadURLAttempt) error {
	var b strings.Builder
	b.WriteString("INSERT INTO bad_url_attempts (path, method, at) VALUES ")
	args := make([]any, 0, 3*len(chunk))
	for i, a := range chunk {
		if i > 0 {
			b.WriteByte(',')
		}
		if tx.dialect == SQLite {
			// Anonymous placeholders: modernc.org/sqlite resolves each
			// numbered one with a linear scan, so a 1,500-parameter
			// statement with $N binds in quadratic time (tens of ms).
			b.WriteString("(?,?,?)")
		} else {
			n := 3 * i
			b.WriteString("($" + strconv.Itoa(n+1) + ",$" + strconv.Itoa(n+2) + ",$" + strconv.Itoa(n+3) + ")")
		}
		args = append(args, StorableText(a.Path, maxBadURLText), StorableText(a.Method, maxBadURLText), NewTime(a.At))
	}
	if _, err := tx.Exec(ctx, b.String(), args...); err != nil {
		return fmt.Errorf("store: insert bad url attempts: %w", err)
	}
	return nil
}

// BadURLSummary groups attempts since the given time by path, most
// frequent first.
func (s *Store) BadURLSummary(ctx context.Context, since time.Time) ([]model.BadURLCount, error) {
	rows, err := s.reader().Query(ctx,
		`SELECT path, COUNT(*) FROM bad_url_attempts WHERE at >= $1 GROUP BY path ORDER BY COUNT(*) DESC, path`,
		NewTime(since))
	if err != nil {
		return nil, fmt.Errorf("store: bad url summary: %w", err)
	}
	defer rows.Close()
	var out []model.BadURLCount
	for rows.Next() {
		var c model.BadURLCount
		if err := rows.Scan(&c.Path, &c.Count); err != nil {
			return nil, fmt.Errorf("store: bad url summary: %w", err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: bad url summary: %w", mapError(err))
	}
	return out, nil
}

// DeleteBadURLAttemptsBefore removes attempts older than t (retention) and
// returns how many were removed.
func (tx *Tx) DeleteBadURLAttemptsBefore(ctx context.Context, t time.Time) (int64, error) {
	res, err := tx.Exec(ctx, "DELETE FROM bad_url_attempts WHERE at < $1", NewTime(t))
	if err != nil {
		return 0, fmt.Errorf("store: delete bad url attempts: %w", err)
	}
	return res.RowsAffected()
}
