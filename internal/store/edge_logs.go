package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/s2r-project/s2r/internal/model"
)

// edgeSelect is one source of an edge list: its table, alias and list
// columns.
type edgeSelect struct {
	source, table, alias string
	cols                 []string
}

// edgeListNames name the columns of an edge list row, in queryEdgeTxs
// order.
var edgeListNames = []string{"source", "id", "vendor", "instance_id", "row_id", "occurred_at", "service_uri", "uri", "method",
	"status_code", "result_code", "soap_fault", "latency_ms", "consumer_ip", "backend", "front_vs", "back_vs", "bytes_in", "bytes_out"}

// edgeSelects are the edge sources with their list columns.
var edgeSelects = []edgeSelect{
	{model.SourceLB, "lb_events", "e", []string{"'lb'", "CAST(e.global_transaction_id AS TEXT)", "e.vendor", "e.instance_id", "e.row_id",
		"e.occurred_at", "e.service_uri", "e.uri", "e.method", "e.status_code", "e.result_code", "e.soap_fault", "e.duration_ms",
		"e.client_ip", "e.backend", "e.front_virtual_server", "e.back_virtual_server", "e.bytes_in", "e.bytes_out"}},
	{model.SourceGeneric, "generic_logs", "g", []string{"'generic'", "CAST(g.id AS TEXT)", "g.vendor", "g.instance_id", "g.row_id",
		"g.occurred_at", "g.service_uri", "g.raw_uri", "g.method", "g.status_code", "g.result_code", "g.soap_fault", "g.latency_ms",
		"g.consumer_ip", "g.backend", "''", "''", "g.request_payload_bytes", "g.response_payload_bytes"}},
}

// listColumns is the SELECT list of src's list rows, named.
func (src edgeSelect) listColumns() string {
	out := make([]string, len(src.cols))
	for i, c := range src.cols {
		out[i] = c + " AS " + edgeListNames[i]
	}
	return strings.Join(out, ", ")
}

// edgePart returns "SELECT cols FROM table WHERE …" of src under f; ok
// is false when f leaves src out (a source not asked for, or filters its
// rows cannot match).
func edgePart(f model.EdgeFilter, a *sqlArgs, src edgeSelect, cols string) (string, bool) {
	if len(f.Sources) > 0 && !slices.Contains(f.Sources, src.source) {
		return "", false
	}
	conds, ok := edgeConds(f, a, src)
	if !ok {
		return "", false
	}
	return "SELECT " + cols + " FROM " + src.table + " " + src.alias + " WHERE " + strings.Join(conds, " AND "), true
}

// stageCond is the condition selecting the lb events of stage (default
// client_response), written as a literal: the partial index
// lb_events_calls (stage = 'client_response') applies only when the
// query repeats its condition (SQLite does not match a parameter).
func stageCond(x, stage string) string {
	if !slices.Contains(model.LBStages, stage) {
		stage = model.StageClientResponse
	}
	return x + "stage = '" + stage + "'"
}

// edgeConds returns the conditions of f on one source; ok is false when
// no row of the source can match.
func edgeConds(f model.EdgeFilter, a *sqlArgs, src edgeSelect) (conds []string, ok bool) {
	x := src.alias + "."
	lb := src.source == model.SourceLB
	if !lb && (len(f.ResultCodes) > 0 || f.FrontVS != "" || f.BackVS != "") {
		return nil, false
	}
	conds = append(conds, x+"occurred_at >= "+a.add(NewTime(f.Since)), x+"occurred_at <= "+a.add(NewTime(f.Until)))
	if f.TenantID != "" {
		conds = append(conds, x+"tenant_id = "+a.add(f.TenantID))
	}
	if lb {
		conds = append(conds, stageCond(x, f.Stage))
	}
	if len(f.Vendors) > 0 {
		conds = append(conds, a.in(x+"vendor", f.Vendors))
	}
	if f.InstanceID != "" {
		conds = append(conds, x+"instance_id = "+a.add(f.InstanceID))
	}
	if len(f.ResultCodes) > 0 {
		conds = append(conds, a.in(x+"result_code", f.ResultCodes))
		if !slices.Contains(f.ResultCodes, "") && !slices.Contains(f.ResultCodes, "ok") {
			// Repeated literally so the partial index lb_events_result applies.
			conds = append(conds, x+"result_code NOT IN ('', 'ok')")
		}
	}
	uri, customer := "raw_uri", "consumer_ip"
	if lb {
		uri, customer = "uri", "client_ip"
	}
	if f.ServiceURI != "" {
		p := a.add(containsPattern(f.ServiceURI))
		conds = append(conds, "(LOWER("+x+"service_uri) LIKE "+p+" ESCAPE '\\' OR LOWER("+x+uri+") LIKE "+p+" ESCAPE '\\')")
	}
	if f.Customer != "" {
		conds = append(conds, "LOWER("+x+customer+") LIKE "+a.add(containsPattern(f.Customer))+" ESCAPE '\\'")
	}
	if f.FrontVS != "" {
		conds = append(conds, "LOWER("+x+"front_virtual_server) LIKE "+a.add(containsPattern(f.FrontVS))+" ESCAPE '\\'")
	}
	if f.BackVS != "" {
		conds = append(conds, "LOWER("+x+"back_virtual_server) LIKE "+a.add(containsPattern(f.BackVS))+" ESCAPE '\\'")
	}
	return conds, true
}

