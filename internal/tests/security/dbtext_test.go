package security

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // the PostgreSQL driver, for reading the database back
)

// databaseText returns the stored bytes of s's database by where they
// are: on SQLite the database file and its WAL, raw; on PostgreSQL every
// column of every row of every table, as text.
func (s *server) databaseText(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	if s.dbURL == "" {
		files, _ := filepath.Glob(filepath.Join(s.dataDir, "s2r.db*"))
		if len(files) == 0 {
			t.Fatalf("no SQLite database in %s", s.dataDir)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			out["the SQLite file "+filepath.Base(f)] = b
		}
		return out
	}
	db, err := sql.Open("pgx", s.dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var n string
		rows.Scan(&n)
		tables = append(tables, n)
	}
	rows.Close()
	if len(tables) == 0 {
		t.Fatal("no PostgreSQL table found")
	}
	for _, table := range tables {
		var b strings.Builder
		r, err := db.Query(fmt.Sprintf(`SELECT t::text FROM %q t`, table))
		if err != nil {
			t.Fatalf("read %s: %v", table, err)
		}
		for r.Next() {
			var row string
			r.Scan(&row)
			b.WriteString(row)
			b.WriteByte('\n')
		}
		r.Close()
		out["the PostgreSQL table "+table] = []byte(b.String())
	}
	return out
}
