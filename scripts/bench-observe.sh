#!/usr/bin/env bash
# bench-observe.sh — the observability figures of docs/PERFORMANCE.md
# ("Observability queries" and "Observability with the lb and generic
# sources"). On a throwaway PostgreSQL (with-postgres.sh, default server
# settings but fsync off) it generates RECORDS runtime records over DAYS
# days on SERVICES services (scripts/trafficgen, seed 1, ending at END,
# default the current hour: the aggregates of hours more than 60 days old
# are removed by retention) plus BURST records in the one hour HOUR
# (default 40 days before END); then LB_EVENTS lb events over the same
# days (s2r loadgen -bulk: F5-style four-stage transactions on SERVICES
# services, Zipf-skewed, 2 % errors, 256-byte payloads, straight into the
# database with their discovery rollups) plus LB_BURST events in HOUR;
# sets default_retention_days to DAYS+1 (the aggregation job does not
# re-aggregate edge hours older than the retention), aggregates everything
# (timed), runs VACUUM ANALYZE, prints EXPLAIN of the main queries, and
# runs the Go benchmarks COUNT times each.
#
#   scripts/bench-observe.sh                       # 10M + 1M records, 10M + 1M lb events, about an hour
#   RECORDS=1000000 BURST=100000 LB_EVENTS=1000000 LB_BURST=100000 scripts/bench-observe.sh   # a quick look
#   LB_EVENTS=0 LB_BURST=0 scripts/bench-observe.sh                # runtime records only
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ -z "${S2R_TEST_POSTGRES_URL:-}" ]]; then
	exec scripts/with-postgres.sh "$0" "$@"
fi
RECORDS=${RECORDS:-10000000}
DAYS=${DAYS:-60}
SERVICES=${SERVICES:-200}
BURST=${BURST:-1000000}
LB_EVENTS=${LB_EVENTS:-10000000}
LB_BURST=${LB_BURST:-1000000}
END=${END:-$(date -u +%Y-%m-%dT%H:00:00Z)}
HOUR=${HOUR:-$(date -u -d "$END - 40 days" +%Y-%m-%dT%H:00:00Z)}
COUNT=${COUNT:-5}
BENCHTIME=${BENCHTIME:-10x}
DB=$S2R_TEST_POSTGRES_URL

go build -o /tmp/s2r-trafficgen ./scripts/trafficgen
echo "== generating $RECORDS records over $DAYS days ending $END, and $BURST records in $HOUR"
/tmp/s2r-trafficgen -db "$DB" -records "$RECORDS" -days "$DAYS" -services "$SERVICES" -end "$END"
/tmp/s2r-trafficgen -db "$DB" -records "$BURST" -hour "$HOUR" -services "$SERVICES" -seed 2 -skip-services
if (( LB_EVENTS > 0 || LB_BURST > 0 )); then
	go build -o /tmp/s2r-bench ./cmd/s2r
	inst=00000000-0000-7000-8000-0000000000f5
	psql -q "$DB" -c "INSERT INTO settings (name, value, updated_at, updated_by) VALUES ('default_retention_days', '$((DAYS + 1))', now(), 'bench')
		ON CONFLICT (name) DO UPDATE SET value = excluded.value" \
		-c "INSERT INTO ingest_instances (instance_id, vendor, name, tenant_id, token_hash, created_at, created_by)
		VALUES ('$inst', 'f5', 'bench', 'default', 'bench', now(), 'bench') ON CONFLICT DO NOTHING"
	lbgen() { S2R_DATABASE_URL=$DB /tmp/s2r-bench loadgen -instance "$inst" -services "$SERVICES" -skew 1.1 -consumers 50 \
		-payload-bytes 256 -error-rate 0.02 "$@" | grep -E '[05]00000 events|rollups'; }
	echo "== generating $LB_EVENTS lb events over $DAYS days, and $LB_BURST in $HOUR"
	(( LB_EVENTS > 0 )) && lbgen -bulk "$LB_EVENTS" -days "$DAYS" -seed 1
	(( LB_BURST > 0 )) && lbgen -bulk "$LB_BURST" -hour "$HOUR" -seed 2
fi
psql -q "$DB" -c 'VACUUM ANALYZE'
echo "== first aggregation (every hour of the data)"
/tmp/s2r-trafficgen -db "$DB" -records 0 -skip-services -aggregate
psql -q "$DB" -c 'VACUUM ANALYZE traffic_hourly' -c 'VACUUM ANALYZE traffic_daily'
psql -q "$DB" -c "SELECT pg_size_pretty(pg_total_relation_size('runtime_tx_logs')) AS raw, pg_size_pretty(pg_total_relation_size('lb_events')) AS lb_raw, pg_size_pretty(pg_total_relation_size('traffic_hourly')) AS hourly, (SELECT COUNT(*) FROM traffic_hourly) AS hourly_rows, (SELECT COUNT(*) FROM traffic_daily) AS daily_rows, (SELECT COUNT(*) FROM lb_events) AS lb_events, (SELECT COUNT(*) FROM discovery_hourly) AS lb_rollup_rows"

