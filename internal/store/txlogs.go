package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/s2r-project/s2r/internal/model"
)

// txLogColumns lists the columns InsertTxLogs writes, in order.
const txLogColumns = "correlation_id, occurred_at, direction, environment, service_key, service_id, operation_key, " +
	"operation_id, method, path, http_status, result_code, in_body_fault, error_code, total_ms, backend_ms, converter_ms, " +
	"backend_target, client_ip, request_bytes, response_bytes, debug, request_payload, response_payload, backend_request, backend_response, " +
	"debug_headers, consumer_identity, " +
	"validation_issues"

// txLogArity is the number of txLogColumns.
const txLogArity = 29

// txLogBatch bounds the rows of one multi-row INSERT: 29 parameters each,
// under SQLite's 32766 and PostgreSQL's 65535 parameter limits.
const txLogBatch = 500

// Verbs of the multi-row statements. CopyTxLogs on SQLite writes with
// copyVerbSQLite: a row that fails rolls back the whole transaction
// (CopyTxLogs is all-or-nothing anyway), so SQLite keeps no statement
// journal, the copy of every page a statement changes that a plain INSERT
// (ABORT) writes inside a transaction to undo that statement alone. With
// 200 routes that was 18% of the CPU per row at 500 rows per transaction,
// and it grows with the statements per transaction (docs/PERFORMANCE.md,
// "Transaction record path (issue 27)"). InsertTxLogs keeps the plain
// verb: its caller's transaction may hold other writes and go on after an
// error.
const (
	insertVerb     = "INSERT"
	copyVerbSQLite = "INSERT OR ROLLBACK"
)

// InsertTxLogs stores logs with multi-row INSERTs of up to 500 rows.
func (tx *Tx) InsertTxLogs(ctx context.Context, logs []model.TxLog) error {
	return tx.insertTxLogs(ctx, insertVerb, logs)
}

func (tx *Tx) insertTxLogs(ctx context.Context, verb string, logs []model.TxLog) error {
	for len(logs) > 0 {
		n := min(len(logs), txLogBatch)
		if _, err := tx.Exec(ctx, insertTxLogSQL(tx.dialect, verb, n), txLogArgs(logs[:n])...); err != nil {
			return fmt.Errorf("store: insert runtime tx logs: %w", err)
		}
		logs = logs[n:]
	}
	return nil
}

// Statement texts of full batches, built once.
var (
	insertFullBatchSQLite   = buildInsertTxLogSQL(SQLite, insertVerb, txLogBatch)
	insertFullBatchPostgres = buildInsertTxLogSQL(Postgres, insertVerb, txLogBatch)
	copyFullBatchSQLite     = buildInsertTxLogSQL(SQLite, copyVerbSQLite, txLogBatch)
)

func insertTxLogSQL(d Dialect, verb string, rows int) string {
	switch {
	case rows != txLogBatch:
	case d == Postgres && verb == insertVerb:
		return insertFullBatchPostgres
	case d == SQLite && verb == insertVerb:
		return insertFullBatchSQLite
	case d == SQLite && verb == copyVerbSQLite:
		return copyFullBatchSQLite
	}
	return buildInsertTxLogSQL(d, verb, rows)
}

// buildInsertTxLogSQL writes the multi-row statement (verb is INSERT or
// one of SQLite's INSERT OR ...). On SQLite the placeholders are anonymous
// "?": modernc.org/sqlite looks each numbered parameter's name up with a
// linear scan, so binding 13,000 "$N" parameters costs seconds
// (quadratic), while "?" binds in linear time.
func buildInsertTxLogSQL(d Dialect, verb string, rows int) string {
	var b strings.Builder
	b.Grow(len(txLogColumns) + rows*txLogArity*7 + 64)
	b.WriteString(verb + " INTO runtime_tx_logs (" + txLogColumns + ") VALUES ")
	p := 1
	for i := range rows {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('(')
		for j := range txLogArity {
			if j > 0 {
				b.WriteByte(',')
			}
			if d == SQLite {
				b.WriteByte('?')
			} else {
				b.WriteByte('$')
				b.WriteString(strconv.Itoa(p))
			}
			p++
		}
		b.WriteByte(')')
	}
	return b.String()
}

