#!/usr/bin/env bash
# bench-drilldown.sh [EVENTS] — drill-down latency over EVENTS stored lb
# events (default 10,000,000) on a throwaway PostgreSQL: loads them with
# discovery's bulk loader (COPY; ~200 services, Zipf-skewed, 30 days),
# ANALYZEs, then times 2,000 drill-downs through the admin API and prints
# p50/p95/p99 (docs/PERFORMANCE.md, "Ingest and discovery"). Needs about
# 8 GB of disk under /tmp for 10M events and takes a while to load.
set -euo pipefail
cd "$(dirname "$0")/.."
events=${1:-10000000}
exec scripts/with-postgres.sh env S2R_BENCH_DRILLDOWN_EVENTS="$events" S2R_BENCH_DRILLDOWN_DB=postgres \
	go test ./internal/discovery -run '^$' -bench 'BenchmarkDrillDown' -benchtime 2000x -timeout 3h -v
