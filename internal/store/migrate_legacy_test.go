package store_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// legacyMigrations reads testdata/legacy-migrations/<dialect>: the
// migration files of schema version 15 as they were when each dialect had
// its own complete copy, kept to prove that databases they created are
// recognised, and reach the schema a fresh database gets.
func legacyMigrations(t *testing.T, d store.Dialect) []store.Migration {
	t.Helper()
	dir := filepath.Join("testdata", "legacy-migrations", d.String())
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []store.Migration
	for _, e := range entries {
		num, _, _ := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, store.Migration{Version: v, Name: e.Name(), SQL: string(b)})
	}
	if len(out) == 0 {
		t.Fatalf("no legacy migrations in %s", dir)
	}
	return out
}

// appliedMigration is one row of schema_migrations.
type appliedMigration struct {
	Version   int
	Name      string
	AppliedAt string
}

func appliedMigrations(t *testing.T, s *store.Store) []appliedMigration {
	t.Helper()
	ctx := context.Background()
	var out []appliedMigration
	err := s.Transact(ctx, func(tx *store.Tx) error {
		rows, err := tx.Query(ctx, "SELECT version, name, CAST(applied_at AS TEXT) FROM schema_migrations ORDER BY version")
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var m appliedMigration
			if err := rows.Scan(&m.Version, &m.Name, &m.AppliedAt); err != nil {
				return err
			}
			out = append(out, m)
		}
		return rows.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestMigrateUpgradesLegacyDatabase builds a database with the legacy
// migration set, then runs Migrate: no legacy migration may run again (its
// schema_migrations row stays as it was), the current set must name the
// legacy versions alike, and the schema must equal a fresh database's,
// compared as the exact DDL text on SQLite and the catalog on PostgreSQL.
func TestMigrateUpgradesLegacyDatabase(t *testing.T) {
	storetest.RunConfig(t, func(t *testing.T, cfg store.Config) {
		ctx := context.Background()
		s, err := store.Open(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		legacy := legacyMigrations(t, s.Dialect())
		for _, m := range legacy {
			if err := s.ApplyMigration(ctx, m); err != nil {
				t.Fatal(err)
			}
		}
		before := appliedMigrations(t, s)
		if err := s.Migrate(ctx); err != nil {
			t.Fatalf("Migrate on a legacy database: %v", err)
		}
		after := appliedMigrations(t, s)
		if diff := cmp.Diff(before, after[:len(before)]); diff != "" {
			t.Errorf("legacy schema_migrations rows changed (-before +after):\n%s", diff)
		}
		current, err := store.Migrations(s.Dialect())
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range legacy {
			if c := current[i]; c.Version != m.Version || c.Name != m.Name {
				t.Errorf("migration %d is %d %s, legacy %d %s", i, c.Version, c.Name, m.Version, m.Name)
			}
		}
		fresh := freshStore(t, s.Dialect())
		if diff := cmp.Diff(schemaDump(t, fresh), schemaDump(t, s)); diff != "" {
			t.Errorf("schema of an upgraded legacy database differs from a fresh one (-fresh +legacy):\n%s", diff)
		}
	})
}

// freshStore returns a new migrated store of dialect d.
func freshStore(t *testing.T, d store.Dialect) *store.Store {
	if d == store.Postgres {
		return storetest.Postgres(t)
	}
	return storetest.SQLite(t)
}

// schemaDump lists the schema of s as text lines: on SQLite every
// sqlite_master row with its DDL byte for byte; on PostgreSQL every column
// (type, nullability, default, identity, position), constraint and index
// as the catalog describes it.
func schemaDump(t *testing.T, s *store.Store) []string {
	t.Helper()
	q := sqliteDumpSQL
	if s.Dialect() == store.Postgres {
		q = postgresDumpSQL
	}
	return queryStrings(t, s, q)
}

const sqliteDumpSQL = `SELECT type || ' ' || name || ' ON ' || tbl_name || ': ' || COALESCE(sql, '')
FROM sqlite_master ORDER BY type, name`

const postgresDumpSQL = `SELECT c.relname || '.' || a.attname || ' #' || a.attnum || ' ' || format_type(a.atttypid, a.atttypmod)
    || CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END
    || COALESCE(' DEFAULT ' || pg_get_expr(d.adbin, d.adrelid), '')
    || CASE a.attidentity WHEN 'a' THEN ' IDENTITY ALWAYS' WHEN 'd' THEN ' IDENTITY BY DEFAULT' ELSE '' END
FROM pg_attribute a
JOIN pg_class c ON c.oid = a.attrelid
JOIN pg_namespace n ON n.oid = c.relnamespace
LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
WHERE n.nspname = current_schema() AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
UNION ALL
SELECT c.relname || ' CONSTRAINT ' || con.conname || ' ' || pg_get_constraintdef(con.oid)
FROM pg_constraint con
JOIN pg_class c ON c.oid = con.conrelid
JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = current_schema() AND con.contype <> 'n'
UNION ALL
SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema()
UNION ALL
SELECT 'SEQUENCE ' || c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = current_schema() AND c.relkind = 'S'
ORDER BY 1`

// queryStrings returns the single text column of every row of q.
func queryStrings(t *testing.T, s *store.Store, q string, args ...any) []string {
	t.Helper()
	ctx := context.Background()
	var out []string
	err := s.Transact(ctx, func(tx *store.Tx) error {
		rows, err := tx.Query(ctx, q, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var v string
			if err := rows.Scan(&v); err != nil {
				return err
			}
			out = append(out, v)
		}
		return rows.Err()
	})
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return out
}
