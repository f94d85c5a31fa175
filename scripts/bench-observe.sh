#!/usr/bin/env bash
# bench-observe.sh — the observability figures of docs/PERFORMANCE.md
# ("Observability queries"). On a throwaway PostgreSQL (with-postgres.sh,
# default server settings but fsync off) it generates RECORDS runtime
# records over DAYS days on SERVICES services (scripts/trafficgen, seed 1,
# ending at END, default the current hour: the aggregates of hours more
# than 60 days old are removed by retention) plus BURST records in the one
# hour HOUR (default 40 days before END), aggregates them
# (timed), runs VACUUM ANALYZE, prints EXPLAIN of the main queries, and
# runs the Go benchmarks COUNT times each.
#
#   scripts/bench-observe.sh                       # 10M + 1M records, about 15 minutes
#   RECORDS=1000000 BURST=100000 scripts/bench-observe.sh   # a quick look
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ -z "${S2R_TEST_POSTGRES_URL:-}" ]]; then
	exec scripts/with-postgres.sh "$0" "$@"
fi
RECORDS=${RECORDS:-10000000}
DAYS=${DAYS:-60}
SERVICES=${SERVICES:-200}
BURST=${BURST:-1000000}
END=${END:-$(date -u +%Y-%m-%dT%H:00:00Z)}
HOUR=${HOUR:-$(date -u -d "$END - 40 days" +%Y-%m-%dT%H:00:00Z)}
COUNT=${COUNT:-5}
BENCHTIME=${BENCHTIME:-10x}
DB=$S2R_TEST_POSTGRES_URL

go build -o /tmp/s2r-trafficgen ./scripts/trafficgen
echo "== generating $RECORDS records over $DAYS days ending $END, and $BURST records in $HOUR"
/tmp/s2r-trafficgen -db "$DB" -records "$RECORDS" -days "$DAYS" -services "$SERVICES" -end "$END"
/tmp/s2r-trafficgen -db "$DB" -records "$BURST" -hour "$HOUR" -services "$SERVICES" -seed 2 -skip-services
psql -q "$DB" -c 'VACUUM ANALYZE'
echo "== first aggregation (every hour of the data)"
/tmp/s2r-trafficgen -db "$DB" -records 0 -skip-services -aggregate
psql -q "$DB" -c 'VACUUM ANALYZE traffic_hourly' -c 'VACUUM ANALYZE traffic_daily'
psql -q "$DB" -c "SELECT pg_size_pretty(pg_total_relation_size('runtime_tx_logs')) AS raw, pg_size_pretty(pg_total_relation_size('traffic_hourly')) AS hourly, (SELECT COUNT(*) FROM traffic_hourly) AS hourly_rows, (SELECT COUNT(*) FROM traffic_daily) AS daily_rows"

echo "== query plans"
explain() { echo "-- $1"; psql -q "$DB" -c "EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) $2" | grep -E 'Scan|Sort|Aggregate|WindowAgg|Execution Time|Rows Removed'; }
explain "60-day metrics (whole days from traffic_daily)" "SELECT u.source, u.direction, u.environment, u.service_key, SUM(u.requests), MAX(u.latency_max_ms) FROM traffic_daily u WHERE u.day >= timestamptz '$END' - interval '59 days' AND u.day <= timestamptz '$END' - interval '1 day' GROUP BY 1,2,3,4"
explain "60-day metrics (the partial days from traffic_hourly)" "SELECT u.source, u.direction, u.environment, u.service_key, SUM(u.requests), MAX(u.latency_max_ms) FROM traffic_hourly u WHERE u.hour >= timestamptz '$END' - interval '60 days' AND u.hour <= timestamptz '$END' AND (u.hour < date_trunc('day', timestamptz '$END' - interval '59 days') OR u.hour >= date_trunc('day', timestamptz '$END')) GROUP BY 1,2,3,4"
explain "1-hour raw window" "SELECT COUNT(*) FROM runtime_tx_logs WHERE occurred_at >= timestamptz '$END' - interval '1 hour' AND occurred_at <= timestamptz '$END'"
explain "24-hour search, rare service" "SELECT id FROM runtime_tx_logs WHERE occurred_at >= timestamptz '$END' - interval '24 hours' AND occurred_at <= timestamptz '$END' AND (LOWER(path) LIKE '%svc187%' OR LOWER(service_key) LIKE '%svc187%' OR LOWER(operation_key) LIKE '%svc187%') ORDER BY occurred_at DESC, id DESC LIMIT 201"
explain "aggregation of the busy hour" "SELECT direction, environment, service_key, operation_key, service_id, COUNT(*), SUM(total_ms), MAX(total_ms), MAX(converter_ms) FROM runtime_tx_logs WHERE occurred_at >= timestamptz '$HOUR' AND occurred_at < timestamptz '$HOUR' + interval '1 hour' GROUP BY 1,2,3,4,5"

echo "== benchmarks"
export S2R_OBSERVE_BENCH_URL=$DB S2R_OBSERVE_BENCH_END=$END S2R_OBSERVE_BENCH_HOUR=$HOUR
go test -timeout 2h -run '^$' -bench 'BenchmarkAggregateHour' -benchtime 3x -count "$COUNT" ./internal/observe/
go test -timeout 2h -run '^$' -bench 'Metrics(60d|60dOnboarded|1hRaw|1hRawOnboarded)$|Baseline|Dashboard|SLO|Timeline|Search' \
	-benchtime "$BENCHTIME" -count "$COUNT" ./internal/observe/query/
go test -timeout 2h -run '^$' -bench 'FromRaw' -benchtime 1x -count 1 ./internal/observe/query/
