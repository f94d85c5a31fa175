package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/s2r-project/s2r/internal/model"
)

// edgeErrorSQL is model.EdgeError over the columns of alias a (lb_events or
// generic_logs), 1 or 0.
func edgeErrorSQL(a string) string {
	return "CASE WHEN " + a + ".soap_fault OR " + a + ".status_code >= 400 OR " + a +
		".result_code NOT IN ('', 'ok', 'success') THEN 1 ELSE 0 END"
}

// edgeSource describes an edge table (lb_events aliased e, generic_logs
// aliased g) as a traffic source. Its records carry the current service
// match of their discovery row (DESIGN 9: environment, serviceKey and
// canonical service id of the onboarded service, else environment
// "discovered" and the serviceUri as key), the direction of that service,
// and the serviceUri as operation key; they are aggregated from the
// discovery_hourly rollups maintained at ingest.
func edgeSource(name, table, alias, where, latency string) trafficSource {
	row, svc := alias+"r", alias+"s"
	return trafficSource{
		name: name,
		table: table + " " + alias + " JOIN discovery_rows " + row + " ON " + row + ".row_id = " + alias + ".row_id" +
			" LEFT JOIN services " + svc + " ON " + svc + ".service_id = " + row + ".onboarded_service_id",
		where:      where,
		occurredAt: alias + ".occurred_at", tenant: alias + ".tenant_id",
		direction: "COALESCE(" + svc + ".direction, '')", environment: row + ".environment", serviceKey: row + ".service_key",
		operationKey: row + ".service_uri", serviceID: "COALESCE(" + row + ".onboarded_service_id, '')",
		latency: alias + "." + latency, converter: "CAST(NULL AS DOUBLE PRECISION)", isError: edgeErrorSQL(alias),
		changes: changeLog{table: "traffic_dirty_hours", id: "id", at: "hour", where: "source = '" + name + "'"},
		rollup:  name,
	}
}

// lbSource counts one call per lb transaction: its client_response event
// (the answer the client got; a reset or timeout is reported as one too),
// as discovery does, never the four stage events.
var lbSource = edgeSource(model.SourceLB, "lb_events", "e", "e.stage = 'client_response'", "duration_ms")

// genericSource counts every generic log as one call.
var genericSource = edgeSource(model.SourceGeneric, "generic_logs", "g", "", "latency_ms")

// computeRollupHour aggregates one hour of an edge source from its
// discovery_hourly rollups: one group per discovery row (tenant and
// serviceUri), reported with the row's current service match.
func (s *Store) computeRollupHour(ctx context.Context, src trafficSource, hour time.Time) ([]model.HourlyRow, error) {
	q := "SELECT r.tenant_id, COALESCE(sv.direction, ''), r.environment, r.service_key, r.service_uri, " +
		"COALESCE(r.onboarded_service_id, ''), SUM(h.calls), SUM(h.errors), SUM(h.latency_sum_ms), MAX(h.latency_max_ms) " +
		"FROM discovery_hourly h JOIN discovery_rows r ON r.row_id = h.row_id " +
		"LEFT JOIN services sv ON sv.service_id = r.onboarded_service_id WHERE h.source = $1 AND h.hour = $2 " +
		"GROUP BY r.row_id, r.tenant_id, sv.direction, r.environment, r.service_key, r.service_uri, r.onboarded_service_id"
	return queryRows(ctx, s, "aggregate "+src.name+" hour", q, []any{src.rollup, NewTime(hour)},
		func(rows *sql.Rows) (model.HourlyRow, bool, error) {
			r := model.HourlyRow{Source: src.name, Hour: hour.UTC()}
			err := rows.Scan(&r.TenantID, &r.Direction, &r.Environment, &r.ServiceKey, &r.OperationKey, &r.ServiceID,
				&r.Requests, &r.Errors, &r.LatencySumMs, &r.LatencyMaxMs)
			return r, true, err
		})
}

// rowMatchChanged is the condition, over discovery_rows r, services sv
// (the matched service) and traffic_row_matches m, that a row's match
// differs from the one the aggregates last saw.
const rowMatchChanged = "(m.service_id <> COALESCE(r.onboarded_service_id, '') OR m.direction <> COALESCE(sv.direction, '') " +
	"OR m.environment <> r.environment OR m.service_key <> r.service_key)"

// DirtyRematchedRows compares every discovery row's service match (and
// the matched service's direction) with the one the aggregates last saw
// (traffic_row_matches): the rollup hours since since of every row that
// changed are marked for re-aggregation, and the seen matches are brought
// up to date (new rows are recorded without marking: their ingest marked
// their hours). It returns the number of hours marked.
func (s *Store) DirtyRematchedRows(ctx context.Context, since time.Time) (int64, error) {
	var marked int64
	err := s.Transact(ctx, func(tx *Tx) error {
		res, err := tx.Exec(ctx, "INSERT INTO traffic_dirty_hours (source, hour) SELECT DISTINCT h.source, h.hour "+
			"FROM discovery_hourly h JOIN discovery_rows r ON r.row_id = h.row_id "+
			"JOIN traffic_row_matches m ON m.row_id = r.row_id LEFT JOIN services sv ON sv.service_id = r.onboarded_service_id "+
			"WHERE h.hour >= $1 AND "+rowMatchChanged+" ORDER BY h.hour, h.source", NewTime(since))
		if err != nil {
			return fmt.Errorf("store: mark re-matched hours: %w", err)
		}
		marked, _ = res.RowsAffected()
		_, err = tx.Exec(ctx, "INSERT INTO traffic_row_matches (row_id, service_id, direction, environment, service_key) "+
			"SELECT r.row_id, COALESCE(r.onboarded_service_id, ''), COALESCE(sv.direction, ''), r.environment, r.service_key "+
			"FROM discovery_rows r LEFT JOIN services sv ON sv.service_id = r.onboarded_service_id "+
			"LEFT JOIN traffic_row_matches m ON m.row_id = r.row_id WHERE m.row_id IS NULL OR "+rowMatchChanged+
			" ON CONFLICT (row_id) DO UPDATE SET service_id = excluded.service_id, direction = excluded.direction, "+
			"environment = excluded.environment, service_key = excluded.service_key")
		if err != nil {
			return fmt.Errorf("store: record row matches: %w", err)
		}
		return nil
	})
	return marked, err
}

// DeleteVanishedRowMatches forgets the seen matches of discovery rows
// that retention removed.
func (tx *Tx) DeleteVanishedRowMatches(ctx context.Context) error {
	_, err := tx.Exec(ctx, "DELETE FROM traffic_row_matches WHERE NOT EXISTS "+
		"(SELECT 1 FROM discovery_rows r WHERE r.row_id = traffic_row_matches.row_id)")
	if err != nil {
		return fmt.Errorf("store: delete vanished row matches: %w", err)
	}
	return nil
}

// PruneTrafficChanges deletes the change entries of source up to id upTo
// (the aggregation job has passed them). Runtime records are their own
// change log and are never deleted here.
func (s *Store) PruneTrafficChanges(ctx context.Context, source string, upTo int64) error {
	src, err := sourceByName(source)
	if err != nil || src.changes.table != "traffic_dirty_hours" {
		return err
	}
	return s.Transact(ctx, func(tx *Tx) error {
		_, err := tx.Exec(ctx, "DELETE FROM traffic_dirty_hours WHERE "+src.changes.where+" AND id <= $1", upTo)
		if err != nil {
			return fmt.Errorf("store: prune %s changes: %w", source, err)
		}
		return nil
	})
}
