package store_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

func TestMigrationsMatchAcrossDialects(t *testing.T) {
	names := func(d store.Dialect) []string {
		migs, err := store.Migrations(d)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, m := range migs {
			out = append(out, m.Name)
		}
		return out
	}
	sq, pg := names(store.SQLite), names(store.Postgres)
	if len(sq) == 0 {
		t.Fatal("no migrations embedded")
	}
	if diff := cmp.Diff(sq, pg); diff != "" {
		t.Errorf("sqlite and postgres migrations differ (-sqlite +postgres):\n%s", diff)
	}
}

func TestMigrateFreshAndIdempotent(t *testing.T) {
	storetest.RunConfig(t, func(t *testing.T, cfg store.Config) {
		ctx := context.Background()
		s, err := store.Open(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		for i := range 2 {
			if err := s.Migrate(ctx); err != nil {
				t.Fatalf("migrate #%d: %v", i+1, err)
			}
		}
		migs, _ := store.Migrations(s.Dialect())
		v, err := s.SchemaVersion(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if want := migs[len(migs)-1].Version; v != want {
			t.Errorf("schema version = %d, want %d", v, want)
		}
		rev, err := s.Revision(ctx)
		if err != nil || rev != 0 {
			t.Errorf("Revision = %d, %v; want 0, nil", rev, err)
		}
	})
}

// TestMigrateConcurrentStarts opens several stores on one empty database and
// migrates them at once, as instances starting together would.
func TestMigrateConcurrentStarts(t *testing.T) {
	storetest.RunConfig(t, func(t *testing.T, cfg store.Config) {
		ctx := context.Background()
		const n = 4
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s, err := store.Open(ctx, cfg)
				if err != nil {
					errs[i] = err
					return
				}
				defer s.Close()
				errs[i] = s.Migrate(ctx)
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Errorf("instance %d: %v", i, err)
			}
		}
		s, err := store.Open(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		var rows int
		if err := s.Transact(ctx, func(tx *store.Tx) error {
			return tx.QueryRow(ctx, "SELECT COUNT(*) FROM config_revision").Scan(&rows)
		}); err != nil {
			t.Fatal(err)
		}
		if rows != 1 {
			t.Errorf("config_revision has %d rows, want 1 (a migration ran twice?)", rows)
		}
	})
}

func TestOpenRejectsUnknownScheme(t *testing.T) {
	_, err := store.Open(context.Background(), store.Config{URL: "mysql://u:hunter2@h/db"})
	if err == nil {
		t.Fatal("Open(mysql://) succeeded")
	}
	if got := err.Error(); strings.Contains(got, "hunter2") {
		t.Errorf("error leaks the password: %s", got)
	}
}

func TestSQLiteFilesArePrivate(t *testing.T) {
	cfg := storetest.SQLiteConfig(t)
	s, err := store.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{store.SQLiteFile, store.SQLiteFile + "-wal"} {
		fi, err := os.Stat(filepath.Join(cfg.DataDir, name))
		if err != nil {
			t.Fatal(err)
		}
		if perm := fi.Mode().Perm(); perm&0o077 != 0 {
			t.Errorf("%s has mode %v, want no group/other access", name, perm)
		}
	}
}
