package store

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/s2r-project/s2r/internal/model"
)

// Async executions (table async_executions, migration 0009). Every change
// of state is a conditional UPDATE on the row's current status, so two
// writers racing on one execution (duplicate callbacks, concurrent polls
// with one token, an operator action during a callback) change it once:
// SQLite serializes the transactions, and PostgreSQL re-checks the WHERE
// clause of a row another transaction just updated.

// asyncSummaryColumns are the columns of a list item.
const asyncSummaryColumns = "correlation_id, status, direction, environment, service_key, service_id, operation_key, " +
	"operation_id, backend_target, created_at, updated_at, expires_at, finished_at, callback_at, error, callback IS NOT NULL"

// asyncColumns are the columns of one execution with its payloads.
const asyncColumns = asyncSummaryColumns + ", result, fault, callback"

// asyncKeyExpr is the route key of a row as one text, compared with
// asyncKeyText: a change by id must be found through the primary key, and
// with separate column equalities PostgreSQL, without statistics on a
// young table, chose the route index instead and scanned every execution
// of the operation on each update. An expression no index serves leaves
// only the primary key. Environment and service keys hold no spaces.
const asyncKeyExpr = "direction || ' ' || environment || ' ' || service_key || ' ' || operation_key"

func asyncKeyText(k model.AsyncKey) string {
	return k.Direction + " " + k.Environment + " " + k.ServiceKey + " " + k.OperationKey
}

