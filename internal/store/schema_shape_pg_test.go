package store_test

import (
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/store"
)

// pgColumnsSQL lists a table's columns with their constraint columns
// resolved to names.
const pgColumnsSQL = `SELECT column_name::text, data_type::text, is_nullable = 'NO', COALESCE(column_default, '')
FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1`

// pgConstraintsSQL lists a table's primary key, unique, foreign key and
// check constraints: type, columns, referenced table and columns, and the
// ON DELETE action code.
const pgConstraintsSQL = `SELECT con.contype::text,
    array_to_string(ARRAY(SELECT a.attname FROM unnest(con.conkey) WITH ORDINALITY AS k(num, ord)
        JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.num ORDER BY k.ord), ','),
    CASE WHEN con.contype = 'f' THEN con.confrelid::regclass::text ELSE '' END,
    array_to_string(ARRAY(SELECT a.attname FROM unnest(con.confkey) WITH ORDINALITY AS k(num, ord)
        JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.num ORDER BY k.ord), ','),
    con.confdeltype::text
FROM pg_constraint con WHERE con.conrelid = to_regclass($1) AND con.contype IN ('p', 'u', 'f', 'c')`

// pgIndexesSQL lists a table's indexes that no constraint created.
const pgIndexesSQL = `SELECT ic.relname::text, i.indisunique,
    array_to_string(ARRAY(SELECT COALESCE(a.attname::text, '?') FROM unnest(i.indkey::int2[]) WITH ORDINALITY AS k(num, ord)
        LEFT JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.num ORDER BY k.ord), ','),
    COALESCE(pg_get_expr(i.indpred, i.indrelid), '')
FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid
WHERE i.indrelid = to_regclass($1) AND NOT EXISTS (SELECT 1 FROM pg_constraint c
    WHERE c.conrelid = i.indrelid AND c.conindid = i.indexrelid AND c.contype IN ('p', 'u'))`

// pgDeleteActions names pg_constraint.confdeltype codes as SQLite does.
var pgDeleteActions = map[string]string{"a": "NO ACTION", "r": "RESTRICT", "c": "CASCADE", "n": "SET NULL", "d": "SET DEFAULT"}

func postgresTable(t *testing.T, s *store.Store, table string) tableShape {
	t.Helper()
	arg := []any{table}
	ts := tableShape{Columns: map[string]columnShape{}, Indexes: map[string]indexShape{}}
	scanRows(t, s, pgColumnsSQL, arg, func(scan func(...any) error) error {
		var name, typ string
		var c columnShape
		if err := scan(&name, &typ, &c.NotNull, &c.Default); err != nil {
			return err
		}
		c.Type = pgTypes[typ]
		if c.Type == "" {
			c.Type = "unmapped " + typ
		}
		c.Default = pgExpr(c.Default)
		ts.Columns[name] = c
		return nil
	})
	scanRows(t, s, pgConstraintsSQL, arg, func(scan func(...any) error) error {
		var kind, cols, ref, refCols, onDelete string
		if err := scan(&kind, &cols, &ref, &refCols, &onDelete); err != nil {
			return err
		}
		switch kind {
		case "p":
			ts.PrimaryKey = cols
		case "u":
			ts.Unique = append(ts.Unique, cols)
		case "f":
			ts.ForeignKeys = append(ts.ForeignKeys, cols+" -> "+ref+"("+refCols+") ON DELETE "+pgDeleteActions[onDelete])
		case "c":
			ts.Checks++
		}
		return nil
	})
	scanRows(t, s, pgIndexesSQL, arg, func(scan func(...any) error) error {
		var name, where string
		var ix indexShape
		if err := scan(&name, &ix.Unique, &ix.Columns, &where); err != nil {
			return err
		}
		ix.Where = pgExpr(where)
		ts.Indexes[name] = ix
		return nil
	})
	return sortShape(ts)
}

// pgExpr rewrites an expression as PostgreSQL prints it (defaults, index
// conditions) into the spelling of the migrations: casts dropped, the
// outer parentheses removed, "x <> ALL (ARRAY[...])" back to NOT IN, and
// the boolean literals as SQLite's 0 and 1.
func pgExpr(e string) string {
	e = pgCast.ReplaceAllString(e, "")
	if strings.HasPrefix(e, "(") && strings.HasSuffix(e, ")") {
		e = e[1 : len(e)-1]
	}
	e = pgNotIn.ReplaceAllString(e, "$1 NOT IN ($2)")
	switch e {
	case "false":
		return "0"
	case "true":
		return "1"
	}
	return e
}
