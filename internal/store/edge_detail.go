package store

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/s2r-project/s2r/internal/model"
)

// maxTxEvents bounds the events read for one lb transaction (four stages;
// more only when a connector sent an event twice under different ids).
const maxTxEvents = 16

// LBTransaction returns the stored events of the lb transaction gtid of
// tenant (every tenant when ""), in stage order, with headers and
// payloads when payloads is true; none when there is no such transaction.
func (s *Store) LBTransaction(ctx context.Context, tenant, gtid string, payloads bool) ([]model.LBEventRecord, error) {
	hp := "'{}', ''"
	if payloads {
		hp = "headers, payload"
	}
	a := sqlArgs{}
	q := "SELECT CAST(event_id AS TEXT), stage, occurred_at, received_at, instance_id, vendor, row_id, service_uri, " +
		"front_virtual_server, back_virtual_server, client_ip, method, host, uri, backend, status_code, duration_ms, bytes_in, " +
		"bytes_out, result_code, soap_fault, " + hp + ", payload_bytes FROM lb_events WHERE global_transaction_id = " + a.add(gtid)
	if tenant != "" {
		q += " AND tenant_id = " + a.add(tenant)
	}
	q += " ORDER BY occurred_at LIMIT " + a.add(maxTxEvents)
	out, err := queryRows(ctx, s, "lb transaction", q, a.list, func(rows *sql.Rows) (model.LBEventRecord, bool, error) {
		var (
			e       model.LBEventRecord
			at, rec Time
		)
		err := rows.Scan(&e.EventID, &e.Stage, &at, &rec, &e.InstanceID, &e.Vendor, &e.RowID, &e.ServiceURI,
			&e.FrontVirtualServer, &e.BackVirtualServer, &e.ClientIP, &e.Method, &e.Host, &e.URI, &e.Backend, &e.StatusCode,
			&e.DurationMs, &e.BytesIn, &e.BytesOut, &e.ResultCode, &e.SoapFault, &e.Headers, &e.Payload, &e.PayloadBytes)
		e.OccurredAt, e.ReceivedAt = at.Time, rec.Time
		return e, true, err
	})
	slices.SortStableFunc(out, func(x, y model.LBEventRecord) int {
		return slices.Index(model.LBStages, x.Stage) - slices.Index(model.LBStages, y.Stage)
	})
	return out, err
}

// GenericLogByID returns the generic log id of tenant (every tenant when
// ""), with its payloads when payloads is true, and its discovery row's
// current match; ErrNotFound when there is none.
func (s *Store) GenericLogByID(ctx context.Context, tenant string, id int64, payloads bool) (model.GenericLogRecord, error) {
	pl := "'', ''"
	if payloads {
		pl = "g.request_payload, g.response_payload"
	}
	a := sqlArgs{}
	q := "SELECT CAST(g.id AS TEXT), g.vendor, g.instance_id, g.row_id, g.occurred_at, g.service_uri, g.raw_uri, g.method, " +
		"g.status_code, g.result_code, g.soap_fault, g.latency_ms, g.consumer_ip, g.backend, r.environment, r.service_key, " +
		"COALESCE(r.onboarded_service_id, ''), COALESCE(sv.direction, ''), CAST(g.event_id AS TEXT), g.received_at, " + pl +
		", g.request_payload_bytes, g.response_payload_bytes FROM generic_logs g JOIN discovery_rows r ON r.row_id = g.row_id " +
		"LEFT JOIN services sv ON sv.service_id = r.onboarded_service_id WHERE g.id = " + a.add(id)
	if tenant != "" {
		q += " AND g.tenant_id = " + a.add(tenant)
	}
	var (
		g       = model.GenericLogRecord{EdgeTx: model.EdgeTx{Source: model.SourceGeneric}}
		at, rec Time
	)
	err := s.reader().QueryRow(ctx, q, a.list...).Scan(&g.ID, &g.Vendor, &g.InstanceID, &g.RowID, &at, &g.ServiceURI, &g.URI,
		&g.Method, &g.StatusCode, &g.ResultCode, &g.SoapFault, &g.LatencyMs, &g.ConsumerIP, &g.Backend, &g.Environment,
		&g.ServiceKey, &g.ServiceID, &g.Direction, &g.EventID, &rec, &g.RequestPayload, &g.ResponsePayload,
		&g.RequestPayloadBytes, &g.ResponsePayloadBytes)
	if err != nil {
		return g, err
	}
	g.OccurredAt, g.StartedAt, g.ReceivedAt = at.Time, at.Time, rec.Time
	g.BytesIn, g.BytesOut = g.RequestPayloadBytes, g.ResponsePayloadBytes
	return g, nil
}