// InsertAsyncExecution stores a new execution with the hash of its first
// poll token; ErrAlreadyExists when the correlation id is taken.
func (tx *Tx) InsertAsyncExecution(ctx context.Context, e model.AsyncExecution, tokenHash string) error {
	_, err := tx.Exec(ctx, `INSERT INTO async_executions (correlation_id, status, direction, environment, service_key,
		service_id, operation_key, operation_id, backend_target, poll_token_hash, created_at, updated_at, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
		e.CorrelationID, e.Status, e.Direction, e.Environment, e.ServiceKey, e.ServiceID, e.OperationKey, e.OperationID,
		e.BackendTarget, tokenHash, NewTime(e.CreatedAt), NewTime(e.UpdatedAt), NewTime(e.ExpiresAt))
	if err != nil {
		return fmt.Errorf("store: insert async execution: %w", err)
	}
	return nil
}

// AsyncExecution returns one execution with its payloads; ErrNotFound when
// there is none.
func (s *Store) AsyncExecution(ctx context.Context, id string) (model.AsyncExecution, error) {
	e, _, err := asyncExecution(ctx, s.reader(), id)
	return e, err
}

// AsyncExecution is Store.AsyncExecution inside the transaction.
func (tx *Tx) AsyncExecution(ctx context.Context, id string) (model.AsyncExecution, error) {
	e, _, err := asyncExecution(ctx, tx, id)
	return e, err
}

// AsyncPollState returns one execution with the hash of its current poll
// token, to tell why a poll was refused.
func (s *Store) AsyncPollState(ctx context.Context, id string) (model.AsyncExecution, string, error) {
	return asyncExecution(ctx, s.reader(), id)
}

func asyncExecution(ctx context.Context, q Querier, id string) (model.AsyncExecution, string, error) {
	var hash string
	row := q.QueryRow(ctx, "SELECT "+asyncColumns+", poll_token_hash FROM async_executions WHERE correlation_id = $1", id)
	e, err := scanAsync(row.Scan, true, &hash)
	if err != nil {
		return e, "", fmt.Errorf("store: async execution: %w", err)
	}
	return e, hash, nil
}

// RotatePollToken replaces the poll token hash of execution id of key when
// it is oldHash and the execution is neither expired nor overdue at now,
// and returns the execution; ErrNotFound when nothing matched (unknown id,
// wrong or used token, expired: AsyncPollState tells which).
func (tx *Tx) RotatePollToken(ctx context.Context, key model.AsyncKey, id, oldHash, newHash string, now time.Time) (model.AsyncExecution, error) {
	row := tx.QueryRow(ctx, `UPDATE async_executions SET poll_token_hash = $3
		WHERE correlation_id = $1 AND poll_token_hash = $2 AND status <> 'expired'
		AND NOT (status = 'waiting_callback' AND expires_at < $4) AND `+asyncKeyExpr+` = $5
		RETURNING `+asyncColumns, id, oldHash, newHash, NewTime(now), asyncKeyText(key))
	e, err := scanAsync(row.Scan, true)
	if err != nil {
		return e, fmt.Errorf("store: rotate poll token: %w", err)
	}
	return e, nil
}

// AsyncCondition is the state an execution must be in for a change.
type AsyncCondition struct {
	// From lists the allowed statuses.
	From []string
	// LiveAt, when set, also requires expires_at >= LiveAt (a callback
	// must not finish an overdue execution the sweeper has not reached).
	LiveAt time.Time
	// Key, when set, also requires the execution to belong to it.
	Key model.AsyncKey
}

func (c AsyncCondition) where(args []any) (string, []any) {
	ph := make([]string, len(c.From))
	for i, st := range c.From {
		args = append(args, st)
		ph[i] = "$" + strconv.Itoa(len(args))
	}
	cond := " AND status IN (" + strings.Join(ph, ", ") + ")"
	if c.Key != (model.AsyncKey{}) {
		args = append(args, asyncKeyText(c.Key))
		cond += " AND " + asyncKeyExpr + " = $" + strconv.Itoa(len(args))
	}
	if !c.LiveAt.IsZero() {
		args = append(args, NewTime(c.LiveAt))
		cond += " AND expires_at >= $" + strconv.Itoa(len(args))
	}
	return cond, args
}

// FinishAsyncExecution sets the outcome of execution id when its state
// meets cond, and reports whether it did. The outcome's Callback, when not
// nil, replaces the stored callback.
func (tx *Tx) FinishAsyncExecution(ctx context.Context, id string, cond AsyncCondition, out model.AsyncOutcome, now time.Time) (bool, error) {
	at := NewTime(now)
	args := []any{id, out.Status, at, jsonOrNull(out.Result), jsonOrNull(out.Fault), jsonOrNull(out.Error)}
	set := "status = $2, updated_at = $3, finished_at = $3, result = $4, fault = $5, error = $6"
	if out.Callback != nil {
		args = append(args, out.Callback)
		set += ", callback = $7, callback_at = $3"
	}
	where, args := cond.where(args)
	return tx.updateAsync(ctx, "finish", "UPDATE async_executions SET "+set+" WHERE correlation_id = $1"+where, args)
}

// ReopenAsyncExecution moves execution id back to waiting_callback with a
// new expiry, clearing its outcome (the stored callback stays), when its
// state meets cond; it reports whether it did.
func (tx *Tx) ReopenAsyncExecution(ctx context.Context, id string, cond AsyncCondition, expiresAt, now time.Time) (bool, error) {
	args := []any{id, model.AsyncWaiting, NewTime(now), NewTime(expiresAt)}
	where, args := cond.where(args)
	return tx.updateAsync(ctx, "reopen", `UPDATE async_executions SET status = $2, updated_at = $3, expires_at = $4,
		finished_at = NULL, result = NULL, fault = NULL, error = NULL WHERE correlation_id = $1`+where, args)
}

func (tx *Tx) updateAsync(ctx context.Context, what, query string, args []any) (bool, error) {
	res, err := tx.Exec(ctx, query, args...)
	if err != nil {
		return false, fmt.Errorf("store: %s async execution: %w", what, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("store: %s async execution: %w", what, err)
	}
	return n == 1, nil
}

// ExpireAsyncExecutions moves up to limit waiting executions whose expiry
// is before now to expired and returns how many it moved.
func (tx *Tx) ExpireAsyncExecutions(ctx context.Context, now time.Time, limit int) (int64, error) {
	at := NewTime(now)
	res, err := tx.Exec(ctx, `UPDATE async_executions SET status = 'expired', updated_at = $1, finished_at = $1
		WHERE correlation_id IN (SELECT correlation_id FROM async_executions
			WHERE status = 'waiting_callback' AND expires_at < $1 ORDER BY expires_at LIMIT $2)
		AND status = 'waiting_callback'`, at, limit)
	if err != nil {
		return 0, fmt.Errorf("store: expire async executions: %w", err)
	}
	return res.RowsAffected()
}

// DeleteAsyncExecutionsBefore removes up to limit executions that are no
// longer waiting and were created before t (retention; by creation time,
// which is indexed), and returns how many it removed.
func (tx *Tx) DeleteAsyncExecutionsBefore(ctx context.Context, t time.Time, limit int) (int64, error) {
	res, err := tx.Exec(ctx, `DELETE FROM async_executions WHERE correlation_id IN (SELECT correlation_id
		FROM async_executions WHERE created_at < $1 AND status <> 'waiting_callback' LIMIT $2)`, NewTime(t), limit)
	if err != nil {
		return 0, fmt.Errorf("store: delete async executions: %w", err)
	}
	return res.RowsAffected()
}

// AsyncExecutions returns one page of executions matching f, newest first,
// without payloads (Result, Fault and Callback are empty; Error is set).
func (s *Store) AsyncExecutions(ctx context.Context, f model.AsyncFilter, page model.PageRequest) (model.ObservabilityPageRecord[model.AsyncExecution], error) {
	where, args := asyncWhere(f)
	var total int64
	if err := s.reader().QueryRow(ctx, "SELECT COUNT(*) FROM async_executions"+where, args...).Scan(&total); err != nil {
		return model.ObservabilityPageRecord[model.AsyncExecution]{}, fmt.Errorf("store: count async executions: %w", err)
	}
	n := len(args)
	query := "SELECT " + asyncSummaryColumns + " FROM async_executions" + where +
		" ORDER BY created_at DESC, correlation_id DESC LIMIT $" + strconv.Itoa(n+1) + " OFFSET $" + strconv.Itoa(n+2)
	rows, err := s.reader().Query(ctx, query, append(args, page.PageSize, page.Offset())...)
	if err != nil {
		return model.ObservabilityPageRecord[model.AsyncExecution]{}, fmt.Errorf("store: list async executions: %w", err)
	}
	defer rows.Close()
	var items []model.AsyncExecution
	for rows.Next() {
		e, err := scanAsync(rows.Scan, false)
		if err != nil {
			return model.ObservabilityPageRecord[model.AsyncExecution]{}, fmt.Errorf("store: scan async execution: %w", err)
		}
		items = append(items, e)
	}
	if err := rows.Err(); err != nil {
		return model.ObservabilityPageRecord[model.AsyncExecution]{}, fmt.Errorf("store: list async executions: %w", mapError(err))
	}
	return model.NewPage(items, page, total), nil
}

func asyncWhere(f model.AsyncFilter) (string, []any) {
	var w whereClause
	w.equal([2]string{"environment", f.Environment}, [2]string{"service_key", f.ServiceKey},
		[2]string{"operation_key", f.OperationKey})
	w.in("status", f.Statuses)
	if !f.Since.IsZero() {
		w.add("created_at >= ?", NewTime(f.Since))
	}
	if !f.Until.IsZero() {
		w.add("created_at <= ?", NewTime(f.Until))
	}
	return w.clause()
}

// scanAsync scans the summary columns, then (payloads) result, fault and
// callback, then extra destinations.
func scanAsync(scan func(...any) error, payloads bool, extra ...any) (model.AsyncExecution, error) {
	var (
		e                         model.AsyncExecution
		created, updated, expires Time
		finished, callbackAt      Time
		errText, result, fault    *string
		callback                  []byte
		dest                      []any
	)
	dest = append(dest, &e.CorrelationID, &e.Status, &e.Direction, &e.Environment, &e.ServiceKey, &e.ServiceID,
		&e.OperationKey, &e.OperationID, &e.BackendTarget, &created, &updated, &expires, &finished, &callbackAt,
		&errText, &e.HasCallback)
	if payloads {
		dest = append(dest, &result, &fault, &callback)
	}
	if err := scan(append(dest, extra...)...); err != nil {
		return e, err
	}
	e.CreatedAt, e.UpdatedAt, e.ExpiresAt = created.Time, updated.Time, expires.Time
	e.FinishedAt, e.CallbackAt = timePtr(finished), timePtr(callbackAt)
	e.Error, e.Result, e.Fault = rawOrNil(errText), rawOrNil(result), rawOrNil(fault)
	e.Callback = callback
	e.SetPollPath()
	return e, nil
}

func timePtr(t Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	v := t.Time
	return &v
}