// txLogStmt holds the prepared full-batch INSERT of a SQLite store.
type txLogStmt struct {
	mu   sync.Mutex
	stmt *sql.Stmt
}

// get returns the statement, preparing it on db the first time; nil when
// it cannot be prepared (the caller then sends the statement text).
func (p *txLogStmt) get(ctx context.Context, db *sql.DB) *sql.Stmt {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stmt == nil {
		p.stmt, _ = db.PrepareContext(ctx, copyFullBatchSQLite)
	}
	return p.stmt
}

func (p *txLogStmt) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stmt != nil {
		p.stmt.Close()
		p.stmt = nil
	}
}

func txLogArgs(logs []model.TxLog) []any {
	args := make([]any, 0, len(logs)*txLogArity)
	for i := range logs {
		l := &logs[i]
		args = append(args, l.CorrelationID, NewTime(l.OccurredAt), l.Direction, l.Environment, l.ServiceKey,
			l.ServiceID, l.OperationKey, l.OperationID, l.Method, l.Path, l.HTTPStatus, l.ResultCode, l.InBodyFault,
			l.ErrorCode, l.TotalMs, l.BackendMs, l.ConverterMs, l.BackendTarget, l.ClientIP, l.RequestBytes,
			l.ResponseBytes, l.Debug, nullBytes(l.RequestPayload), nullBytes(l.ResponsePayload),
			nullBytes(l.BackendRequest), nullBytes(l.BackendResponse), nullText(l.DebugHeaders),
			l.ConsumerIdentity, issuesText(l.ValidationIssues))
	}
	return args
}

