package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/s2r-project/s2r/internal/model"
)

// lbEventColumns and genericLogColumns are the columns ingest writes, in
// the order of lbEventValues and genericLogValues.
var (
	lbEventColumns = []string{"event_id", "global_transaction_id", "instance_id", "tenant_id", "vendor", "row_id",
		"service_uri", "environment", "service_key", "onboarded_service_id", "stage", "occurred_at", "received_at",
		"front_virtual_server", "back_virtual_server", "client_ip", "method", "host", "uri", "backend", "status_code",
		"duration_ms", "bytes_in", "bytes_out", "result_code", "soap_fault", "failure", "headers", "payload", "payload_bytes"}
	genericLogColumns = []string{"event_id", "instance_id", "tenant_id", "vendor", "row_id", "service_uri", "raw_uri",
		"environment", "service_key", "onboarded_service_id", "occurred_at", "received_at", "method", "status_code",
		"latency_ms", "consumer_ip", "backend", "result_code", "soap_fault", "failure", "request_payload",
		"response_payload", "request_payload_bytes", "response_payload_bytes"}
)

// eventChunk bounds the rows of one multi-row event INSERT (SQLite):
// 30 parameters each, under SQLite's 32,766.
const eventChunk = 500

// Full-chunk INSERT texts, built once per dialect.
var (
	lbInsertSQLite      = valuesSQL(SQLite, "lb_events", lbEventColumns, eventChunk)
	genericInsertSQLite = valuesSQL(SQLite, "generic_logs", genericLogColumns, eventChunk)
)

// fullInsertStmt returns the prepared full-chunk INSERT of b's kind on
// SQLite when b fills at least one chunk; nil otherwise.
func (s *Store) fullInsertStmt(ctx context.Context, b *model.IngestBatch) *sql.Stmt {
	switch {
	case s.dialect != SQLite:
		return nil
	case len(b.LB) >= eventChunk:
		return s.stmts.get(ctx, s.write, lbInsertSQLite)
	case len(b.Generic) >= eventChunk:
		return s.stmts.get(ctx, s.write, genericInsertSQLite)
	}
	return nil
}

// eventKey identifies a stored event: its time (microseconds, as
// stored) and id. A resent event carries both unchanged.
type eventKey struct {
	us int64
	id [16]byte
}

func keyOf(at time.Time, id [16]byte) eventKey {
	return eventKey{us: at.UTC().Truncate(time.Microsecond).UnixMicro(), id: id}
}

// freshIndexes returns the indexes of the events to store: the first of
// each key that is not stored yet.
func freshIndexes(ctx context.Context, tx *Tx, table string, keys []eventKey) ([]int, error) {
	seen := make(map[eventKey]bool, len(keys))
	unique := make([]eventKey, 0, len(keys))
	first := make([]int, 0, len(keys))
	for i, k := range keys {
		if !seen[k] {
			seen[k] = true
			unique = append(unique, k)
			first = append(first, i)
		}
	}
	stored, err := storedEventKeys(ctx, tx, table, unique)
	if err != nil {
		return nil, err
	}
	out := first[:0]
	for _, i := range first {
		if !stored[keys[i]] {
			out = append(out, i)
		}
	}
	return out, nil
}

// storedEventKeys returns which of keys table already holds, through its
// unique (occurred_at, event_id) index. A concurrent batch may store one
// of them before this transaction does; the unique index then fails the
// insert and Ingest retries.
func storedEventKeys(ctx context.Context, tx *Tx, table string, keys []eventKey) (map[eventKey]bool, error) {
	out := map[eventKey]bool{}
	for chunk := range chunks(keys, eventChunk) {
		var (
			q    string
			args []any
		)
		if tx.dialect == Postgres {
			q = storedKeysSQL(Postgres, table, len(chunk))
			ats, ids := make([]time.Time, len(chunk)), make([][16]byte, len(chunk))
			for i, k := range chunk {
				ats[i], ids[i] = time.UnixMicro(k.us).UTC(), k.id
			}
			args = []any{ats, ids}
		} else {
			q = storedKeysSQL(SQLite, table, len(chunk))
			args = make([]any, 0, 2*len(chunk))
			for _, k := range chunk {
				args = append(args, NewTime(time.UnixMicro(k.us)), uuid.UUID(k.id).String())
			}
		}
		rows, err := tx.Query(ctx, q, args...)
		if err != nil {
			return nil, fmt.Errorf("store: stored event ids: %w", err)
		}
		for rows.Next() {
			var (
				at Time
				s  string
			)
			if err := rows.Scan(&at, &s); err != nil {
				rows.Close()
				return nil, fmt.Errorf("store: stored event ids: %w", err)
			}
			if id, err := uuid.Parse(s); err == nil {
				out[keyOf(at.Time, id)] = true
			}
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("store: stored event ids: %w", mapError(err))
		}
	}
	return out, nil
}

// storedKeysSQL selects which of n (occurred_at, event_id) keys table
// holds: two arrays on PostgreSQL, n pairs of "?" on SQLite.
func storedKeysSQL(d Dialect, table string, n int) string {
	if d == Postgres {
		return "SELECT occurred_at, event_id FROM " + table +
			" WHERE (occurred_at, event_id) IN (SELECT * FROM unnest($1::timestamptz[], $2::uuid[]))"
	}
	var sb strings.Builder
	sb.WriteString("SELECT occurred_at, event_id FROM " + table + " WHERE (occurred_at, event_id) IN (VALUES ")
	for i := range n {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString("(?,?)")
	}
	sb.WriteByte(')')
	return sb.String()
}

