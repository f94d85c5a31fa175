package store_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

const orphanVersion = `INSERT INTO service_versions (version_id, service_id, version_number, status, created_at, created_by)
	VALUES ('v-orphan', 'no-such-service', 1, 'draft', '2026-01-01T00:00:00.000000Z', 'test')`

// TestCheckIntegrity: a fresh database passes; a child row whose parent
// is missing (written past the foreign keys) is reported on both
// databases.
func TestCheckIntegrity(t *testing.T) {
	ctx := context.Background()
	storetest.RunConfig(t, func(t *testing.T, cfg store.Config) {
		s := storetest.Open(t, cfg)
		rep, err := s.CheckIntegrity(ctx, store.IntegrityOptions{InstallAmcheck: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Problems) > 0 || len(rep.Checks) < 2 || len(rep.Notes) > 0 {
			t.Fatalf("fresh database: %+v", rep)
		}
		t.Logf("checks: %v", rep.Checks)
		if s.Dialect() == store.Postgres {
			err = s.Transact(ctx, func(tx *store.Tx) error {
				if _, err := tx.Exec(ctx, "SET LOCAL session_replication_role = replica"); err != nil {
					return err
				}
				_, err := tx.Exec(ctx, orphanVersion)
				return err
			})
		} else {
			var db *sql.DB
			if db, err = sql.Open("sqlite", filepath.Join(cfg.DataDir, store.SQLiteFile)); err == nil {
				_, err = db.ExecContext(ctx, orphanVersion)
				db.Close()
			}
		}
		if err != nil {
			t.Fatal(err)
		}
		rep, err = s.CheckIntegrity(ctx, store.IntegrityOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Problems) != 1 || !strings.Contains(rep.Problems[0], "service_versions") {
			t.Fatalf("orphan not reported: %+v", rep)
		}
	})
}
