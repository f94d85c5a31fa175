package store_test

import (
	"context"
	"errors"
	"testing"

	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

func TestSentinelMapping(t *testing.T) {
	tests := []struct {
		name string
		run  func(ctx context.Context, tx *store.Tx) error
		want error
	}{
		{
			name: "unique violation",
			run: func(ctx context.Context, tx *store.Tx) error {
				_, err := tx.Exec(ctx, "INSERT INTO config_revision (id, revision) VALUES (1, 5)")
				return err
			},
			want: store.ErrAlreadyExists,
		},
		{
			name: "check violation",
			run: func(ctx context.Context, tx *store.Tx) error {
				_, err := tx.Exec(ctx, "INSERT INTO config_revision (id, revision) VALUES (2, 5)")
				return err
			},
			want: store.ErrConflict,
		},
		{
			name: "no rows",
			run: func(ctx context.Context, tx *store.Tx) error {
				var v int64
				return tx.QueryRow(ctx, "SELECT revision FROM config_revision WHERE id = $1", 42).Scan(&v)
			},
			want: store.ErrNotFound,
		},
	}
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				ctx := context.Background()
				err := s.Transact(ctx, func(tx *store.Tx) error { return tt.run(ctx, tx) })
				if !errors.Is(err, tt.want) {
					t.Errorf("err = %v, want %v", err, tt.want)
				}
			})
		}
	})
}

// TestForeignKeysEnforced checks foreign_keys(1) on SQLite and the mapping of
// a foreign key violation to ErrConflict on both dialects.
func TestForeignKeysEnforced(t *testing.T) {
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		err := s.Transact(ctx, func(tx *store.Tx) error {
			if _, err := tx.Exec(ctx, "CREATE TABLE fk_parent (id INTEGER PRIMARY KEY)"); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, "CREATE TABLE fk_child (id INTEGER PRIMARY KEY, parent INTEGER NOT NULL REFERENCES fk_parent (id))"); err != nil {
				return err
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		err = s.Transact(ctx, func(tx *store.Tx) error {
			_, err := tx.Exec(ctx, "INSERT INTO fk_child (id, parent) VALUES ($1, $2)", 1, 99)
			return err
		})
		if !errors.Is(err, store.ErrConflict) {
			t.Errorf("err = %v, want ErrConflict", err)
		}
	})
}

// TestPlaceholders checks that $N placeholders bind by number on both
// drivers, including reuse and out-of-order use.
func TestPlaceholders(t *testing.T) {
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		var a, b string
		var n int64
		err := s.Transact(ctx, func(tx *store.Tx) error {
			return tx.QueryRow(ctx, "SELECT CAST($2 AS TEXT), CAST($1 AS TEXT), CAST($3 AS BIGINT) + CAST($3 AS BIGINT)", "one", "two", 21).Scan(&a, &b, &n)
		})
		if err != nil {
			t.Fatal(err)
		}
		if a != "two" || b != "one" || n != 42 {
			t.Errorf("got %q %q %d, want two one 42", a, b, n)
		}
	})
}

func TestReaderIsReadOnlyOnSQLite(t *testing.T) {
	s := storetest.SQLite(t)
	if _, err := s.BadURLSummary(context.Background(), zeroTime); err != nil {
		t.Fatalf("read on reader pool: %v", err)
	}
}
