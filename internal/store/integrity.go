package store

import (
	"context"
	"fmt"
	"strings"
)

// IntegrityOptions tunes CheckIntegrity.
type IntegrityOptions struct {
	// InstallAmcheck creates PostgreSQL's amcheck extension when it is
	// missing (a superuser may; others get a note). Without it the index
	// check runs only where amcheck is installed already.
	InstallAmcheck bool
}

// IntegrityReport is what CheckIntegrity found.
type IntegrityReport struct {
	// Checks names what was checked, e.g. "sqlite integrity_check".
	Checks []string
	// Problems lists every inconsistency found; empty means none.
	Problems []string
	// Notes are checks that could not run (e.g. amcheck unavailable).
	Notes []string
}

// CheckIntegrity checks the database's physical and referential
// consistency. SQLite: PRAGMA integrity_check and PRAGMA
// foreign_key_check. PostgreSQL: every B-tree index of the schema with
// amcheck's bt_index_check (heapallindexed) when amcheck is available, a
// full read of every table, and every foreign key by a query for child
// rows without their parent. An error means the checks could not run;
// inconsistencies are in the report.
func (s *Store) CheckIntegrity(ctx context.Context, opt IntegrityOptions) (IntegrityReport, error) {
	if s.dialect == Postgres {
		return s.checkPostgres(ctx, opt)
	}
	return s.checkSQLite(ctx)
}

func (s *Store) checkSQLite(ctx context.Context) (IntegrityReport, error) {
	var rep IntegrityReport
	q := s.reader()
	msgs, err := queryStrings(ctx, q, "PRAGMA integrity_check")
	if err != nil {
		return rep, err
	}
	rep.Checks = append(rep.Checks, "sqlite integrity_check")
	for _, m := range msgs {
		if m != "ok" {
			rep.Problems = append(rep.Problems, "integrity_check: "+m)
		}
	}
	rows, err := q.Query(ctx, "PRAGMA foreign_key_check")
	if err != nil {
		return rep, fmt.Errorf("store: foreign_key_check: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var table, parent string
		var rowid, fkid any
		if err := rows.Scan(&table, &rowid, &parent, &fkid); err != nil {
			return rep, fmt.Errorf("store: foreign_key_check: %w", mapError(err))
		}
		rep.Problems = append(rep.Problems, fmt.Sprintf("foreign_key_check: %s row %v has no parent in %s (key %v)", table, rowid, parent, fkid))
	}
	if err := rows.Err(); err != nil {
		return rep, fmt.Errorf("store: foreign_key_check: %w", mapError(err))
	}
	rep.Checks = append(rep.Checks, "sqlite foreign_key_check")
	return rep, nil
}

func (s *Store) checkPostgres(ctx context.Context, opt IntegrityOptions) (IntegrityReport, error) {
	var rep IntegrityReport
	q := s.reader()
	if err := s.checkIndexes(ctx, opt, &rep); err != nil {
		return rep, err
	}
	tables, err := queryStrings(ctx, q, `SELECT quote_ident(tablename) FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1`)
	if err != nil {
		return rep, err
	}
	for _, t := range tables {
		var n int64
		if err := q.QueryRow(ctx, "SELECT count(*) FROM "+t).Scan(&n); err != nil {
			rep.Problems = append(rep.Problems, fmt.Sprintf("table %s cannot be read: %v", t, err))
		}
	}
	rep.Checks = append(rep.Checks, fmt.Sprintf("postgres full read of %d tables", len(tables)))
	orphans, err := foreignKeyQueries(ctx, q)
	if err != nil {
		return rep, err
	}
	for name, query := range orphans {
		var n int64
		if err := q.QueryRow(ctx, query).Scan(&n); err != nil {
			return rep, fmt.Errorf("store: foreign key %s: %w", name, err)
		}
		if n > 0 {
			rep.Problems = append(rep.Problems, fmt.Sprintf("foreign key %s: %d rows without their parent", name, n))
		}
	}
	rep.Checks = append(rep.Checks, fmt.Sprintf("postgres %d foreign keys", len(orphans)))
	return rep, nil
}

// checkIndexes runs amcheck over every B-tree index of the schema.
func (s *Store) checkIndexes(ctx context.Context, opt IntegrityOptions, rep *IntegrityReport) error {
	var installed bool
	if err := s.reader().QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'amcheck')").Scan(&installed); err != nil {
		return fmt.Errorf("store: amcheck: %w", err)
	}
	if !installed && opt.InstallAmcheck {
		err := s.Transact(ctx, func(tx *Tx) error {
			_, err := tx.Exec(ctx, "CREATE EXTENSION IF NOT EXISTS amcheck")
			return err
		})
		if err != nil {
			rep.Notes = append(rep.Notes, "amcheck not installed: "+err.Error())
		}
		installed = err == nil
	}
	if !installed {
		rep.Notes = append(rep.Notes, "amcheck not installed: indexes not checked")
		return nil
	}
	indexes, err := queryStrings(ctx, s.reader(), `SELECT c.oid::regclass::text FROM pg_index i
		JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam
		JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE am.amname = 'btree' AND n.nspname = current_schema() AND i.indisvalid ORDER BY 1`)
	if err != nil {
		return err
	}
	for _, idx := range indexes {
		if _, err := s.reader().Exec(ctx, "SELECT bt_index_check($1::regclass, true)", idx); err != nil {
			rep.Problems = append(rep.Problems, fmt.Sprintf("amcheck %s: %v", idx, err))
		}
	}
	rep.Checks = append(rep.Checks, fmt.Sprintf("postgres amcheck of %d indexes", len(indexes)))
	return nil
}

