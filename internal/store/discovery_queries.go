package store

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/s2r-project/s2r/internal/model"
)

// scope returns the condition selecting row's data of source in a table
// with source and vendor columns (rollups) or of one kind (events), and
// its arguments numbered after n. SPEC 4.9: an lb-observed row (with an
// lb instance) sees generic logs of every vendor; any other row sees
// generic logs of its own vendor only.
func scope(row model.DiscoveryRow, source string, n int) (string, []any) {
	generic := "source = 'generic'"
	var args []any
	if row.LBInstanceID == "" {
		generic = "(source = 'generic' AND vendor = $" + strconv.Itoa(n+1) + ")"
		args = append(args, row.Vendor)
	}
	switch source {
	case model.SourceLB:
		return "source = 'lb'", nil
	case model.SourceGeneric:
		return generic, args
	}
	return "(source = 'lb' OR " + generic + ")", args
}

// DiscoveryTimeline returns row's hourly rollups of source from the hour
// from on, oldest first; hours without calls are absent.
func (s *Store) DiscoveryTimeline(ctx context.Context, row model.DiscoveryRow, source string, from time.Time) ([]model.HourlyPoint, error) {
	cond, extra := scope(row, source, 2)
	q := "SELECT hour, SUM(calls), SUM(failures), SUM(latency_sum_ms), MAX(latency_max_ms) FROM discovery_hourly " +
		"WHERE row_id = $1 AND hour >= $2 AND " + cond + " GROUP BY hour ORDER BY hour"
	rows, err := s.reader().Query(ctx, q, append([]any{row.RowID, NewTime(from)}, extra...)...)
	if err != nil {
		return nil, fmt.Errorf("store: discovery timeline: %w", err)
	}
	defer rows.Close()
	var out []model.HourlyPoint
	for rows.Next() {
		var (
			p model.HourlyPoint
			h Time
		)
		if err := rows.Scan(&h, &p.Calls, &p.Failures, &p.LatencySumMs, &p.LatencyMaxMs); err != nil {
			return nil, fmt.Errorf("store: discovery timeline: %w", err)
		}
		p.Hour = h.Time
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: discovery timeline: %w", mapError(err))
	}
	return out, nil
}

// DiscoveryConsumers returns row's busiest consumers of source over the
// days from from's day on (at most limit, most calls first) and how many
// distinct consumers there are.
func (s *Store) DiscoveryConsumers(ctx context.Context, row model.DiscoveryRow, source string, from time.Time, limit int) ([]model.Consumer, int64, error) {
	cond, extra := scope(row, source, 2)
	where := " FROM discovery_consumers WHERE row_id = $1 AND day >= $2 AND " + cond
	args := append([]any{row.RowID, NewTime(from.UTC().Truncate(24 * time.Hour))}, extra...)
	var total int64
	if err := s.reader().QueryRow(ctx, "SELECT COUNT(DISTINCT consumer_ip)"+where, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("store: discovery consumer count: %w", err)
	}
	q := "SELECT consumer_ip, SUM(calls), SUM(failures), MAX(last_seen)" + where +
		" GROUP BY consumer_ip ORDER BY SUM(calls) DESC, consumer_ip LIMIT $" + strconv.Itoa(len(args)+1)
	rows, err := s.reader().Query(ctx, q, append(args, limit)...)
	if err != nil {
		return nil, 0, fmt.Errorf("store: discovery consumers: %w", err)
	}
	defer rows.Close()
	out := []model.Consumer{}
	for rows.Next() {
		var (
			c    model.Consumer
			last Time
		)
		if err := rows.Scan(&c.ConsumerIP, &c.Calls, &c.Failures, &last); err != nil {
			return nil, 0, fmt.Errorf("store: discovery consumers: %w", err)
		}
		c.LastSeen = last.Time
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("store: discovery consumers: %w", mapError(err))
	}
	return out, total, nil
}

// lbExchangeColumns are read from a client_response event.
const lbExchangeColumns = "event_id, global_transaction_id, instance_id, vendor, occurred_at, method, uri, status_code, " +
	"result_code, soap_fault, duration_ms, client_ip, backend, headers, payload"

// genericExchangeColumns are read from a generic log.
const genericExchangeColumns = "id, event_id, instance_id, vendor, occurred_at, method, raw_uri, status_code, result_code, " +
	"soap_fault, latency_ms, consumer_ip, backend, request_payload, response_payload"

// LBExchanges returns up to limit of row's lb transactions since from,
// newest first: failing ones when failures, else successful ones, each
// with the request of its client_request (or server_request) stage.
// Failures come from the partial index lb_events_failures; successes
// walk lb_events_row_time backwards.
func (s *Store) LBExchanges(ctx context.Context, rowID int64, from time.Time, failures bool, limit int) ([]model.Exchange, error) {
	rows, err := s.reader().Query(ctx, lbExchangesSQL(failures), rowID, NewTime(from), limit)
	if err != nil {
		return nil, fmt.Errorf("store: lb exchanges: %w", err)
	}
	defer rows.Close()
	var out []model.Exchange
	for rows.Next() {
		x := model.Exchange{Source: model.SourceLB}
		var at Time
		if err := rows.Scan(&x.EventID, &x.GlobalTransactionID, &x.InstanceID, &x.Vendor, &at, &x.Method, &x.URI,
			&x.StatusCode, &x.ResultCode, &x.SoapFault, &x.DurationMs, &x.ConsumerIP, &x.Backend,
			&x.ResponseHeaders, &x.ResponsePayload); err != nil {
			return nil, fmt.Errorf("store: lb exchanges: %w", err)
		}
		x.ID, x.OccurredAt = x.EventID, at.Time
		out = append(out, x)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: lb exchanges: %w", mapError(err))
	}
	rows.Close()
	return out, s.addLBRequests(ctx, out)
}

