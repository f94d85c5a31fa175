package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
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
func (s *Store) fullInsertStmt(ctx context.Context, b *IngestBatch) *sql.Stmt {
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

// ingested is what an event insert stored: the count, and the calls the
// rollups must add.
type ingested struct {
	stored int
	calls  []call
}

// call is one counted event for the rollups.
type call struct {
	row       int // index in IngestBatch.Rows
	source    string
	vendor    string
	at        time.Time
	failure   bool
	latencyMs float64
	consumer  string
}

// freshIndexes returns the indexes of the events to store: the first of
// each id that is not stored yet.
func freshIndexes(ctx context.Context, tx *Tx, table string, ids [][16]byte) ([]int, error) {
	seen := make(map[[16]byte]bool, len(ids))
	unique := make([][16]byte, 0, len(ids))
	first := make([]int, 0, len(ids))
	for i, id := range ids {
		if !seen[id] {
			seen[id] = true
			unique = append(unique, id)
			first = append(first, i)
		}
	}
	stored, err := storedEventIDs(ctx, tx, table, unique)
	if err != nil {
		return nil, err
	}
	out := first[:0]
	for _, i := range first {
		if !stored[ids[i]] {
			out = append(out, i)
		}
	}
	return out, nil
}

// storedEventIDs returns which of ids table already holds. A concurrent
// batch may store one of them before this transaction does; the unique
// index then fails the insert and Ingest retries.
func storedEventIDs(ctx context.Context, tx *Tx, table string, ids [][16]byte) (map[[16]byte]bool, error) {
	out := map[[16]byte]bool{}
	for chunk := range chunks(ids, eventChunk) {
		var (
			q    string
			args []any
		)
		if tx.dialect == Postgres {
			q = "SELECT event_id FROM " + table + " WHERE event_id = ANY($1)"
			args = []any{chunk}
		} else {
			var sb strings.Builder
			sb.WriteString("SELECT event_id FROM " + table + " WHERE event_id IN ")
			inList(&sb, tx.dialect, 0, len(chunk))
			q = sb.String()
			args = make([]any, len(chunk))
			for i, id := range chunk {
				args[i] = uuid.UUID(id).String()
			}
		}
		rows, err := tx.Query(ctx, q, args...)
		if err != nil {
			return nil, fmt.Errorf("store: stored event ids: %w", err)
		}
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				rows.Close()
				return nil, fmt.Errorf("store: stored event ids: %w", err)
			}
			if id, err := uuid.Parse(s); err == nil {
				out[id] = true
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

// insertLBEvents stores b's new lb events and returns the calls among them.
func insertLBEvents(ctx context.Context, tx *Tx, cp copier, full *sql.Stmt, b *IngestBatch, rowIDs []int64) (ingested, error) {
	ids := make([][16]byte, len(b.LB))
	for i := range b.LB {
		ids[i] = b.LB[i].EventID
	}
	idx, err := freshIndexes(ctx, tx, "lb_events", ids)
	if err != nil {
		return ingested{}, err
	}
	received := b.ReceivedAt.UTC().Truncate(time.Microsecond)
	err = insertRows(ctx, tx, cp, full, "lb_events", lbEventColumns, idx, func(i int) []any {
		e := &b.LB[i]
		r := &b.Rows[e.Row]
		return []any{e.EventID, e.GlobalTransactionID, b.InstanceID, b.TenantID, b.InstanceVendor, rowIDs[e.Row],
			r.ServiceURI, r.Environment, r.ServiceKey, r.OnboardedServiceID, e.Stage,
			e.OccurredAt.UTC().Truncate(time.Microsecond), received, e.FrontVirtualServer, e.BackVirtualServer,
			e.ClientIP, e.Method, e.Host, e.URI, e.Backend, int32(e.StatusCode), e.DurationMs, e.BytesIn, e.BytesOut,
			e.ResultCode, e.SoapFault, e.Failure, e.Headers, e.Payload, e.PayloadBytes}
	})
	if err != nil {
		return ingested{}, err
	}
	out := ingested{stored: len(idx)}
	for _, i := range idx {
		e := &b.LB[i]
		if e.Counted() {
			out.calls = append(out.calls, call{row: e.Row, source: SourceLB, vendor: b.InstanceVendor, at: e.OccurredAt,
				failure: e.Failure, latencyMs: e.DurationMs, consumer: e.ClientIP})
		}
	}
	return out, nil
}

// insertGenericLogs stores b's new generic logs; each is a call.
func insertGenericLogs(ctx context.Context, tx *Tx, cp copier, full *sql.Stmt, b *IngestBatch, rowIDs []int64) (ingested, error) {
	ids := make([][16]byte, len(b.Generic))
	for i := range b.Generic {
		ids[i] = b.Generic[i].EventID
	}
	idx, err := freshIndexes(ctx, tx, "generic_logs", ids)
	if err != nil {
		return ingested{}, err
	}
	received := b.ReceivedAt.UTC().Truncate(time.Microsecond)
	err = insertRows(ctx, tx, cp, full, "generic_logs", genericLogColumns, idx, func(i int) []any {
		g := &b.Generic[i]
		r := &b.Rows[g.Row]
		return []any{g.EventID, b.InstanceID, b.TenantID, g.Vendor, rowIDs[g.Row], r.ServiceURI, g.RawURI,
			r.Environment, r.ServiceKey, r.OnboardedServiceID, g.OccurredAt.UTC().Truncate(time.Microsecond), received,
			g.Method, int32(g.StatusCode), g.LatencyMs, g.ConsumerIP, g.Backend, g.ResultCode, g.SoapFault, g.Failure,
			g.RequestPayload, g.ResponsePayload, g.RequestPayloadBytes, g.ResponsePayloadBytes}
	})
	if err != nil {
		return ingested{}, err
	}
	out := ingested{stored: len(idx), calls: make([]call, 0, len(idx))}
	for _, i := range idx {
		g := &b.Generic[i]
		out.calls = append(out.calls, call{row: g.Row, source: SourceGeneric, vendor: g.Vendor, at: g.OccurredAt,
			failure: g.Failure, latencyMs: g.LatencyMs, consumer: g.ConsumerIP})
	}
	return out, nil
}
