package store

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// copier streams rows into table with PostgreSQL's COPY protocol inside
// the current transaction; nil on SQLite.
type copier func(ctx context.Context, table string, columns []string, src pgx.CopyFromSource) (int64, error)

// transactWithCopy is Transact whose function may also COPY on
// PostgreSQL: the transaction runs on a dedicated connection, whose pgx
// connection CopyFrom reaches through database/sql's Conn.Raw. Commit and
// rollback follow Transact.
func (s *Store) transactWithCopy(ctx context.Context, fn func(tx *Tx, cp copier) error) (err error) {
	if s.dialect != Postgres {
		return s.Transact(ctx, func(tx *Tx) error { return fn(tx, nil) })
	}
	var conn *sql.Conn
	var sqlTx *sql.Tx
	// BEGIN is sent again on another connection when the pooled one is
	// one a restarted server closed (see staleConnAttempts).
	for attempt := 1; ; attempt++ {
		if conn, err = s.write.Conn(ctx); err != nil {
			return fmt.Errorf("store: connection: %w", mapError(err))
		}
		if sqlTx, err = conn.BeginTx(ctx, nil); err == nil {
			break
		}
		conn.Close()
		if attempt >= staleConnAttempts || !retryStale(ctx, err) {
			return fmt.Errorf("store: begin: %w", mapError(err))
		}
	}
	defer conn.Close()
	tx := &Tx{querier: querier{q: sqlTx}, dialect: s.dialect}
	cp := func(ctx context.Context, table string, columns []string, src pgx.CopyFromSource) (int64, error) {
		var n int64
		err := conn.Raw(func(dc any) error {
			c, ok := dc.(*stdlib.Conn)
			if !ok {
				return fmt.Errorf("unexpected driver connection %T", dc)
			}
			var err error
			n, err = c.Conn().CopyFrom(ctx, pgx.Identifier{table}, columns, src)
			return err
		})
		return n, mapError(err)
	}
	defer func() { settle(sqlTx, recover(), &err) }()
	return fn(tx, cp)
}

// stmtCache keeps statements prepared on the SQLite writer, so large
// multi-row INSERTs are parsed once, not per batch. Statements must be
// prepared outside a transaction: the writer's one connection is busy
// inside it.
type stmtCache struct {
	mu sync.Mutex
	m  map[string]*sql.Stmt
}

// get returns the statement for query, preparing it the first time; nil
// when it cannot be prepared (the caller then sends the text).
func (c *stmtCache) get(ctx context.Context, db *sql.DB, query string) *sql.Stmt {
	c.mu.Lock()
	defer c.mu.Unlock()
	if st, ok := c.m[query]; ok {
		return st
	}
	st, err := db.PrepareContext(ctx, query)
	if err != nil {
		return nil
	}
	if c.m == nil {
		c.m = map[string]*sql.Stmt{}
	}
	c.m[query] = st
	return st
}

func (c *stmtCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, st := range c.m {
		st.Close()
	}
	c.m = nil
}

// execMaybePrepared runs query in tx, through stmt (prepared from the
// same text) when there is one.
func (tx *Tx) execMaybePrepared(ctx context.Context, stmt *sql.Stmt, query string, args ...any) error {
	if sqlTx, ok := tx.querier.q.(*sql.Tx); ok && stmt != nil {
		_, err := sqlTx.StmtContext(ctx, stmt).ExecContext(ctx, args...)
		return mapError(err)
	}
	_, err := tx.Exec(ctx, query, args...)
	return err
}

// valuesSQL writes "INSERT INTO table (columns) VALUES (…),(…)" for rows
// rows of len(columns) parameters. SQLite gets anonymous "?" placeholders:
// modernc.org/sqlite finds each numbered parameter with a linear scan, so
// thousands of "$N" bind in quadratic time (docs/PERFORMANCE.md).
func valuesSQL(d Dialect, table string, columns []string, rows int) string {
	var b strings.Builder
	b.Grow(len(table) + 16*len(columns) + rows*len(columns)*7)
	b.WriteString("INSERT INTO " + table + " (" + strings.Join(columns, ", ") + ") VALUES ")
	n := 0
	for i := range rows {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('(')
		for j := range columns {
			if j > 0 {
				b.WriteByte(',')
			}
			n++
			writeParam(&b, d, n)
		}
		b.WriteByte(')')
	}
	return b.String()
}

// writeParam writes placeholder n (1-based) in d's form.
func writeParam(b *strings.Builder, d Dialect, n int) {
	if d == SQLite {
		b.WriteByte('?')
		return
	}
	b.WriteByte('$')
	b.WriteString(strconv.Itoa(n))
}

// inList writes "(p1,…,pn)" for n parameters numbered after first.
func inList(b *strings.Builder, d Dialect, first, n int) {
	b.WriteByte('(')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		writeParam(b, d, first+i+1)
	}
	b.WriteByte(')')
}

// greatest and least name the two-argument max and min of d.
func greatest(d Dialect) string {
	if d == SQLite {
		return "MAX"
	}
	return "GREATEST"
}

func least(d Dialect) string {
	if d == SQLite {
		return "MIN"
	}
	return "LEAST"
}
