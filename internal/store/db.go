// Package store is the only package that talks to the database. It runs on
// SQLite (embedded default, modernc.org/sqlite, pure Go) and PostgreSQL
// (pgx through database/sql), with SQL written once in the portable subset
// both accept ($1-style placeholders, RETURNING, ON CONFLICT) and the few
// differences made explicit by Dialect.
//
// Conventions for area files (one file per area, e.g. settings.go):
//
//   - Reads that need no transaction are methods on *Store and use s.reader().
//   - Writes are methods on *Tx and run inside Store.Transact; reads that must
//     see the transaction's own writes are methods on *Tx too. A helper that
//     takes a Querier serves both: s.reader() and tx both implement it.
//   - Driver errors are mapped to ErrNotFound, ErrAlreadyExists and
//     ErrConflict by the Querier methods, so area code checks errors.Is.
//   - Times are passed and scanned as Time (UTC, microseconds); JSON
//     columns as string or []byte holding JSON text.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers driver "pgx"
	_ "modernc.org/sqlite"             // registers driver "sqlite"
)

// Config says which database to open.
type Config struct {
	// URL is a postgres:// or postgresql:// URL; empty selects SQLite.
	URL string
	// DataDir holds the SQLite file s2r.db when URL is empty.
	DataDir string
}

// Store is an open database. It is safe for concurrent use.
type Store struct {
	dialect Dialect
	// read serves reads outside transactions. On SQLite it is a pool of
	// query-only connections; on PostgreSQL it is the same pool as write.
	read *sql.DB
	// write runs transactions. On SQLite it holds exactly one connection
	// whose transactions begin IMMEDIATE, so writers queue in-process
	// instead of failing with SQLITE_BUSY.
	write *sql.DB
	// side holds the long-lived PostgreSQL sessions outside the main
	// pool: the LISTEN connection (listen.go) and the job lease session
	// (leases.go). Nil on SQLite.
	side *sql.DB
	// changes wakes in-process revision watchers after a commit that
	// bumped the configuration revision.
	changes *broadcast
	// notes fans out NOTIFY payloads to watchers (listen.go).
	notes notifications
	// jobs are the background jobs running in this process (TryExclusive).
	jobs jobLocks
	// leases are the job locks this instance holds on PostgreSQL.
	leases leases
	// txLogStmt is the full-batch INSERT of runtime_tx_logs prepared on
	// the SQLite writer (txlogs.go), so the recorder does not parse it per
	// batch.
	txLogStmt txLogStmt
	// stmts holds statements prepared on the SQLite writer (ingest).
	stmts stmtCache
}

// SQLiteFile is the name of the SQLite database file in the data directory.
const SQLiteFile = "s2r.db"

