#!/usr/bin/env bash
# bench-publish.sh: load benchmark of publish (JSON -> SOAP -> JSON) through
# s2r against a direct SOAP call to the same loopback backend, in the same
# run, at 1 KB and 20 KB (issue 5). Needs wrk, curl, jq and Go.
#
#   scripts/bench-publish.sh                 # 10 s per run, 16 connections
#   DUR=30s CONNS=32 scripts/bench-publish.sh
#   SOAK=5m scripts/bench-publish.sh         # also: 1 KB publish for 5 min, RSS sampled
#
# It builds s2r and scripts/benchsoap, starts both on 127.0.0.1 with a fresh
# SQLite data dir, autopilot-imports internal/dataplane/testdata/calc.wsdl
# twice (bench1k, bench20k), points them at the backend, activates them,
# runs wrk (direct 1 KB, publish 1 KB, direct 20 KB, publish 20 KB), then
# reads the converter overhead p50/p99 of each service from the
# transaction records (GET /admin/v1/runtime-logs/latency).
set -euo pipefail

DUR=${DUR:-10s}
CONNS=${CONNS:-16}
THREADS=${THREADS:-2}
SOAK=${SOAK:-}
S2R_PORT=${S2R_PORT:-18080}
BACKEND_PORT=${BACKEND_PORT:-18081}
ADMIN=bench@example.com

root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/bench-publish.XXXXXX)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT

command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }

echo "building s2r and benchsoap..." >&2
(cd "$root" && go build -o "$work/s2r" ./cmd/s2r && go build -o "$work/benchsoap" ./scripts/benchsoap)

"$work/benchsoap" -addr "127.0.0.1:$BACKEND_PORT" &
pids+=($!)
. "$root/scripts/bench-lib.sh"
start_s2r

for key in bench1k bench20k; do
	autopilot $key
	admin POST "/services/$svc/versions/$ver:activate" >/dev/null
done

for size in 1024 20480; do
	"$work/benchsoap" -json $size >"$work/req-$size.json"
	"$work/benchsoap" -soap $size >"$work/req-$size.xml"
done
await_200 "$base/publish/dev/bench1k/echo" application/json "$work/req-1024.json"

run() { # name url body-file content-type [soapaction]
	wrk_run "$@"
	printf '| %-12s | %10s | %8s | %8s | %s\n' "$1" "$rps" "$p50" "$p99" "${errs:-}" >>"$work/table"
}

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg) | s2r RSS $(rss) KB" >&2
: >"$work/table"
for size in 1024 20480; do
	k=$((size / 1024))
	run "direct-${k}k" "http://127.0.0.1:$BACKEND_PORT/calc" "$work/req-$size.xml" "text/xml; charset=utf-8" "http://example.com/calc/Echo"
	run "publish-${k}k" "$base/publish/dev/bench${k}k/echo" "$work/req-$size.json" "application/json"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg) | s2r RSS $(rss) KB" >&2

sleep 2 # let the recorder flush its last batch
echo
echo "wrk -t$THREADS -c$CONNS -d$DUR, $(nproc) cores, $(go version | cut -d' ' -f3)"
echo
echo "| run          |  req/s     | p50      | p99      | errors"
echo "|--------------|------------|----------|----------|-------"
cat "$work/table"
echo
for k in 1 20; do
	ratio=$(awk -v p="$(cat "$work/publish-${k}k.rps")" -v d="$(cat "$work/direct-${k}k.rps")" 'BEGIN{printf "%.2f", p/d}')
	lat=$(admin GET "/runtime-logs/latency?serviceKey=bench${k}k&window=1h")
	echo "${k} KB: publish/direct throughput ratio $ratio; records: $lat"
done

if [ -n "$SOAK" ]; then
	echo
	echo "soak: publish 1 KB for $SOAK, RSS sampled every 30 s (KB):"
	lua "$work/req-1024.json" "application/json" >"$work/soak.lua"
	wrk -t"$THREADS" -c"$CONNS" -d"$SOAK" -s "$work/soak.lua" "$base/publish/dev/bench1k/echo" >"$work/soak.out" &
	wrk_pid=$!
	while kill -0 $wrk_pid 2>/dev/null; do printf '%s ' "$(rss)"; sleep 30; done
	echo
	awk '/^Requests\/sec/' "$work/soak.out"
fi