// EdgeLogs returns one page of the edge transactions f selects, newest
// first, with the total count. Each source's rows are read newest first
// through its time index, at most up to the page's end; the page's rows
// then get their discovery row's service match and, for lb, their other
// stages merged.
func (s *Store) EdgeLogs(ctx context.Context, f model.EdgeFilter, p model.PageRequest) (model.ObservabilityPageRecord[model.EdgeTx], error) {
	var (
		a     sqlArgs
		total int64
		parts []string
	)
	end := a.add(p.Offset() + p.PageSize)
	for i, src := range edgeSelects {
		var c sqlArgs
		part, ok := edgePart(f, &c, src, "COUNT(*)")
		if !ok {
			continue
		}
		var n int64
		if err := s.reader().QueryRow(ctx, part, c.list...).Scan(&n); err != nil {
			return model.ObservabilityPageRecord[model.EdgeTx]{}, fmt.Errorf("store: count edge logs: %w", err)
		}
		total += n
		part, _ = edgePart(f, &a, src, src.listColumns())
		parts = append(parts, "SELECT * FROM ("+part+" ORDER BY "+src.alias+".occurred_at DESC LIMIT "+end+") p"+strconv.Itoa(i))
	}
	if total == 0 {
		return model.NewPage[model.EdgeTx](nil, p, total), nil
	}
	items, err := s.edgeRows(ctx, parts, &a, f.TenantID, p.PageSize, p.Offset())
	if err != nil {
		return model.ObservabilityPageRecord[model.EdgeTx]{}, err
	}
	return model.NewPage(items, p, total), nil
}

// edgeRows runs the union of parts (each ordered newest first and
// limited), keeps limit rows after offset, adds their discovery row's
// service match and merges the stages of lb transactions.
func (s *Store) edgeRows(ctx context.Context, parts []string, a *sqlArgs, tenant string, limit, offset int) ([]model.EdgeTx, error) {
	if len(parts) == 0 {
		return nil, nil
	}
	q := "SELECT u.*, r.environment, r.service_key, COALESCE(r.onboarded_service_id, ''), COALESCE(sv.direction, '') FROM (" +
		"SELECT * FROM (" + strings.Join(parts, " UNION ALL ") + ") x ORDER BY occurred_at DESC, source, id DESC LIMIT " +
		a.add(limit) + " OFFSET " + a.add(offset) + ") u JOIN discovery_rows r ON r.row_id = u.row_id " +
		"LEFT JOIN services sv ON sv.service_id = r.onboarded_service_id ORDER BY u.occurred_at DESC, u.source, u.id DESC"
	items, err := s.queryEdgeTxs(ctx, q, a.list)
	if err != nil {
		return nil, err
	}
	return items, s.mergeLBStages(ctx, tenant, items)
}

