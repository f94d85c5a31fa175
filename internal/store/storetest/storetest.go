// Package storetest runs store tests against real databases: a fresh
// migrated SQLite file in t.TempDir and, when S2R_TEST_POSTGRES_URL is set,
// a fresh migrated PostgreSQL database created for the test and dropped at
// cleanup. scripts/with-postgres.sh starts a throwaway server and sets it.
//
// Without S2R_TEST_POSTGRES_URL the PostgreSQL half is skipped, except when
// CI is set or S2R_REQUIRE_POSTGRES=1, where it fails. When S2R_PG_TEST_LOG
// names a file, every PostgreSQL test that ran appends one line to it
// ("PASS name" or "FAIL name"), so `make test` can report the count.
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // driver "pgx" for CREATE/DROP DATABASE

	"github.com/s2r-project/s2r/internal/store"
)

// Environment variables read by this package.
const (
	EnvPostgresURL     = "S2R_TEST_POSTGRES_URL"
	EnvRequirePostgres = "S2R_REQUIRE_POSTGRES"
	EnvPGTestLog       = "S2R_PG_TEST_LOG"
)

// Run runs body as subtest "sqlite" on a fresh SQLite store and as subtest
// "postgres" on a fresh PostgreSQL store.
func Run(t *testing.T, body func(t *testing.T, s *store.Store)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { body(t, SQLite(t)) })
	t.Run("postgres", func(t *testing.T) { body(t, Postgres(t)) })
}

// RunConfig is Run for tests that open stores themselves: body gets the
// Config of an empty, unmigrated database of each dialect.
func RunConfig(t *testing.T, body func(t *testing.T, cfg store.Config)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { body(t, SQLiteConfig(t)) })
	t.Run("postgres", func(t *testing.T) { body(t, PostgresConfig(t)) })
}

// SQLite returns a migrated store on a new SQLite file, closed at cleanup.
func SQLite(t testing.TB) *store.Store {
	t.Helper()
	return Open(t, SQLiteConfig(t))
}

// Postgres returns a migrated store on a new PostgreSQL database, dropped at
// cleanup. It skips (or fails, see the package doc) without a server.
func Postgres(t testing.TB) *store.Store {
	t.Helper()
	return Open(t, PostgresConfig(t))
}

// SQLiteConfig returns the Config of an empty SQLite database in t.TempDir.
func SQLiteConfig(t testing.TB) store.Config {
	return store.Config{DataDir: t.TempDir()}
}

// PostgresConfig creates an empty PostgreSQL database, dropped at cleanup,
// and returns its Config. It skips (or fails) without a server.
func PostgresConfig(t testing.TB) store.Config {
	t.Helper()
	base := PostgresURL(t)
	name := "s2rt_" + randomHex(t, 8)
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatalf("storetest: open postgres: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name+" STRATEGY FILE_COPY"); err != nil {
		admin.Close()
		t.Fatalf("storetest: create database %s: %v", name, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("storetest: drop database %s: %v", name, err)
		}
		admin.Close()
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("storetest: parse %s: %v", EnvPostgresURL, err)
	}
	u.Path = "/" + name
	recordPostgresTest(t)
	return store.Config{URL: u.String()}
}

// PostgresURL returns the server URL from S2R_TEST_POSTGRES_URL, skipping
// or failing the test when it is not set.
func PostgresURL(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("storetest: PostgreSQL half skipped with -short")
	}
	u := os.Getenv(EnvPostgresURL)
	if u != "" {
		return u
	}
	if os.Getenv("CI") != "" || os.Getenv(EnvRequirePostgres) == "1" {
		t.Fatalf("storetest: %s is not set but PostgreSQL is required (CI or %s=1); run through scripts/with-postgres.sh", EnvPostgresURL, EnvRequirePostgres)
	}
	t.Skipf("storetest: PostgreSQL half skipped: %s is not set (run `make test` or scripts/with-postgres.sh go test ...)", EnvPostgresURL)
	return ""
}

// Open opens and migrates the database of cfg, closing it at cleanup: a
// further instance on a database of PostgresConfig or SQLiteConfig.
func Open(t testing.TB, cfg store.Config) *store.Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := store.Open(ctx, cfg)
	if err != nil {
		t.Fatalf("storetest: open: %v", err)
	}
	// Registered after the DROP DATABASE cleanup, so it runs first
	// (cleanups are LIFO).
	t.Cleanup(func() { s.Close() })
	if err := s.Migrate(ctx); err != nil {
		t.Fatalf("storetest: migrate: %v", err)
	}
	return s
}

// recordPostgresTest appends the test's outcome to S2R_PG_TEST_LOG at
// cleanup. A single short O_APPEND write is atomic enough across the test
// binaries that run in parallel.
func recordPostgresTest(t testing.TB) {
	path := os.Getenv(EnvPGTestLog)
	if path == "" {
		return
	}
	t.Cleanup(func() {
		status := "PASS"
		if t.Failed() {
			status = "FAIL"
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			t.Errorf("storetest: %s: %v", EnvPGTestLog, err)
			return
		}
		defer f.Close()
		fmt.Fprintf(f, "%s %s\n", status, t.Name())
	})
}

func randomHex(t testing.TB, n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatalf("storetest: random name: %v", err)
	}
	return hex.EncodeToString(b)
}
