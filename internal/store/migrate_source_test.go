package store_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/s2r-project/s2r/internal/store"
)

func TestLoadMigrationsJoinsSharedAndDialectParts(t *testing.T) {
	fsys := fstest.MapFS{
		"0001_a.sql":          {Data: []byte("CREATE TABLE a (id {{auto_id}}, at {{time}} NOT NULL, on_ {{bool}} NOT NULL DEFAULT {{false}});")},
		"0002_b.sql":          {Data: []byte("CREATE TABLE b (n {{int64}});")},
		"sqlite/0002_b.sql":   {Data: []byte("CREATE INDEX b_n ON b (n) WHERE n = 1;")},
		"postgres/0002_b.sql": {Data: []byte("CREATE INDEX b_n ON b (n) WHERE n = 2;")},
		"README.md":           {Data: []byte("not a migration")},
	}
	tests := []struct {
		d    store.Dialect
		want []store.Migration
	}{
		{store.SQLite, []store.Migration{
			{Version: 1, Name: "0001_a.sql", SQL: "CREATE TABLE a (id INTEGER PRIMARY KEY, at TEXT NOT NULL, on_ INTEGER NOT NULL DEFAULT 0);"},
			{Version: 2, Name: "0002_b.sql", SQL: "CREATE TABLE b (n INTEGER);\nCREATE INDEX b_n ON b (n) WHERE n = 1;"},
		}},
		{store.Postgres, []store.Migration{
			{Version: 1, Name: "0001_a.sql", SQL: "CREATE TABLE a (id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, at TIMESTAMPTZ NOT NULL, on_ BOOLEAN NOT NULL DEFAULT FALSE);"},
			{Version: 2, Name: "0002_b.sql", SQL: "CREATE TABLE b (n BIGINT);\nCREATE INDEX b_n ON b (n) WHERE n = 2;"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.d.String(), func(t *testing.T) {
			got, err := store.LoadMigrations(fsys, tt.d)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("migrations (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLoadMigrationsRejects(t *testing.T) {
	tests := []struct {
		name string
		fsys fstest.MapFS
		want string
	}{
		{"unknown placeholder", fstest.MapFS{"0001_a.sql": {Data: []byte("CREATE TABLE a (at {{timestamp}});")}},
			"store: migration 0001_a.sql (sqlite): unknown placeholder {{timestamp}}"},
		{"dialect part without shared file", fstest.MapFS{"0001_a.sql": {}, "sqlite/0002_b.sql": {}},
			"store: migration sqlite/0002_b.sql has no shared 0002_b.sql"},
		{"name without number", fstest.MapFS{"core.sql": {}},
			"store: migration core.sql (sqlite): name must be NNNN_description.sql"},
		{"version zero", fstest.MapFS{"0000_a.sql": {}},
			"store: migration 0000_a.sql (sqlite): name must be NNNN_description.sql"},
		{"shared version", fstest.MapFS{"0001_a.sql": {}, "0001_b.sql": {}},
			"store: migrations 0001_a.sql and 0001_b.sql share version 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := store.LoadMigrations(tt.fsys, store.SQLite)
			if err == nil || err.Error() != tt.want {
				t.Errorf("err = %v, want %s", err, tt.want)
			}
		})
	}
}

// TestEmbeddedMigrationsExpand checks that the embedded sources load on
// both dialects: every placeholder known, every dialect part beside a
// shared file.
func TestEmbeddedMigrationsExpand(t *testing.T) {
	for _, d := range []store.Dialect{store.SQLite, store.Postgres} {
		migs, err := store.Migrations(d)
		if err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		for _, m := range migs {
			if strings.Contains(m.SQL, "{{") {
				t.Errorf("%s %s: placeholder left", d, m.Name)
			}
		}
	}
}
