package storetest

import (
	"context"
	"database/sql"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TerminateListeners ends, from the server side, every session of the
// database at dbURL that is waiting in LISTEN, as a network failure or an
// administrator's pg_terminate_backend would, and returns how many there
// were. Tests use it to check that instances re-establish their
// notifications.
func TerminateListeners(t testing.TB, dbURL string) int {
	t.Helper()
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("pgx", dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var n int
	err = db.QueryRowContext(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE datname = $1 AND pid <> pg_backend_pid() AND query LIKE 'LISTEN %'`, strings.TrimPrefix(u.Path, "/")).Scan(&n)
	if err != nil {
		t.Fatalf("storetest: terminate listeners: %v", err)
	}
	return n
}
