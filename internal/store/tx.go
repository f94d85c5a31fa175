package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// Querier runs statements on the reader pool or inside a transaction, with
// driver errors mapped to the store sentinels. *Tx implements it, and
// Store.reader returns one, so helpers written against it serve both.
type Querier interface {
	// Exec runs a statement that returns no rows.
	Exec(ctx context.Context, query string, args ...any) (sql.Result, error)
	// Query runs a statement returning rows; the caller closes them and
	// should pass rows.Err() through mapError.
	Query(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	// QueryRow runs a statement returning at most one row; Scan reports
	// ErrNotFound when there is none.
	QueryRow(ctx context.Context, query string, args ...any) *Row
}

// sqlRunner is what *sql.DB and *sql.Tx have in common.
type sqlRunner interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// querier runs statements on q. retryReads is set on the reader pool
// (outside transactions), where a read that failed on a pooled connection
// the server had closed (a restarted PostgreSQL) is sent again on another
// one: a read has no effect to repeat.
type querier struct {
	q          sqlRunner
	retryReads bool
}

func (q querier) Exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	r, err := q.q.ExecContext(ctx, query, args...)
	return r, mapError(err)
}

func (q querier) Query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	rows, err := q.q.QueryContext(ctx, query, args...)
	for attempt := 1; q.retryReads && attempt < staleConnAttempts && retryStale(ctx, err); attempt++ {
		rows, err = q.q.QueryContext(ctx, query, args...)
	}
	return rows, mapError(err)
}

func (q querier) QueryRow(ctx context.Context, query string, args ...any) *Row {
	r := &Row{row: q.q.QueryRowContext(ctx, query, args...)}
	if q.retryReads {
		r.again = func() *sql.Row { return q.q.QueryRowContext(ctx, query, args...) }
		r.ctx = ctx
	}
	return r
}

// Row is the result of QueryRow.
type Row struct {
	row   *sql.Row
	again func() *sql.Row // reader pool: the same query again
	ctx   context.Context
}

// Scan copies the row's columns into dest; ErrNotFound when there is no row.
func (r *Row) Scan(dest ...any) error {
	err := r.row.Scan(dest...)
	for attempt := 1; r.again != nil && attempt < staleConnAttempts && retryStale(r.ctx, err); attempt++ {
		err = r.again().Scan(dest...)
	}
	return mapError(err)
}

// staleConnAttempts bounds the attempts of a statement that may be sent
// again (BEGIN, reads) when its pooled connection turns out to be one the
// server closed: after a PostgreSQL restart every idle connection of the
// pool is such a one, and each failed attempt discards one. database/sql
// itself retries only on driver.ErrBadConn, which pgx does not return for
// a connection that is found closed while sending.
const staleConnAttempts = 6

// retryStale reports whether err is a lost connection worth another
// attempt on another connection.
func retryStale(ctx context.Context, err error) bool {
	return err != nil && ctx.Err() == nil && errors.Is(mapError(err), ErrUnavailable)
}

// Tx is a database transaction, passed to the function given to Transact.
// It must not be used after that function returns.
type Tx struct {
	querier
	dialect Dialect
	bumped  int64 // the revision BumpRevision set (0: none): wake watchers after commit
}

var _ Querier = (*Tx)(nil)

// Dialect returns the dialect of the transaction's database.
func (tx *Tx) Dialect() Dialect { return tx.dialect }

// Transact runs fn in a transaction. It commits when fn returns nil and
// rolls back when fn returns an error or panics (the panic is re-raised
// after the rollback). The returned error is fn's or the commit's.
//
// On SQLite every transaction runs on the single writer connection and
// begins IMMEDIATE, so transactions are serialized and never fail with
// SQLITE_BUSY because of each other. Keep them short, and never call
// Transact from inside fn: on SQLite the inner call would wait for the
// writer connection the outer one holds (until ctx ends). Pass the *Tx down
// instead.
func (s *Store) Transact(ctx context.Context, fn func(*Tx) error) (err error) {
	sqlTx, err := s.write.BeginTx(ctx, nil)
	for attempt := 1; attempt < staleConnAttempts && retryStale(ctx, err); attempt++ {
		sqlTx, err = s.write.BeginTx(ctx, nil)
	}
	if err != nil {
		return fmt.Errorf("store: begin: %w", mapError(err))
	}
	tx := &Tx{querier: querier{q: sqlTx}, dialect: s.dialect}
	defer func() {
		settle(sqlTx, recover(), &err)
		if err == nil && tx.bumped > 0 {
			s.changes.notify()
			noteCommit(ctx, tx.bumped)
		}
	}()
	return fn(tx)
}

// ChangeConfig is Transact for a configuration change: it bumps the
// configuration revision first (see BumpRevision), so that once the
// transaction commits every instance reloads what fn changed. Every admin
// write that the runtime serves goes through it.
func (s *Store) ChangeConfig(ctx context.Context, fn func(*Tx) error) error {
	return s.Transact(ctx, func(tx *Tx) error {
		if _, err := tx.BumpRevision(ctx); err != nil {
			return err
		}
		return fn(tx)
	})
}

// settle ends sqlTx after its function returned *errp (or panicked with
// p): it commits on success and rolls back otherwise, re-raising the
// panic after the rollback. A failed commit or rollback is added to *errp.
func settle(sqlTx *sql.Tx, p any, errp *error) {
	if p != nil {
		sqlTx.Rollback()
		panic(p)
	}
	if *errp != nil {
		if rbErr := sqlTx.Rollback(); rbErr != nil && !errors.Is(rbErr, sql.ErrTxDone) && !rolledBackAlready(rbErr) {
			*errp = errors.Join(*errp, fmt.Errorf("store: rollback: %w", rbErr))
		}
		return
	}
	if cErr := sqlTx.Commit(); cErr != nil {
		*errp = fmt.Errorf("store: commit: %w", mapError(cErr))
	}
}

// rolledBackAlready reports whether a rollback failed only because SQLite
// had already ended the transaction: a statement with an OR ROLLBACK
// conflict clause (CopyTxLogs) rolls it back itself when it fails, and the
// statement's own error already says why.
func rolledBackAlready(err error) bool {
	return strings.Contains(err.Error(), "no transaction is active")
}