echo "== query plans"
explain() { echo "-- $1"; psql -q "$DB" -c "EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) $2" | grep -E 'Scan|Sort|Aggregate|WindowAgg|Execution Time|Rows Removed'; }
explain "60-day metrics (whole days from traffic_daily)" "SELECT u.source, u.direction, u.environment, u.service_key, SUM(u.requests), MAX(u.latency_max_ms) FROM traffic_daily u WHERE u.day >= timestamptz '$END' - interval '59 days' AND u.day <= timestamptz '$END' - interval '1 day' GROUP BY 1,2,3,4"
explain "60-day metrics (the partial days from traffic_hourly)" "SELECT u.source, u.direction, u.environment, u.service_key, SUM(u.requests), MAX(u.latency_max_ms) FROM traffic_hourly u WHERE u.hour >= timestamptz '$END' - interval '60 days' AND u.hour <= timestamptz '$END' AND (u.hour < date_trunc('day', timestamptz '$END' - interval '59 days') OR u.hour >= date_trunc('day', timestamptz '$END')) GROUP BY 1,2,3,4"
explain "1-hour raw window" "SELECT COUNT(*) FROM runtime_tx_logs WHERE occurred_at >= timestamptz '$END' - interval '1 hour' AND occurred_at <= timestamptz '$END'"
explain "24-hour search, rare service" "SELECT id FROM runtime_tx_logs WHERE occurred_at >= timestamptz '$END' - interval '24 hours' AND occurred_at <= timestamptz '$END' AND (LOWER(path) LIKE '%svc187%' OR LOWER(service_key) LIKE '%svc187%' OR LOWER(operation_key) LIKE '%svc187%') ORDER BY occurred_at DESC, id DESC LIMIT 201"
explain "1-hour raw lb window (client_responses with their discovery rows)" "SELECT r.service_key, COUNT(*), SUM(e.duration_ms) FROM lb_events e JOIN discovery_rows r ON r.row_id = e.row_id WHERE e.occurred_at >= timestamptz '$END' - interval '1 hour' AND e.occurred_at <= timestamptz '$END' AND e.stage = 'client_response' GROUP BY 1"
explain "aggregation of an lb hour (from discovery_hourly)" "SELECT r.row_id, SUM(h.calls), SUM(h.errors), SUM(h.latency_sum_ms), MAX(h.latency_max_ms) FROM discovery_hourly h JOIN discovery_rows r ON r.row_id = h.row_id WHERE h.source = 'lb' AND h.hour = timestamptz '$HOUR' GROUP BY 1"
explain "traffic logs, 24 h count of lb transactions" "SELECT COUNT(*) FROM lb_events e WHERE e.occurred_at >= timestamptz '$END' - interval '24 hours' AND e.occurred_at <= timestamptz '$END' AND e.tenant_id = 'default' AND e.stage = 'client_response'"
explain "traffic logs, 24 h page 1 of lb transactions" "SELECT e.global_transaction_id FROM lb_events e WHERE e.occurred_at >= timestamptz '$END' - interval '24 hours' AND e.occurred_at <= timestamptz '$END' AND e.tenant_id = 'default' AND e.stage = 'client_response' ORDER BY e.occurred_at DESC LIMIT 50"
explain "traffic logs, stages of a page (50 transactions)" "SELECT stage FROM lb_events WHERE global_transaction_id IN (SELECT global_transaction_id FROM lb_events WHERE occurred_at <= timestamptz '$END' ORDER BY occurred_at DESC LIMIT 50)"
explain "virtual-server failures of 24 h (dashboard)" "SELECT front_virtual_server, result_code, COUNT(*) FROM lb_events WHERE result_code NOT IN ('', 'ok') AND result_code NOT IN ('success', 'timeout', 'failed', 'backend_failure', 'error', 'response_schema_violation') AND occurred_at >= timestamptz '$END' - interval '24 hours' AND occurred_at <= timestamptz '$END' AND stage = 'client_response' AND tenant_id = 'default' GROUP BY 1, 2"
explain "lb search, 24 h, payload substring nothing matches" "SELECT e.global_transaction_id FROM lb_events e WHERE e.occurred_at >= timestamptz '$END' - interval '24 hours' AND e.occurred_at <= timestamptz '$END' AND e.stage = 'client_response' AND EXISTS (SELECT 1 FROM lb_events p WHERE p.global_transaction_id = e.global_transaction_id AND p.tenant_id = e.tenant_id AND LOWER(p.payload) LIKE '%nothing-matches%' LIMIT 1 OFFSET 0) ORDER BY e.occurred_at DESC LIMIT 201"
explain "aggregation of the busy hour" "SELECT direction, environment, service_key, operation_key, service_id, COUNT(*), SUM(total_ms), MAX(total_ms), MAX(converter_ms) FROM runtime_tx_logs WHERE occurred_at >= timestamptz '$HOUR' AND occurred_at < timestamptz '$HOUR' + interval '1 hour' GROUP BY 1,2,3,4,5"

echo "== benchmarks"
export S2R_OBSERVE_BENCH_URL=$DB S2R_OBSERVE_BENCH_END=$END S2R_OBSERVE_BENCH_HOUR=$HOUR
go test -timeout 2h -run '^$' -bench 'BenchmarkAggregateHour' -benchtime 3x -count "$COUNT" ./internal/observe/
go test -timeout 2h -run '^$' -bench 'Metrics(60d|60dOnboarded|1hRaw|1hRawOnboarded|1hRawLB|60dLB)$|Baseline|Dashboard|SLO|Timeline|Search|TrafficLog|LBLogs' \
	-benchtime "$BENCHTIME" -count "$COUNT" ./internal/observe/query/
go test -timeout 2h -run '^$' -bench 'FromRaw' -benchtime 1x -count 1 ./internal/observe/query/
