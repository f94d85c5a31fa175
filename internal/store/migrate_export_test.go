package store

import "context"

// ApplyMigration applies m unless schema_migrations records its version,
// as Migrate does for each embedded migration; tests use it to build a
// database with an older migration set.
func (s *Store) ApplyMigration(ctx context.Context, m Migration) error {
	return s.applyMigration(ctx, m)
}

// LoadMigrations is loadMigrations: the migrations of d read from fsys.
var LoadMigrations = loadMigrations