// queryEdgeTxs scans edge list rows followed by the match columns
// (environment, service key, service id, direction).
func (s *Store) queryEdgeTxs(ctx context.Context, q string, args []any) ([]model.EdgeTx, error) {
	return queryRows(ctx, s, "edge logs", q, args, func(rows *sql.Rows) (model.EdgeTx, bool, error) {
		var (
			t  model.EdgeTx
			at Time
		)
		err := rows.Scan(&t.Source, &t.ID, &t.Vendor, &t.InstanceID, &t.RowID, &at, &t.ServiceURI, &t.URI, &t.Method,
			&t.StatusCode, &t.ResultCode, &t.SoapFault, &t.LatencyMs, &t.ConsumerIP, &t.Backend, &t.FrontVS, &t.BackVS,
			&t.BytesIn, &t.BytesOut, &t.Environment, &t.ServiceKey, &t.ServiceID, &t.Direction)
		t.OccurredAt, t.StartedAt = at.Time, at.Time
		return t, true, err
	})
}

// lbStageMeta is one stage event's list fields.
type lbStageMeta struct {
	gtid, stage             string
	at                      time.Time
	method, uri             string
	status                  int
	result                  string
	fault                   bool
	duration                float64
	bytesIn, bytesOut       int64
	backend, client, fv, bv string
}

// mergeLBStages completes the lb items of a page with their other stage
// events (one query through lb_events_gtid): the stages present, the
// earliest time, the request from the request stages and the answer from
// the response stages (client-facing ones first).
func (s *Store) mergeLBStages(ctx context.Context, tenant string, items []model.EdgeTx) error {
	byTx := map[string][]int{}
	var a sqlArgs
	var ph []string
	for i, t := range items {
		if t.Source != model.SourceLB {
			continue
		}
		if _, ok := byTx[t.ID]; !ok {
			ph = append(ph, a.add(t.ID))
		}
		byTx[t.ID] = append(byTx[t.ID], i)
	}
	if len(ph) == 0 {
		return nil
	}
	q := "SELECT CAST(global_transaction_id AS TEXT), stage, occurred_at, method, uri, status_code, result_code, soap_fault, " +
		"duration_ms, bytes_in, bytes_out, backend, client_ip, front_virtual_server, back_virtual_server FROM lb_events " +
		"WHERE global_transaction_id IN (" + strings.Join(ph, ",") + ")"
	if tenant != "" {
		q += " AND tenant_id = " + a.add(tenant)
	}
	stages, err := queryRows(ctx, s, "lb stages", q, a.list, func(rows *sql.Rows) (lbStageMeta, bool, error) {
		var (
			m  lbStageMeta
			at Time
		)
		err := rows.Scan(&m.gtid, &m.stage, &at, &m.method, &m.uri, &m.status, &m.result, &m.fault, &m.duration,
			&m.bytesIn, &m.bytesOut, &m.backend, &m.client, &m.fv, &m.bv)
		m.at = at.Time
		return m, true, err
	})
	if err != nil {
		return err
	}
	// Later stages overwrite earlier ones: requests in client order after
	// server order, answers likewise.
	slices.SortStableFunc(stages, func(x, y lbStageMeta) int { return mergeRank(x.stage) - mergeRank(y.stage) })
	for _, m := range stages {
		for _, i := range byTx[m.gtid] {
			mergeStage(&items[i], m)
		}
	}
	return nil
}

// mergeRank orders stages for merging: server_request before
// client_request (the client's request wins), server_response before
// client_response (the client's answer wins).
func mergeRank(stage string) int {
	switch stage {
	case model.StageServerRequest:
		return 0
	case model.StageClientRequest:
		return 1
	case model.StageServerResponse:
		return 2
	}
	return 3
}

// mergeStage folds one stage event into a transaction item.
func mergeStage(t *model.EdgeTx, m lbStageMeta) {
	if !slices.Contains(t.Stages, m.stage) {
		t.Stages = append(t.Stages, m.stage)
		slices.SortFunc(t.Stages, func(x, y string) int { return slices.Index(model.LBStages, x) - slices.Index(model.LBStages, y) })
	}
	if m.at.Before(t.StartedAt) {
		t.StartedAt = m.at
	}
	set := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	set(&t.Backend, m.backend)
	set(&t.ConsumerIP, m.client)
	set(&t.FrontVS, m.fv)
	set(&t.BackVS, m.bv)
	switch m.stage {
	case model.StageClientRequest, model.StageServerRequest:
		set(&t.Method, m.method)
		set(&t.URI, m.uri)
		t.BytesIn = max(t.BytesIn, m.bytesIn)
	default:
		t.StatusCode, t.ResultCode, t.SoapFault, t.LatencyMs = m.status, m.result, m.fault, m.duration
		t.BytesOut = max(t.BytesOut, m.bytesOut)
	}
}