// lbExchangesSQL selects a row's newest successful or failing lb calls
// ($1 row, $2 from, $3 limit).
func lbExchangesSQL(failures bool) string {
	cond := "stage = 'client_response' AND NOT failure"
	if failures {
		cond = "failure"
	}
	return "SELECT " + lbExchangeColumns + " FROM lb_events WHERE row_id = $1 AND occurred_at >= $2 AND " + cond +
		" ORDER BY occurred_at DESC LIMIT $3"
}

// lbRequestsSQL selects the request stages of n transactions.
func lbRequestsSQL(n int) string {
	var sb strings.Builder
	sb.WriteString("SELECT global_transaction_id, stage, headers, payload FROM lb_events WHERE global_transaction_id IN ")
	inList(&sb, Postgres, 0, n)
	sb.WriteString(" AND stage IN ('client_request', 'server_request') ORDER BY stage DESC")
	return sb.String()
}

// addLBRequests fills each exchange's request from its transaction's
// client_request event, or server_request when there is none (one query
// through lb_events_gtid).
func (s *Store) addLBRequests(ctx context.Context, xs []model.Exchange) error {
	if len(xs) == 0 {
		return nil
	}
	byTx := map[string][]int{}
	args := make([]any, 0, len(xs))
	for i, x := range xs {
		if _, ok := byTx[x.GlobalTransactionID]; !ok {
			args = append(args, x.GlobalTransactionID)
		}
		byTx[x.GlobalTransactionID] = append(byTx[x.GlobalTransactionID], i)
	}
	rows, err := s.reader().Query(ctx, lbRequestsSQL(len(args)), args...)
	if err != nil {
		return fmt.Errorf("store: lb requests: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var gtid, stage, headers, payload string
		if err := rows.Scan(&gtid, &stage, &headers, &payload); err != nil {
			return fmt.Errorf("store: lb requests: %w", err)
		}
		// server_request sorts first (DESC), so client_request overwrites it.
		for _, i := range byTx[gtid] {
			xs[i].RequestHeaders, xs[i].RequestPayload = headers, payload
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: lb requests: %w", mapError(err))
	}
	return nil
}

// genericWhere is the FROM … ORDER BY of a row's generic logs since $2.
func genericWhere(failures bool) string {
	cond := "NOT failure"
	if failures {
		cond = "failure"
	}
	return " FROM generic_logs WHERE row_id = $1 AND occurred_at >= $2 AND " + cond + " ORDER BY occurred_at DESC"
}

// genericExchangesSQL selects a row's newest generic logs ($1 row, $2
// from, $3 limit); with vendor, among the newest $4 of any vendor, those
// of vendor $5.
func genericExchangesSQL(failures, vendor bool) string {
	if !vendor {
		return "SELECT " + genericExchangeColumns + genericWhere(failures) + " LIMIT $3"
	}
	return "SELECT " + genericExchangeColumns + " FROM (SELECT " + genericExchangeColumns + genericWhere(failures) +
		" LIMIT $4) g WHERE vendor = $5 ORDER BY occurred_at DESC LIMIT $3"
}

// genericScanSQL counts the candidates a vendor-scoped scan reads.
func genericScanSQL(failures bool) string {
	return "SELECT COUNT(*) FROM (SELECT 1" + genericWhere(failures) + " LIMIT $3) g"
}

// GenericExchanges returns up to limit of row's generic logs since from,
// newest first: failing ones when failures, else successful ones. With a
// vendor (a row without lb instance sees its own vendor's logs only) the
// newest scanLimit candidates of every vendor are read and filtered;
// exhausted reports that the scan reached that bound, so older logs of
// the vendor may exist beyond it.
func (s *Store) GenericExchanges(ctx context.Context, rowID int64, vendor string, from time.Time, failures bool, limit, scanLimit int) (out []model.Exchange, exhausted bool, err error) {
	args := []any{rowID, NewTime(from)}
	q := genericExchangesSQL(failures, vendor != "")
	if vendor != "" {
		args = append(args, limit, scanLimit, vendor)
		var n int
		if err := s.reader().QueryRow(ctx, genericScanSQL(failures), rowID, NewTime(from), scanLimit).Scan(&n); err != nil {
			return nil, false, fmt.Errorf("store: generic exchanges: %w", err)
		}
		exhausted = n >= scanLimit
	} else {
		args = append(args, limit)
	}
	rows, err := s.reader().Query(ctx, q, args...)
	if err != nil {
		return nil, false, fmt.Errorf("store: generic exchanges: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		x := model.Exchange{Source: model.SourceGeneric}
		var (
			at Time
			id int64
		)
		if err := rows.Scan(&id, &x.EventID, &x.InstanceID, &x.Vendor, &at, &x.Method, &x.URI, &x.StatusCode,
			&x.ResultCode, &x.SoapFault, &x.DurationMs, &x.ConsumerIP, &x.Backend, &x.RequestPayload, &x.ResponsePayload); err != nil {
			return nil, false, fmt.Errorf("store: generic exchanges: %w", err)
		}
		x.ID, x.OccurredAt = strconv.FormatInt(id, 10), at.Time
		out = append(out, x)
	}
	if err := rows.Err(); err != nil {
		return nil, false, fmt.Errorf("store: generic exchanges: %w", mapError(err))
	}
	return out, exhausted, nil
}
