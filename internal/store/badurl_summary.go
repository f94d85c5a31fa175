package store

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/s2r-project/s2r/internal/model"
)

// BadURLGroups groups the attempts since the given time by path, most
// frequent first (ties by path), at most limit paths.
func (s *Store) BadURLGroups(ctx context.Context, since time.Time, limit int) ([]model.BadURLGroup, error) {
	rows, err := s.reader().Query(ctx,
		`SELECT path, method, COUNT(*), MAX(at) FROM bad_url_attempts WHERE at >= $1 GROUP BY path, method`,
		NewTime(since))
	if err != nil {
		return nil, fmt.Errorf("store: bad url groups: %w", err)
	}
	defer rows.Close()
	byPath := map[string]*model.BadURLGroup{}
	for rows.Next() {
		var (
			path, method string
			n            int64
			last         Time
		)
		if err := rows.Scan(&path, &method, &n, &last); err != nil {
			return nil, fmt.Errorf("store: bad url groups: %w", err)
		}
		g := byPath[path]
		if g == nil {
			g = &model.BadURLGroup{Path: path}
			byPath[path] = g
		}
		g.Count += n
		g.Methods = append(g.Methods, method)
		if last.After(g.LastSeenAt) {
			g.LastSeenAt = last.Time
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: bad url groups: %w", mapError(err))
	}
	out := make([]model.BadURLGroup, 0, len(byPath))
	for _, g := range byPath {
		slices.Sort(g.Methods)
		out = append(out, *g)
	}
	slices.SortFunc(out, func(a, b model.BadURLGroup) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Path, b.Path))
	})
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}