// Open opens the database described by cfg. It does not migrate.
func Open(ctx context.Context, cfg Config) (*Store, error) {
	var (
		s   *Store
		err error
	)
	switch {
	case cfg.URL == "":
		s, err = openSQLite(cfg.DataDir)
	case strings.HasPrefix(cfg.URL, "postgres://"), strings.HasPrefix(cfg.URL, "postgresql://"):
		s, err = openPostgres(cfg.URL)
	default:
		return nil, fmt.Errorf("store: unsupported database URL scheme in %q (want postgres:// or empty for SQLite)", redactURL(cfg.URL))
	}
	if err != nil {
		return nil, err
	}
	if err := s.pingAtOpen(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// pingAtOpen pings, retrying for a few seconds while SQLite reports
// SQLITE_BUSY: switching a new file to WAL needs an exclusive lock, and
// that switch does not wait through busy_timeout when several processes
// open the same fresh file at once.
func (s *Store) pingAtOpen(ctx context.Context) error {
	deadline := time.Now().Add(10 * time.Second)
	wait := 5 * time.Millisecond
	for {
		err := s.Ping(ctx)
		if err == nil || s.dialect != SQLite || !isBusy(err) || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
		wait = min(2*wait, 200*time.Millisecond)
	}
}

func openSQLite(dataDir string) (*Store, error) {
	if dataDir == "" {
		return nil, errors.New("store: SQLite needs a data directory")
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, fmt.Errorf("store: create data directory: %w", err)
	}
	path := filepath.Join(dataDir, SQLiteFile)
	// Create the file ourselves so it (and the -wal and -shm files SQLite
	// derives from it) is private to the service user.
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("store: create %s: %w", path, err)
	}
	f.Close()
	base := "file:" + (&url.URL{Path: path}).EscapedPath() +
		"?_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)"
	// The writer's page cache holds a whole ingest batch (64 MB; the 2 MB
	// default spilled dirty pages to the WAL mid-transaction and rewrote
	// them), and it checkpoints every 16,384 pages (64 MB) rather than
	// 1,000, so pages rewritten by consecutive batches are copied to the
	// database file once: about 20% less CPU per stored event, mostly
	// write syscalls (docs/PERFORMANCE.md, "Ingest and discovery").
	write, err := sql.Open("sqlite", base+"&_txlock=immediate&_pragma=cache_size(-65536)&_pragma=wal_autocheckpoint(16384)")
	if err != nil {
		return nil, fmt.Errorf("store: open sqlite writer: %w", err)
	}
	write.SetMaxOpenConns(1)
	write.SetMaxIdleConns(1)
	write.SetConnMaxLifetime(0)
	write.SetConnMaxIdleTime(0)
	read, err := sql.Open("sqlite", base+"&_pragma=query_only(1)")
	if err != nil {
		write.Close()
		return nil, fmt.Errorf("store: open sqlite readers: %w", err)
	}
	n := max(4, runtime.GOMAXPROCS(0))
	read.SetMaxOpenConns(n)
	read.SetMaxIdleConns(n)
	return &Store{dialect: SQLite, read: read, write: write, changes: newBroadcast()}, nil
}

// defaultConnectTimeout bounds a PostgreSQL connection attempt when the
// URL sets no connect_timeout: without it a server whose host does not
// answer holds a request for the operating system's SYN timeout (minutes)
// instead of failing it with 503.
const defaultConnectTimeout = "10"

func openPostgres(raw string) (*Store, error) {
	u := withConnectTimeout(raw)
	db, err := sql.Open("pgx", u)
	if err != nil {
		return nil, fmt.Errorf("store: open postgres %s: %w", redactURL(u), err)
	}
	db.SetMaxOpenConns(max(8, 4*runtime.GOMAXPROCS(0)))
	db.SetMaxIdleConns(max(4, runtime.GOMAXPROCS(0)))
	side, err := sql.Open("pgx", u)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("store: open postgres %s: %w", redactURL(u), err)
	}
	// One LISTEN connection and one lease session; a third for the
	// moment a broken one is replaced.
	side.SetMaxOpenConns(3)
	side.SetMaxIdleConns(2)
	return &Store{dialect: Postgres, read: db, write: db, side: side, changes: newBroadcast()}, nil
}

// withConnectTimeout adds connect_timeout to a URL that has none.
func withConnectTimeout(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw // sql.Open reports it
	}
	q := u.Query()
	if q.Get("connect_timeout") != "" {
		return raw
	}
	q.Set("connect_timeout", defaultConnectTimeout)
	u.RawQuery = q.Encode()
	return u.String()
}

// Dialect returns the database dialect decided at Open.
func (s *Store) Dialect() Dialect { return s.dialect }

// Ping checks that the database answers, on every pool.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.write.PingContext(ctx); err != nil {
		return fmt.Errorf("store: ping %s: %w", s.dialect, err)
	}
	if s.read != s.write {
		if err := s.read.PingContext(ctx); err != nil {
			return fmt.Errorf("store: ping %s readers: %w", s.dialect, err)
		}
	}
	return nil
}

// Close stops the LISTEN connection, gives up the job leases and closes
// every pool.
func (s *Store) Close() error {
	s.notes.stopListening()
	s.leases.close()
	s.txLogStmt.close()
	s.stmts.close()
	err := s.write.Close()
	if s.side != nil {
		err = errors.Join(err, s.side.Close())
	}
	if s.read != s.write {
		err = errors.Join(err, s.read.Close())
	}
	return err
}

// reader returns the Querier for reads outside a transaction.
func (s *Store) reader() Querier { return querier{q: s.read, retryReads: true} }

// redactURL removes the password from a database URL for messages.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable URL)"
	}
	return u.Redacted()
}