// RowServiceMatch returns the current service match of discovery row id,
// and
// the matched service's direction.
func (s *Store) RowServiceMatch(ctx context.Context, rowID int64) (m model.RowMatch, direction string, err error) {
	err = s.reader().QueryRow(ctx, "SELECT r.row_id, r.service_uri, COALESCE(r.onboarded_service_id, ''), r.environment, "+
		"r.service_key, COALESCE(sv.direction, '') FROM discovery_rows r LEFT JOIN services sv ON sv.service_id = r.onboarded_service_id "+
		"WHERE r.row_id = $1", rowID).Scan(&m.RowID, &m.ServiceURI, &m.OnboardedServiceID, &m.Environment, &m.ServiceKey, &direction)
	return m, direction, err
}

// vsLevelExcluded are the result codes that are not virtual-server-level
// connection failures: successes, timeouts (the service was slow) and the
// application results of SPEC 4.11 rule 4 a gateway may report.
var vsLevelExcluded = []string{"", "ok", "success", "timeout", "failed", "backend_failure", "error", "response_schema_violation"}

// VSLevelFailures counts, per front and back virtual server and result
// code, the lb transactions of tenant (every tenant when "") in [since,
// until] that ended in an edge connection failure: a client_response
// whose result code is the edge's own (reset, no_backend, tls_error, …;
// see vsLevelExcluded). Such a failure happened at the virtual server
// before any service could answer, so it is not attributed to a service.
func (s *Store) VSLevelFailures(ctx context.Context, tenant string, since, until time.Time) ([]model.VSFailure, error) {
	a := sqlArgs{}
	ph := make([]string, 0, len(vsLevelExcluded))
	for _, c := range vsLevelExcluded[2:] {
		ph = append(ph, a.add(c))
	}
	q := "SELECT front_virtual_server, back_virtual_server, result_code, COUNT(*), MAX(occurred_at) FROM lb_events " +
		"WHERE result_code NOT IN ('', 'ok') AND result_code NOT IN (" + strings.Join(ph, ", ") + ") AND occurred_at >= " +
		a.add(NewTime(since)) + " AND occurred_at <= " + a.add(NewTime(until)) + " AND stage = 'client_response'"
	if tenant != "" {
		q += " AND tenant_id = " + a.add(tenant)
	}
	q += " GROUP BY front_virtual_server, back_virtual_server, result_code"
	return queryRows(ctx, s, "virtual-server failures", q, a.list, func(rows *sql.Rows) (model.VSFailure, bool, error) {
		var (
			f    model.VSFailure
			last Time
		)
		err := rows.Scan(&f.FrontVirtualServer, &f.BackVirtualServer, &f.ResultCode, &f.Count, &last)
		f.LastSeen = last.Time
		return f, true, err
	})
}

// LBTransactionSummary merges the events of one lb transaction (from
// LBTransaction, in stage order) into its list item: anchored on its
// client_response (else its latest stage), with the request and answer
// merged from the other stages and the discovery row's current match.
func (s *Store) LBTransactionSummary(ctx context.Context, gtid string, events []model.LBEventRecord) (model.EdgeTx, error) {
	last := events[len(events)-1]
	t := model.EdgeTx{Source: model.SourceLB, ID: gtid, Vendor: last.Vendor, InstanceID: last.InstanceID, RowID: last.RowID,
		OccurredAt: last.OccurredAt, StartedAt: last.OccurredAt, ServiceURI: last.ServiceURI, URI: last.URI}
	for _, e := range events {
		if e.Stage == model.StageClientResponse {
			t.OccurredAt = e.OccurredAt
		}
	}
	ordered := slices.Clone(events)
	slices.SortStableFunc(ordered, func(x, y model.LBEventRecord) int { return mergeRank(x.Stage) - mergeRank(y.Stage) })
	for _, e := range ordered {
		mergeStage(&t, lbStageMeta{gtid: gtid, stage: e.Stage, at: e.OccurredAt, method: e.Method, uri: e.URI,
			status: e.StatusCode, result: e.ResultCode, fault: e.SoapFault, duration: e.DurationMs, bytesIn: e.BytesIn,
			bytesOut: e.BytesOut, backend: e.Backend, client: e.ClientIP, fv: e.FrontVirtualServer, bv: e.BackVirtualServer})
	}
	m, dir, err := s.RowServiceMatch(ctx, t.RowID)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return t, err
	}
	t.Environment, t.ServiceKey, t.ServiceID, t.Direction = m.Environment, m.ServiceKey, m.OnboardedServiceID, dir
	return t, nil
}