// chunks is slices.Chunk for a slice that may be empty.
func chunks[T any](s []T, n int) func(func([]T) bool) {
	return func(yield func([]T) bool) {
		for len(s) > 0 {
			k := min(n, len(s))
			if !yield(s[:k:k]) {
				return
			}
			s = s[k:]
		}
	}
}

// insertRows stores the rows idx of a batch: COPY on PostgreSQL, multi-row
// INSERTs on SQLite (full chunks through the prepared full).
func insertRows(ctx context.Context, tx *Tx, cp copier, full *sql.Stmt, table string, columns []string,
	idx []int, values func(i int) []any) error {
	if cp != nil {
		n := 0
		_, err := cp(ctx, table, columns, pgx.CopyFromFunc(func() ([]any, error) {
			if n == len(idx) {
				return nil, nil
			}
			n++
			return values(idx[n-1]), nil
		}))
		if err != nil {
			return fmt.Errorf("store: copy %s: %w", table, err)
		}
		return nil
	}
	for chunk := range chunks(idx, eventChunk) {
		args := make([]any, 0, len(chunk)*len(columns))
		for _, i := range chunk {
			args = append(args, sqliteValues(values(i))...)
		}
		var stmt *sql.Stmt
		if len(chunk) == eventChunk {
			stmt = full
		}
		if err := tx.execMaybePrepared(ctx, stmt, valuesSQL(tx.dialect, table, columns, len(chunk)), args...); err != nil {
			return fmt.Errorf("store: insert %s: %w", table, err)
		}
	}
	return nil
}

// sqliteValues converts COPY values to what SQLite stores: UUID text and
// store.Time text.
func sqliteValues(v []any) []any {
	for i, x := range v {
		switch x := x.(type) {
		case [16]byte:
			v[i] = uuid.UUID(x).String()
		case time.Time:
			v[i] = NewTime(x)
		}
	}
	return v
}

// insertLBEvents stores b's new lb events and returns their indexes.
func insertLBEvents(ctx context.Context, tx *Tx, cp copier, full *sql.Stmt, b *model.IngestBatch, rowIDs []int64) ([]int, error) {
	keys := make([]eventKey, len(b.LB))
	for i := range b.LB {
		keys[i] = keyOf(b.LB[i].OccurredAt, b.LB[i].EventID)
	}
	idx, err := freshIndexes(ctx, tx, "lb_events", keys)
	if err != nil {
		return nil, err
	}
	if err := insertRows(ctx, tx, cp, full, "lb_events", lbEventColumns, idx, lbEventValues(b, rowIDs)); err != nil {
		return nil, err
	}
	return idx, nil
}

// insertGenericLogs stores b's new generic logs and returns their indexes.
func insertGenericLogs(ctx context.Context, tx *Tx, cp copier, full *sql.Stmt, b *model.IngestBatch, rowIDs []int64) ([]int, error) {
	keys := make([]eventKey, len(b.Generic))
	for i := range b.Generic {
		keys[i] = keyOf(b.Generic[i].OccurredAt, b.Generic[i].EventID)
	}
	idx, err := freshIndexes(ctx, tx, "generic_logs", keys)
	if err != nil {
		return nil, err
	}
	if err := insertRows(ctx, tx, cp, full, "generic_logs", genericLogColumns, idx, genericLogValues(b, rowIDs)); err != nil {
		return nil, err
	}
	return idx, nil
}

// lbEventValues returns the lbEventColumns values of b's event i.
func lbEventValues(b *model.IngestBatch, rowIDs []int64) func(i int) []any {
	received := b.ReceivedAt.UTC().Truncate(time.Microsecond)
	return func(i int) []any {
		e := &b.LB[i]
		r := &b.Rows[e.Row]
		return []any{e.EventID, e.GlobalTransactionID, b.InstanceID, b.TenantID, b.InstanceVendor, rowIDs[e.Row],
			r.ServiceURI, r.Environment, r.ServiceKey, r.OnboardedServiceID, e.Stage,
			e.OccurredAt.UTC().Truncate(time.Microsecond), received, e.FrontVirtualServer, e.BackVirtualServer,
			e.ClientIP, e.Method, e.Host, e.URI, e.Backend, int32(e.StatusCode), e.DurationMs, e.BytesIn, e.BytesOut,
			e.ResultCode, e.SoapFault, e.Failure, e.Headers, e.Payload, e.PayloadBytes}
	}
}

// genericLogValues returns the genericLogColumns values of b's log i.
func genericLogValues(b *model.IngestBatch, rowIDs []int64) func(i int) []any {
	received := b.ReceivedAt.UTC().Truncate(time.Microsecond)
	return func(i int) []any {
		g := &b.Generic[i]
		r := &b.Rows[g.Row]
		return []any{g.EventID, b.InstanceID, b.TenantID, g.Vendor, rowIDs[g.Row], r.ServiceURI, g.RawURI,
			r.Environment, r.ServiceKey, r.OnboardedServiceID, g.OccurredAt.UTC().Truncate(time.Microsecond), received,
			g.Method, int32(g.StatusCode), g.LatencyMs, g.ConsumerIP, g.Backend, g.ResultCode, g.SoapFault, g.Failure,
			g.RequestPayload, g.ResponsePayload, g.RequestPayloadBytes, g.ResponsePayloadBytes}
	}
}
