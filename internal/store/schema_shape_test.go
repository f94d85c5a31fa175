package store_test

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/store"
)

// tableShape is what the cross-dialect schema test compares of a table,
// in SQLite's vocabulary. Column order is not compared: migration 0015
// adds tenant_id last on PostgreSQL and rebuilds the table on SQLite.
type tableShape struct {
	Columns     map[string]columnShape
	PrimaryKey  string   // column names, comma-separated, in key order
	Unique      []string // UNIQUE constraints' columns, sorted
	Indexes     map[string]indexShape
	ForeignKeys []string // "cols -> table(cols) ON DELETE action", sorted
	Checks      int      // number of CHECK constraints
}

// columnShape is one column: Type is SQLite's declared type (PostgreSQL's
// is mapped by pgTypes), NotNull counts primary-key columns as NOT NULL
// as PostgreSQL does, Default is the default expression without casts.
type columnShape struct {
	Type    string
	NotNull bool
	Default string
}

// indexShape is an index created by CREATE INDEX (not by a constraint).
type indexShape struct {
	Columns string
	Unique  bool
	Where   string
}

// pgTypes maps PostgreSQL column types to the SQLite type the migrations
// write for them (the placeholders of migrations/*.sql).
var pgTypes = map[string]string{
	"text":                     "TEXT",
	"uuid":                     "TEXT",
	"timestamp with time zone": "TEXT",
	"boolean":                  "INTEGER",
	"smallint":                 "INTEGER",
	"integer":                  "INTEGER",
	"bigint":                   "INTEGER",
	"double precision":         "REAL",
	"bytea":                    "BLOB",
}

// schemaShape returns the shape of every table of s.
func schemaShape(t *testing.T, s *store.Store) map[string]tableShape {
	t.Helper()
	out := map[string]tableShape{}
	if s.Dialect() == store.Postgres {
		for _, name := range queryStrings(t, s, `SELECT table_name::text FROM information_schema.tables
			WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`) {
			out[name] = postgresTable(t, s, name)
		}
		return out
	}
	for _, name := range queryStrings(t, s, `SELECT name FROM sqlite_master
		WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\'`) {
		out[name] = sqliteTable(t, s, name)
	}
	return out
}

// scanRows runs q and calls row with a scan function for every row.
func scanRows(t *testing.T, s *store.Store, q string, args []any, row func(scan func(...any) error) error) {
	t.Helper()
	ctx := context.Background()
	err := s.Transact(ctx, func(tx *store.Tx) error {
		rows, err := tx.Query(ctx, q, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			if err := row(rows.Scan); err != nil {
				return err
			}
		}
		return rows.Err()
	})
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

func sqliteTable(t *testing.T, s *store.Store, table string) tableShape {
	t.Helper()
	arg := []any{table}
	ts := tableShape{Columns: map[string]columnShape{}, Indexes: map[string]indexShape{}}
	var pk []string
	scanRows(t, s, `SELECT name, type, "notnull", COALESCE(dflt_value, ''), pk FROM pragma_table_info($1) ORDER BY pk, cid`, arg,
		func(scan func(...any) error) error {
			var c columnShape
			var name string
			var pkPos int
			if err := scan(&name, &c.Type, &c.NotNull, &c.Default, &pkPos); err != nil {
				return err
			}
			if pkPos > 0 {
				c.NotNull = true
				pk = append(pk, name)
			}
			ts.Columns[name] = c
			return nil
		})
	ts.PrimaryKey = strings.Join(pk, ",")
	type index struct {
		name, origin string
		unique       bool
	}
	var indexes []index
	scanRows(t, s, `SELECT name, "unique", origin FROM pragma_index_list($1)`, arg, func(scan func(...any) error) error {
		var ix index
		if err := scan(&ix.name, &ix.unique, &ix.origin); err != nil {
			return err
		}
		indexes = append(indexes, ix)
		return nil
	})
	for _, ix := range indexes {
		cols := strings.Join(queryStrings(t, s, `SELECT COALESCE(name, '?') FROM pragma_index_info($1) ORDER BY seqno`, ix.name), ",")
		switch ix.origin {
		case "u":
			ts.Unique = append(ts.Unique, cols)
		case "c":
			ddl := queryStrings(t, s, `SELECT sql FROM sqlite_master WHERE type = 'index' AND name = $1`, ix.name)
			_, where, _ := strings.Cut(ddl[0], " WHERE ")
			ts.Indexes[ix.name] = indexShape{Columns: cols, Unique: ix.unique, Where: sqliteBoolTest.ReplaceAllString(where, "$1")}
		}
	}
	fks := map[int]*[4]string{} // id -> from, table, to, on delete
	var ids []int
	scanRows(t, s, `SELECT id, "table", "from", COALESCE("to", ''), on_delete FROM pragma_foreign_key_list($1) ORDER BY id, seq`, arg,
		func(scan func(...any) error) error {
			var id int
			var ref, from, to, onDelete string
			if err := scan(&id, &ref, &from, &to, &onDelete); err != nil {
				return err
			}
			fk, ok := fks[id]
			if !ok {
				fk = &[4]string{"", ref, "", onDelete}
				fks[id] = fk
				ids = append(ids, id)
			}
			fk[0] = joinComma(fk[0], from)
			fk[2] = joinComma(fk[2], to)
			return nil
		})
	for _, id := range ids {
		fk := fks[id]
		ts.ForeignKeys = append(ts.ForeignKeys, fk[0]+" -> "+fk[1]+"("+fk[2]+") ON DELETE "+fk[3])
	}
	ddl := queryStrings(t, s, `SELECT sql FROM sqlite_master WHERE type = 'table' AND name = $1`, table)
	ts.Checks = len(checkKeyword.FindAllString(ddl[0], -1))
	return sortShape(ts)
}

var (
	// sqliteBoolTest is an index condition "flag = 1", which PostgreSQL
	// writes as the boolean column alone.
	sqliteBoolTest = regexp.MustCompile(`^(\w+) = 1$`)
	checkKeyword   = regexp.MustCompile(`(?i)\bCHECK\s*\(`)
	pgCast         = regexp.MustCompile(`::[a-z]+( [a-z]+)*`)
	pgNotIn        = regexp.MustCompile(`^(\w+) <> ALL \(ARRAY\[(.*)\]\)$`)
)

func joinComma(a, b string) string {
	if a == "" {
		return b
	}
	return a + "," + b
}

func sortShape(ts tableShape) tableShape {
	slices.Sort(ts.Unique)
	slices.Sort(ts.ForeignKeys)
	return ts
}
