package serveproc

import (
	"bytes"
	"encoding/base64"
	"os"
	"testing"

	"github.com/s2r-project/s2r/internal/store/storetest"
)

// Env returns the environment of a server on 127.0.0.1:0 with its data in
// dataDir and admin as its bootstrap admin: SQLite in the data directory
// and a generated key unless extra says otherwise, no admin listener, no
// development identity, info logs. The extra entries (KEY=VALUE) come last
// and win.
func Env(dataDir, admin string, extra ...string) []string {
	return append([]string{
		"S2R_LISTEN_ADDR=127.0.0.1:0",
		"S2R_ADMIN_LISTEN_ADDR=",
		"S2R_DATA_DIR=" + dataDir,
		"S2R_BOOTSTRAP_ADMINS=" + admin,
		"S2R_DATABASE_URL=",
		"S2R_SECRET_KEY=",
		"S2R_DEV_IDENTITY=",
		"S2R_LOG_LEVEL=info",
	}, extra...)
}

// Database is a store the suites run a server on.
type Database struct {
	Name string // "sqlite" or "postgres"
	// Env returns the entries that put a server on it: none for SQLite (a
	// file in the data directory); for PostgreSQL a fresh database,
	// dropped at the end of the test, and a secret key.
	Env func(t *testing.T) []string
}

// Databases is SQLite, and PostgreSQL when the test run has a server
// (storetest.EnvPostgresURL, which scripts/with-postgres.sh sets); with
// storetest.EnvRequirePostgres=1 its absence fails the test.
func Databases(t *testing.T) []Database {
	dbs := []Database{{"sqlite", func(*testing.T) []string { return nil }}}
	if os.Getenv(storetest.EnvPostgresURL) == "" {
		if os.Getenv(storetest.EnvRequirePostgres) == "1" {
			t.Fatalf("%s is required but not set", storetest.EnvPostgresURL)
		}
		return dbs
	}
	return append(dbs, Database{"postgres", func(t *testing.T) []string {
		cfg := storetest.PostgresConfig(t)
		key := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{9}, 32))
		return []string{"S2R_DATABASE_URL=" + cfg.URL, "S2R_SECRET_KEY=" + key}
	}})
}
