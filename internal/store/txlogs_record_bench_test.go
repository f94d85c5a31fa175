package store

import (
	"context"
	"database/sql"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/tests/cputime"
)

// Issue 27: what the transaction record costs per row on SQLite, and what
// a cheaper record path would save. Package store (not store_test) so the
// write-path variants can reach the writer connection. One op is one row;
// rows are written in batches as the recorder writes them under load:
// full batches of observe.DefaultBatchSize (500 rows before issue 27,
// 2000 since; at 15k requests/s a 2000-row batch fills in about 133 ms,
// inside the 200 ms flush interval).
// Before the timer starts the table holds recordPrefill rows, so the
// B-trees are not trivially small.

const (
	recordBatch   = 500
	recordPrefill = 100_000
)

// recordVariant is one configuration of the record path.
type recordVariant struct {
	name   string
	setup  []string // SQL run on the writer after migrating, before the prefill
	batch  int      // rows per write (default recordBatch)
	routes int      // distinct routes of the records (default recordRoutes)
	// write stores one batch; nil is Store.CopyTxLogs.
	write func(ctx context.Context, s *Store, logs []model.TxLog) error
}

// recordRoutes is the default number of routes (50 services of 4
// operations); the wrk runs of the gateway benchmark use one.
const recordRoutes = 200

// txLogSecondaryIndexes are the secondary indexes of runtime_tx_logs
// (migrations 0007 and 0008; no later migration changes them).
var txLogSecondaryIndexes = []string{
	"runtime_tx_logs_occurred", "runtime_tx_logs_route",
	"runtime_tx_logs_correlation", "runtime_tx_logs_not_success",
}

func recordVariants() []recordVariant {
	// before is the path of main before issue 27 (plain INSERT, statement
	// journal): the baseline, and the write of the index and pragma
	// variants so they compare with it.
	before := func() func(context.Context, *Store, []model.TxLog) error { return preparedBatch(true, insertVerb) }
	// CopyTxLogs (INSERT OR ROLLBACK) against the baseline, with 500 and
	// 2000 rows per transaction (observe.DefaultBatchSize before and
	// after issue 27), on 200 routes and on the one route of the gateway
	// wrk benchmark.
	var dropAll []string
	for _, ix := range txLogSecondaryIndexes {
		dropAll = append(dropAll, "DROP INDEX "+ix)
	}
	var vs []recordVariant
	for _, routes := range []int{recordRoutes, 1} {
		prefix := ""
		if routes == 1 {
			prefix = "1-route/"
		}
		vs = append(vs,
			recordVariant{name: prefix + "insert-500", routes: routes, write: before()},
			recordVariant{name: prefix + "or-rollback-500", routes: routes},
			recordVariant{name: prefix + "insert-2000", routes: routes, batch: 2000, write: before()},
			recordVariant{name: prefix + "or-rollback-2000", routes: routes, batch: 2000},
		)
		if routes == 1 {
			vs = append(vs, recordVariant{name: prefix + "no-secondary-indexes", routes: 1, setup: dropAll, write: before()})
		}
	}
	// The sweep: each index dropped, all of them (the floor), pragmas and
	// other write paths, 200 routes.
	for i, ix := range txLogSecondaryIndexes {
		vs = append(vs, recordVariant{name: "drop-" + ix[len("runtime_tx_logs_"):], setup: dropAll[i : i+1], write: before()})
	}
	return append(vs,
		recordVariant{name: "no-secondary-indexes", setup: dropAll, write: before()},
		recordVariant{name: "or-rollback-no-secondary", setup: dropAll},
		recordVariant{name: "synchronous-off", setup: []string{"PRAGMA synchronous=OFF"}, write: before()},
		recordVariant{name: "temp-store-memory", setup: []string{"PRAGMA temp_store=MEMORY"}, write: before()},
		recordVariant{name: "row-statement", write: insertTxLogRows},
		recordVariant{name: "autocommit-500", write: preparedBatch(false, insertVerb)},
		recordVariant{name: "insert-1000", batch: 1000, write: before()},
		recordVariant{name: "insert-4000", batch: 4000, write: before()},
	)
}

// preparedBatch returns a write of logs in chunks of txLogBatch rows with
// the multi-row statement (its verb replaced by verb) prepared once on
// the writer, run in one transaction (inTx) or, for a single chunk, as an
// autocommit statement, which needs no statement journal.
func preparedBatch(inTx bool, verb string) func(ctx context.Context, s *Store, logs []model.TxLog) error {
	var (
		stmt *sql.Stmt
		on   *Store // the store stmt was prepared on (a new one per run)
	)
	return func(ctx context.Context, s *Store, logs []model.TxLog) error {
		if len(logs)%txLogBatch != 0 || (!inTx && len(logs) != txLogBatch) {
			return s.CopyTxLogs(ctx, logs)
		}
		if on != s {
			on = s
			var err error
			if stmt, err = s.write.PrepareContext(ctx, buildInsertTxLogSQL(SQLite, verb, txLogBatch)); err != nil {
				return err
			}
		}
		if !inTx {
			_, err := stmt.ExecContext(ctx, txLogArgs(logs)...)
			return err
		}
		return s.Transact(ctx, func(tx *Tx) error {
			ts := tx.querier.q.(*sql.Tx).StmtContext(ctx, stmt)
			for ; len(logs) > 0; logs = logs[txLogBatch:] {
				if _, err := ts.ExecContext(ctx, txLogArgs(logs[:txLogBatch])...); err != nil {
					return err
				}
			}
			return nil
		})
	}
}

