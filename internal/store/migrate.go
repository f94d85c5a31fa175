package store

import (
	"context"
	"fmt"
	"time"
)

// migrationLockKey is the PostgreSQL advisory lock key held while a
// migration is checked and applied, so instances starting together apply
// each migration exactly once.
const migrationLockKey int64 = 0x5332_5200_0001

// Migration is one numbered schema change.
type Migration struct {
	Version int
	Name    string // shared file name, e.g. 0001_core.sql
	SQL     string // the dialect's statements, placeholders replaced
}

// Migrate applies every embedded migration not yet recorded in
// schema_migrations, each in its own transaction. It is idempotent and safe
// when several instances start at once (PostgreSQL advisory lock; SQLite
// IMMEDIATE transactions). It refuses a database migrated by a newer binary.
func (s *Store) Migrate(ctx context.Context) error {
	migs, err := Migrations(s.dialect)
	if err != nil {
		return err
	}
	for _, m := range migs {
		if err := s.applyMigration(ctx, m); err != nil {
			return err
		}
	}
	current, err := s.SchemaVersion(ctx)
	if err != nil {
		return err
	}
	if n := len(migs); n > 0 && current > migs[n-1].Version {
		return fmt.Errorf("store: database schema version %d is newer than this binary's %d", current, migs[n-1].Version)
	}
	return nil
}

func (s *Store) applyMigration(ctx context.Context, m Migration) error {
	err := s.Transact(ctx, func(tx *Tx) error {
		if s.dialect == Postgres {
			if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", migrationLockKey); err != nil {
				return fmt.Errorf("lock: %w", err)
			}
		}
		if _, err := tx.Exec(ctx, schemaMigrationsDDL(s.dialect)); err != nil {
			return fmt.Errorf("create schema_migrations: %w", err)
		}
		var n int
		if err := tx.QueryRow(ctx, "SELECT COUNT(*) FROM schema_migrations WHERE version = $1", m.Version).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return nil
		}
		if _, err := tx.Exec(ctx, m.SQL); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
			m.Version, m.Name, NewTime(time.Now()))
		return err
	})
	if err != nil {
		return fmt.Errorf("store: migration %s (%s): %w", m.Name, s.dialect, err)
	}
	return nil
}

// schemaMigrationsDDL creates the table that records applied migrations.
func schemaMigrationsDDL(d Dialect) string {
	return schemaReplacer(d).Replace(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at {{time}} NOT NULL)`)
}

// SchemaVersion returns the highest applied migration version, 0 when none.
func (s *Store) SchemaVersion(ctx context.Context) (int, error) {
	var v int
	err := s.reader().QueryRow(ctx, "SELECT COALESCE(MAX(version), 0) FROM schema_migrations").Scan(&v)
	if err != nil {
		return 0, fmt.Errorf("store: schema version: %w", err)
	}
	return v, nil
}
