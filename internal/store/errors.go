package store

import (
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"

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
	// ErrUnavailable means the database could not be reached or lost the
	// connection (PostgreSQL down or restarting, a network failure, SQLite
	// locked past busy_timeout or out of disk): the change was not made and
	// the same request may succeed later. The admin API answers it with
	// 503 S2R-ADM-0503.
	ErrUnavailable = errors.New("store: database unavailable")
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
		if unavailablePG(pgErr.Code) {
			return fmt.Errorf("%w: %w", ErrUnavailable, err)
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
		switch sqErr.Code() & 0xff {
		case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_FULL, sqlite3.SQLITE_CANTOPEN:
			return fmt.Errorf("%w: %w", ErrUnavailable, err)
		}
		return err
	}
	if connectionLost(err) {
		return fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	return err
}

// unavailablePG reports whether a PostgreSQL error code says the server
// cannot serve now: class 08 (connection exception), 53300 (too many
// connections), 57P01..57P03 (admin or crash shutdown, cannot connect
// now).
func unavailablePG(code string) bool {
	switch code {
	case "53300", "57P01", "57P02", "57P03":
		return true
	}
	return strings.HasPrefix(code, "08")
}

// connectionLost reports whether err is a failure to reach the database or
// a connection lost under a statement, as opposed to an error the database
// returned about the statement.
func connectionLost(err error) bool {
	var ce *pgconn.ConnectError
	var ne net.Error
	switch {
	case errors.As(err, &ce), errors.As(err, &ne),
		errors.Is(err, driver.ErrBadConn), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, net.ErrClosed), errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, syscall.EPIPE):
		return true
	}
	// pgx reports a connection it closed after a network failure as
	// "conn closed" without a typed error.
	return strings.Contains(err.Error(), "conn closed")
}

// isBusy reports whether err is SQLite's SQLITE_BUSY (any extended code).
func isBusy(err error) bool {
	var sqErr *sqlite.Error
	return errors.As(err, &sqErr) && sqErr.Code()&0xff == sqlite3.SQLITE_BUSY
}
