package store

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"
)

// Migration sources. Every migration is written once, in
// migrations/NNNN_description.sql, for both dialects. Where the dialects
// spell a type differently the file writes a placeholder such as {{time}},
// which Migrations replaces with the dialect's word from schemaWords. A
// statement that differs beyond that (a table rebuild SQLite needs where
// PostgreSQL alters in place, an index condition on a boolean) goes in
// migrations/<dialect>/ under the same file name; that part runs after the
// shared file, in its transaction. docs/decisions.md says why.

// migrationFS holds the migration sources.
//
//go:embed migrations
var migrationFS embed.FS

// schemaWord is one placeholder of the shared migrations and what each
// dialect writes for it.
type schemaWord struct {
	name, sqlite, postgres string
}

// schemaWords are the placeholders of the shared migrations, decided once
// per dialect when the migrations are loaded.
var schemaWords = []schemaWord{
	// store.Time: on SQLite the fixed-width UTC text form, which sorts as time.
	{"time", "TEXT", "TIMESTAMPTZ"},
	{"bool", "INTEGER", "BOOLEAN"},
	{"false", "0", "FALSE"},
	{"int16", "INTEGER", "SMALLINT"},
	{"int64", "INTEGER", "BIGINT"},
	{"float64", "REAL", "DOUBLE PRECISION"},
	{"bytes", "BLOB", "BYTEA"},
	{"uuid", "TEXT", "UUID"},
	// An integer primary key the database assigns.
	{"auto_id", "INTEGER PRIMARY KEY", "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY"},
	// The same, never reusing the id of a deleted row (SQLite otherwise
	// gives the largest id again once that row is gone).
	{"auto_id_no_reuse", "INTEGER PRIMARY KEY AUTOINCREMENT", "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY"},
}

// schemaReplacer returns the replacer of d's placeholders.
func schemaReplacer(d Dialect) *strings.Replacer {
	var pairs []string
	for _, w := range schemaWords {
		word := w.sqlite
		if d == Postgres {
			word = w.postgres
		}
		pairs = append(pairs, "{{"+w.name+"}}", word)
	}
	return strings.NewReplacer(pairs...)
}

// Migrations returns the embedded migrations of dialect d in order, each
// the shared file with its placeholders replaced, followed by d's own part
// when it has one.
func Migrations(d Dialect) ([]Migration, error) {
	sub, err := fs.Sub(migrationFS, "migrations")
	if err != nil {
		return nil, fmt.Errorf("store: read migrations: %w", err)
	}
	return loadMigrations(sub, d)
}

// loadMigrations reads the migrations of d from fsys: NNNN_description.sql
// files with unique numbers at the top, d's parts in the folder named d.
func loadMigrations(fsys fs.FS, d Dialect) ([]Migration, error) {
	shared, err := readSQLFiles(fsys, ".")
	if err != nil {
		return nil, err
	}
	own, err := readSQLFiles(fsys, d.String())
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	for _, name := range slices.Sorted(maps.Keys(own)) {
		if _, ok := shared[name]; !ok {
			return nil, fmt.Errorf("store: migration %s/%s has no shared %s", d, name, name)
		}
	}
	words := schemaReplacer(d)
	var out []Migration
	// Sorted names: a load that fails names the same files every time.
	for _, name := range slices.Sorted(maps.Keys(shared)) {
		m, err := newMigration(name, shared[name], own[name], words)
		if err != nil {
			return nil, fmt.Errorf("store: migration %s (%s): %w", name, d, err)
		}
		out = append(out, m)
	}
	slices.SortStableFunc(out, func(a, b Migration) int { return a.Version - b.Version })
	for i := 1; i < len(out); i++ {
		if out[i].Version == out[i-1].Version {
			return nil, fmt.Errorf("store: migrations %s and %s share version %d", out[i-1].Name, out[i].Name, out[i].Version)
		}
	}
	return out, nil
}

// newMigration joins a shared file and its dialect part (may be empty)
// and replaces the placeholders; one left over is an error.
func newMigration(name, shared, own string, words *strings.Replacer) (Migration, error) {
	num, _, ok := strings.Cut(name, "_")
	v, err := strconv.Atoi(num)
	if !ok || err != nil || v <= 0 {
		return Migration{}, fmt.Errorf("name must be NNNN_description.sql")
	}
	text := shared
	if own != "" {
		text += "\n" + own
	}
	text = words.Replace(text)
	if i := strings.Index(text, "{{"); i >= 0 {
		unknown, _, _ := strings.Cut(text[i:], "}}")
		return Migration{}, fmt.Errorf("unknown placeholder %s}}", unknown)
	}
	return Migration{Version: v, Name: name, SQL: text}, nil
}

// readSQLFiles returns the .sql files directly in dir by name.
func readSQLFiles(fsys fs.FS, dir string) (map[string]string, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, fmt.Errorf("store: read migrations: %w", err)
	}
	files := map[string]string{}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".sql") {
			continue
		}
		b, err := fs.ReadFile(fsys, path.Join(dir, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("store: read migration %s: %w", path.Join(dir, e.Name()), err)
		}
		files[e.Name()] = string(b)
	}
	return files, nil
}