// nullText stores "" as NULL.
func nullText(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// nullBytes stores nil as NULL (a []byte(nil) is bound as an empty blob by
// some drivers).
func nullBytes(b []byte) any {
	if b == nil {
		return nil
	}
	return b
}

// txLogWhere returns the conditions of f and their arguments.
func txLogWhere(f model.TxLogFilter) (string, []any) {
	var w whereClause
	w.equal([2]string{"environment", f.Environment}, [2]string{"service_key", f.ServiceKey},
		[2]string{"operation_key", f.OperationKey}, [2]string{"correlation_id", f.CorrelationID},
		[2]string{"direction", f.Direction})
	w.in("result_code", f.ResultCodes)
	if len(f.ResultCodes) > 0 && !slices.Contains(f.ResultCodes, "success") {
		// Literal, so both planners see it implies the partial index
		// runtime_tx_logs_not_success (migration 0008).
		w.literal("result_code <> 'success'")
	}
	if f.StatusMax != 0 {
		w.add("http_status >= ?", f.StatusMin)
		w.add("http_status <= ?", f.StatusMax)
	}
	if f.WithViolations {
		w.literal("validation_issues IS NOT NULL")
	}
	if !f.Since.IsZero() {
		w.add("occurred_at >= ?", NewTime(f.Since))
	}
	if !f.Until.IsZero() {
		w.add("occurred_at <= ?", NewTime(f.Until))
	}
	return w.clause()
}

// txLogListColumns are the columns of a list item (no payloads).
const txLogListColumns = "id, correlation_id, occurred_at, direction, environment, service_key, service_id, operation_key, " +
	"operation_id, method, path, http_status, result_code, in_body_fault, error_code, total_ms, backend_ms, converter_ms, " +
	"backend_target, client_ip, request_bytes, response_bytes, debug, consumer_identity, " +
	"validation_issues"

// TxLogs returns one page of runtime logs matching f, newest first.
func (s *Store) TxLogs(ctx context.Context, f model.TxLogFilter, page model.PageRequest) (model.ObservabilityPageRecord[model.TxLog], error) {
	where, args := txLogWhere(f)
	var total int64
	if err := s.reader().QueryRow(ctx, "SELECT COUNT(*) FROM runtime_tx_logs"+where, args...).Scan(&total); err != nil {
		return model.ObservabilityPageRecord[model.TxLog]{}, fmt.Errorf("store: count runtime tx logs: %w", err)
	}
	n := len(args)
	query := "SELECT " + txLogListColumns + " FROM runtime_tx_logs" + where +
		" ORDER BY occurred_at DESC, id DESC LIMIT $" + strconv.Itoa(n+1) + " OFFSET $" + strconv.Itoa(n+2)
	args = append(args, page.PageSize, page.Offset())
	items, err := s.queryTxLogs(ctx, query, args, false)
	if err != nil {
		return model.ObservabilityPageRecord[model.TxLog]{}, err
	}
	return model.NewPage(items, page, total), nil
}

// TxLogsByCorrelation returns every runtime log of one correlation id,
// oldest first, with payloads.
func (s *Store) TxLogsByCorrelation(ctx context.Context, correlationID string) ([]model.TxLog, error) {
	query := "SELECT " + txLogListColumns + ", request_payload, response_payload, backend_request, backend_response, debug_headers" +
		" FROM runtime_tx_logs WHERE correlation_id = $1 ORDER BY occurred_at, id"
	return s.queryTxLogs(ctx, query, []any{correlationID}, true)
}

func (s *Store) queryTxLogs(ctx context.Context, query string, args []any, payloads bool) ([]model.TxLog, error) {
	rows, err := s.reader().Query(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("store: query runtime tx logs: %w", err)
	}
	defer rows.Close()
	var out []model.TxLog
	for rows.Next() {
		var (
			l       model.TxLog
			at      Time
			headers sql.NullString
			issues  sql.NullString
		)
		dest := []any{&l.ID, &l.CorrelationID, &at, &l.Direction, &l.Environment, &l.ServiceKey, &l.ServiceID,
			&l.OperationKey, &l.OperationID, &l.Method, &l.Path, &l.HTTPStatus, &l.ResultCode, &l.InBodyFault,
			&l.ErrorCode, &l.TotalMs, &l.BackendMs, &l.ConverterMs, &l.BackendTarget, &l.ClientIP,
			&l.RequestBytes, &l.ResponseBytes, &l.Debug,
			&l.ConsumerIdentity, &issues}
		if payloads {
			dest = append(dest, &l.RequestPayload, &l.ResponsePayload, &l.BackendRequest, &l.BackendResponse, &headers)
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, fmt.Errorf("store: scan runtime tx log: %w", err)
		}
		l.OccurredAt = at.Time
		l.DebugHeaders = headers.String
		if l.ValidationIssues, err = scanIssues(issues); err != nil {
			return nil, fmt.Errorf("store: scan runtime tx log %d: %w", l.ID, err)
		}
		out = append(out, l)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: query runtime tx logs: %w", mapError(err))
	}
	return out, nil
}

// DeleteTxLogsBefore removes runtime logs that occurred before t
// (retention), at most limit rows per call so one call holds the writer
// briefly; it returns how many were removed.
func (tx *Tx) DeleteTxLogsBefore(ctx context.Context, t time.Time, limit int) (int64, error) {
	res, err := tx.Exec(ctx,
		"DELETE FROM runtime_tx_logs WHERE id IN (SELECT id FROM runtime_tx_logs WHERE occurred_at < $1 LIMIT $2)",
		NewTime(t), limit)
	if err != nil {
		return 0, fmt.Errorf("store: delete runtime tx logs: %w", err)
	}
	return res.RowsAffected()
}

// TxLatencyPercentiles computes model.TxLatency over the logs matching f (the
// converter-overhead figures of the load benchmarks read it). Portable SQL:
// a count, then one ordered OFFSET probe per percentile.
func (s *Store) TxLatencyPercentiles(ctx context.Context, f model.TxLogFilter) (model.TxLatency, error) {
	where, args := txLogWhere(f)
	var out model.TxLatency
	if err := s.reader().QueryRow(ctx, "SELECT COUNT(*) FROM runtime_tx_logs"+where, args...).Scan(&out.Count); err != nil {
		return out, fmt.Errorf("store: count runtime tx logs: %w", err)
	}
	if out.Count == 0 {
		return out, nil
	}
	for _, p := range []struct {
		col  string
		q    float64
		dest *float64
	}{
		{"converter_ms", 0.50, &out.ConverterP50Ms}, {"converter_ms", 0.99, &out.ConverterP99Ms},
		{"total_ms", 0.50, &out.TotalP50Ms}, {"total_ms", 0.99, &out.TotalP99Ms},
	} {
		rank := max(int64(p.q*float64(out.Count)+0.999999)-1, 0)
		q := "SELECT " + p.col + " FROM runtime_tx_logs" + where + " ORDER BY " + p.col +
			" LIMIT 1 OFFSET $" + strconv.Itoa(len(args)+1)
		if err := s.reader().QueryRow(ctx, q, append(args[:len(args):len(args)], rank)...).Scan(p.dest); err != nil {
			return out, fmt.Errorf("store: runtime tx latency percentile: %w", err)
		}
	}
	return out, nil
}

// txLogCopyColumns are txLogColumns as a list, for COPY.
var txLogCopyColumns = strings.Split(strings.ReplaceAll(txLogColumns, " ", ""), ",")

// CopyTxLogs stores logs with PostgreSQL's COPY protocol (pgx CopyFrom)
// in one statement; on SQLite it writes multi-row INSERT OR ROLLBACK
// statements in one transaction. Both are all-or-nothing.
func (s *Store) CopyTxLogs(ctx context.Context, logs []model.TxLog) error {
	if s.dialect != Postgres {
		// Full batches use the statement prepared once on the writer
		// (prepared outside the transaction, which holds the only writer
		// connection): parsing the 13,000-parameter INSERT was about a
		// third of a batch's CPU.
		stmt := s.txLogStmt.get(ctx, s.write)
		return s.Transact(ctx, func(tx *Tx) error {
			if stmt != nil {
				if sqlTx, ok := tx.querier.q.(*sql.Tx); ok {
					ts := sqlTx.StmtContext(ctx, stmt)
					for len(logs) >= txLogBatch {
						if _, err := ts.ExecContext(ctx, txLogArgs(logs[:txLogBatch])...); err != nil {
							return fmt.Errorf("store: insert runtime tx logs: %w", mapError(err))
						}
						logs = logs[txLogBatch:]
					}
				}
			}
			return tx.insertTxLogs(ctx, copyVerbSQLite, logs)
		})
	}
	conn, err := s.write.Conn(ctx)
	if err != nil {
		return fmt.Errorf("store: copy runtime tx logs: %w", mapError(err))
	}
	defer conn.Close()
	err = conn.Raw(func(dc any) error {
		c, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("unexpected driver connection %T", dc)
		}
		_, err := c.Conn().CopyFrom(ctx, pgx.Identifier{"runtime_tx_logs"}, txLogCopyColumns,
			pgx.CopyFromSlice(len(logs), func(i int) ([]any, error) {
				l := &logs[i]
				return []any{l.CorrelationID, l.OccurredAt.UTC().Truncate(time.Microsecond), l.Direction, l.Environment,
					l.ServiceKey, l.ServiceID, l.OperationKey, l.OperationID, l.Method, l.Path, int32(l.HTTPStatus),
					l.ResultCode, l.InBodyFault, l.ErrorCode, l.TotalMs, l.BackendMs, l.ConverterMs, l.BackendTarget,
					l.ClientIP, l.RequestBytes, l.ResponseBytes, l.Debug, l.RequestPayload, l.ResponsePayload,
					l.BackendRequest, l.BackendResponse, nullText(l.DebugHeaders),
					l.ConsumerIdentity, issuesText(l.ValidationIssues)}, nil
			}))
		return err
	})
	if err != nil {
		return fmt.Errorf("store: copy runtime tx logs: %w", mapError(err))
	}
	return nil
}