// BenchmarkTxLogRecord reports ns/op and cpu-ns/op per stored row for each
// variant. The figures of docs/PERFORMANCE.md are medians of five rounds
// that alternate the variants (-count 5 would run each five times in a
// row, and the machine drifts more than the smaller differences):
//
//	go test -c -o /tmp/store.test ./internal/store
//	cd /tmp && for i in 1 2 3 4 5; do ./store.test -test.run '^$' -test.bench TxLogRecord -test.benchtime 60000x; done
//
// -benchtime should be a multiple of 4000 rows: a batch size that does not
// divide it ends with a partial batch, written by CopyTxLogs.
func BenchmarkTxLogRecord(b *testing.B) {
	for _, v := range recordVariants() {
		b.Run(v.name, func(b *testing.B) { benchRecordVariant(b, v) })
	}
}

func benchRecordVariant(b *testing.B, v recordVariant) {
	ctx := context.Background()
	s := openRecordStore(b)
	for _, q := range v.setup {
		if _, err := s.write.ExecContext(ctx, q); err != nil {
			b.Fatal(q, err)
		}
	}
	batch := v.batch
	if batch == 0 {
		batch = recordBatch
	}
	write := v.write
	if write == nil {
		write = func(ctx context.Context, s *Store, logs []model.TxLog) error { return s.CopyTxLogs(ctx, logs) }
	}
	routes := v.routes
	if routes == 0 {
		routes = recordRoutes
	}
	start := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	var prefill []model.TxLog
	if b.N > 1 { // not in the first, one-op run the framework makes
		prefill = recordRows(start, recordPrefill, routes)
	}
	for len(prefill) > 0 {
		n := min(len(prefill), recordBatch)
		if err := s.CopyTxLogs(ctx, prefill[:n]); err != nil {
			b.Fatal(err)
		}
		prefill = prefill[n:]
	}
	// Start every variant with an empty WAL, so each meets its checkpoints
	// at the same phase.
	if _, err := s.write.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		b.Fatal(err)
	}
	rows := recordRows(start.Add(recordPrefill*time.Millisecond), b.N, routes)
	b.ResetTimer()
	stop := cputime.Report(b)
	for len(rows) > 0 {
		n := min(len(rows), batch)
		if err := write(ctx, s, rows[:n]); err != nil {
			b.Fatal(err)
		}
		rows = rows[n:]
	}
	stop()
}

// openRecordStore opens a migrated SQLite store in a temp dir.
func openRecordStore(b *testing.B) *Store {
	ctx := context.Background()
	s, err := Open(ctx, Config{DataDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	if err := s.Migrate(ctx); err != nil {
		b.Fatal(err)
	}
	return s
}

// recordRows returns n records of a 1 KB gateway passthrough as the
// recorder stores them with debug off: a UUIDv7 correlation id, one
// record per millisecond, over routes routes (services of 4 operations),
// 2% not successes.
func recordRows(from time.Time, n, routes int) []model.TxLog {
	logs := make([]model.TxLog, n)
	for i := range logs {
		r := i % routes
		svc, op := r/4, r%4
		l := model.TxLog{
			CorrelationID: uuid.Must(uuid.NewV7()).String(),
			OccurredAt:    from.Add(time.Duration(i) * time.Millisecond),
			Direction:     model.DirectionGateway,
			Environment:   "prod",
			ServiceKey:    fmt.Sprintf("quote-service-%02d", svc),
			ServiceID:     fmt.Sprintf("0193a2b4-5c6d-7e8f-9a0b-%012d", svc),
			OperationKey:  fmt.Sprintf("getQuote%d", op),
			OperationID:   fmt.Sprintf("0193a2b4-5c6d-7e8f-9a0b-%012d", 1000+svc*4+op),
			Method:        "POST",
			Path:          fmt.Sprintf("/gateway/prod/quote-service-%02d/getQuote%d", svc, op),
			HTTPStatus:    200,
			ResultCode:    "success",
			TotalMs:       1.2 + float64(i%17)/10,
			BackendMs:     0.9 + float64(i%13)/10,
			ConverterMs:   0.05 + float64(i%7)/100,
			BackendTarget: fmt.Sprintf("http://10.0.3.%d:8080/services/Quote", svc),
			ClientIP:      "10.1.2.3",
			RequestBytes:  1024,
			ResponseBytes: 1024,
		}
		if i%50 == 7 {
			l.HTTPStatus, l.ResultCode, l.ErrorCode = 502, "backend_failure", "S2R-RUN-0502"
		}
		logs[i] = l
	}
	return logs
}

// insertTxLogRows writes logs with a one-row INSERT prepared once per
// transaction and executed per row (the alternative to the multi-row
// statement).
func insertTxLogRows(ctx context.Context, s *Store, logs []model.TxLog) error {
	return s.Transact(ctx, func(tx *Tx) error {
		stmt, err := tx.querier.q.(*sql.Tx).PrepareContext(ctx, buildInsertTxLogSQL(SQLite, insertVerb, 1))
		if err != nil {
			return err
		}
		defer stmt.Close()
		for i := range logs {
			if _, err := stmt.ExecContext(ctx, txLogArgs(logs[i:i+1])...); err != nil {
				return err
			}
		}
		return nil
	})
}
