package store

import (
	"context"
	"strings"
	"time"
)

// Query texts of the discovery read paths, for the plan tests.
var (
	LBExchangesSQL      = lbExchangesSQL
	LBRequestsSQL       = lbRequestsSQL
	GenericExchangesSQL = genericExchangesSQL
	StoredKeysSQL       = storedKeysSQL
)

// Explain returns the query plan of query: EXPLAIN QUERY PLAN on SQLite;
// EXPLAIN on PostgreSQL with sequential scans disabled, so that a test
// table of a few thousand rows shows which index a large one would use.
func (s *Store) Explain(ctx context.Context, query string, args ...any) (string, error) {
	var lines []string
	err := s.Transact(ctx, func(tx *Tx) error {
		prefix := "EXPLAIN QUERY PLAN "
		if s.dialect == Postgres {
			prefix = "EXPLAIN (COSTS OFF) "
			if _, err := tx.Exec(ctx, "SET LOCAL enable_seqscan = off"); err != nil {
				return err
			}
		}
		rows, err := tx.Query(ctx, prefix+query, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				return err
			}
			for _, v := range vals {
				switch v := v.(type) {
				case string:
					lines = append(lines, v)
				case []byte:
					lines = append(lines, string(v))
				}
			}
		}
		return rows.Err()
	})
	return strings.Join(lines, "\n"), err
}

// SetLeaseIdle sets how long s keeps a job lease without a run (tests).
func SetLeaseIdle(s *Store, d time.Duration) {
	s.leases.mu.Lock()
	defer s.leases.mu.Unlock()
	s.leases.idle = d
}