// foreignKeyQueries returns, per foreign key of the schema, a query
// counting the child rows whose key is set but has no parent row.
func foreignKeyQueries(ctx context.Context, q Querier) (map[string]string, error) {
	rows, err := q.Query(ctx, `SELECT con.conname, con.conrelid::regclass::text, con.confrelid::regclass::text,
		array_to_string(ARRAY(SELECT quote_ident(a.attname) FROM unnest(con.conkey) WITH ORDINALITY k(n, i)
			JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.n ORDER BY k.i), ','),
		array_to_string(ARRAY(SELECT quote_ident(a.attname) FROM unnest(con.confkey) WITH ORDINALITY k(n, i)
			JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.n ORDER BY k.i), ',')
		FROM pg_constraint con JOIN pg_namespace n ON n.oid = con.connamespace
		WHERE con.contype = 'f' AND n.nspname = current_schema()`)
	if err != nil {
		return nil, fmt.Errorf("store: foreign keys: %w", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var name, child, parent, childCols, parentCols string
		if err := rows.Scan(&name, &child, &parent, &childCols, &parentCols); err != nil {
			return nil, fmt.Errorf("store: foreign keys: %w", mapError(err))
		}
		cc, pc := strings.Split(childCols, ","), strings.Split(parentCols, ",")
		var notNull, match []string
		for i := range cc {
			notNull = append(notNull, "c."+cc[i]+" IS NOT NULL")
			match = append(match, "p."+pc[i]+" = c."+cc[i])
		}
		out[child+"."+name] = "SELECT count(*) FROM " + child + " c WHERE " + strings.Join(notNull, " AND ") +
			" AND NOT EXISTS (SELECT 1 FROM " + parent + " p WHERE " + strings.Join(match, " AND ") + ")"
	}
	return out, mapError(rows.Err())
}

// queryStrings returns the first column of every row of query.
func queryStrings(ctx context.Context, q Querier, query string, args ...any) ([]string, error) {
	rows, err := q.Query(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", query, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, fmt.Errorf("store: %s: %w", query, mapError(err))
		}
		out = append(out, v)
	}
	return out, mapError(rows.Err())
}
