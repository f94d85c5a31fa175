package store

import (
	"database/sql"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Sentinel errors returned by the store; test with errors.Is.
var (
	// ErrNotFound means the row asked for does not exist.
	ErrNotFound = errors.New("store: not found")
	// ErrAlreadyExists means a unique or primary key constraint was violated.
	ErrAlreadyExists = errors.New("store: already exists")
	// ErrConflict means the change conflicts with other data or a concurrent
	// change: a foreign key or check violation, or a serialization failure.
	ErrConflict = errors.New("store: conflict")
)

// mapError translates driver errors to the sentinels, keeping the driver
// error in the chain for logs. Other errors are returned unchanged.
func mapError(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%w: %w", ErrNotFound, err)
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch pgErr.Code {
		case "23505": // unique_violation
			return fmt.Errorf("%w: %w", ErrAlreadyExists, err)
		case "23503", "23514", "40001", "40P01": // foreign key, check, serialization, deadlock
			return fmt.Errorf("%w: %w", ErrConflict, err)
		}
		return err
	}
	var sqErr *sqlite.Error
	if errors.As(err, &sqErr) {
		switch sqErr.Code() {
		case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
			return fmt.Errorf("%w: %w", ErrAlreadyExists, err)
		case sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY, sqlite3.SQLITE_CONSTRAINT_CHECK:
			return fmt.Errorf("%w: %w", ErrConflict, err)
		}
	}
	return err
}

// isBusy reports whether err is SQLite's SQLITE_BUSY (any extended code).
func isBusy(err error) bool {
	var sqErr *sqlite.Error
	return errors.As(err, &sqErr) && sqErr.Code()&0xff == sqlite3.SQLITE_BUSY
}
