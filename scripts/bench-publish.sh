#!/usr/bin/env bash
# bench-publish.sh: load benchmark of publish (JSON -> SOAP -> JSON) through
# s2r against a direct SOAP call to the same loopback backend, in the same
# run, at 1 KB and 20 KB (issue 5), and against nginx passing the 1 KB SOAP
# call through to that backend (issue 27: publish at 1 KB should reach at
# least 0.6x nginx's passthrough throughput). Needs wrk, nginx (Debian
# package: apt-get install -y nginx wrk), curl, jq and Go.
#
#   scripts/bench-publish.sh                 # 10 s per run, 16 connections, 3 rounds
#   DUR=30s CONNS=32 ROUNDS=5 scripts/bench-publish.sh
#   SOAK=5m scripts/bench-publish.sh         # also: 1 KB publish for 5 min, RSS sampled
#
# It builds s2r and scripts/benchsoap, starts the backend, s2r (fresh
# SQLite data dir) and nginx (scripts/bench-lib.sh's config, the one
# bench-gateway.sh measures) on 127.0.0.1, autopilot-imports
# internal/dataplane/testdata/calc.wsdl twice (bench1k, bench20k), points
# them at the backend, activates them, runs wrk (direct 1 KB, publish 1 KB,
# then ROUNDS alternating rounds of nginx 1 KB and publish 1 KB, then
# direct 20 KB, publish 20 KB) and prints req/s, latency percentiles and
# the CPU time per request of the server under test (the backend for
# direct, the nginx workers, or s2r) per run, the publish/nginx throughput
# ratio of each round and their median, then reads the converter overhead
# p50/p99 of each service from the transaction records
# (GET /admin/v1/runtime-logs/latency). The nginx and publish rounds send
# the same 1 KB payload: nginx gets benchsoap's 1 KB SOAP envelope (the
# request bench-gateway.sh sends), publish the JSON body it wraps.
set -euo pipefail

DUR=${DUR:-10s}
CONNS=${CONNS:-16}
THREADS=${THREADS:-2}
ROUNDS=${ROUNDS:-3}
SOAK=${SOAK:-}
S2R_PORT=${S2R_PORT:-18080}
BACKEND_PORT=${BACKEND_PORT:-18081}
NGINX_PORT=${NGINX_PORT:-18082}
ADMIN=bench@example.com

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source-path=SCRIPTDIR source=bench-lib.sh
. "$root/scripts/bench-lib.sh"
work=$(mktemp -d /tmp/bench-publish.XXXXXX)
pids=()
trap cleanup EXIT

command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }
need_nginx

echo "building s2r and benchsoap..." >&2
(cd "$root" && go build -o "$work/s2r" ./cmd/s2r && go build -o "$work/benchsoap" ./scripts/benchsoap)

"$work/benchsoap" -addr "127.0.0.1:$BACKEND_PORT" &
pids+=($!)
start_nginx
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
soap() { curl -fsS -H 'Content-Type: text/xml; charset=utf-8' -H 'SOAPAction: "http://example.com/calc/Echo"' --data-binary @"$work/req-1024.xml" "$1" | sha256sum; }
[ "$(soap "http://127.0.0.1:$NGINX_PORT/")" = "$(soap "http://127.0.0.1:$BACKEND_PORT/calc")" ] ||
	{ echo "nginx answers differently from the backend" >&2; exit 1; }

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg) | s2r RSS $(rss) KB" >&2
: >"$work/table"
: >"$work/ratios"
for size in 1024 20480; do
	k=$((size / 1024))
	run "direct-${k}k" "http://127.0.0.1:$BACKEND_PORT/calc" "$work/req-$size.xml" "${pids[0]}"
	run "publish-${k}k" "$base/publish/dev/bench${k}k/echo" "$work/req-$size.json" "$s2r_pid"
	[ $k = 1 ] || continue
	for r in $(seq "$ROUNDS"); do
		# shellcheck disable=SC2046 # one argument per worker
		run "nginx-1k-r$r" "http://127.0.0.1:$NGINX_PORT/" "$work/req-1024.xml" $(nginx_workers)
		run "publish-1k-r$r" "$base/publish/dev/bench1k/echo" "$work/req-1024.json" "$s2r_pid"
		awk -v p="$(cat "$work/publish-1k-r$r.rps")" -v n="$(cat "$work/nginx-1k-r$r.rps")" 'BEGIN{printf "%.2f\n", p/n}' \
			>>"$work/ratios"
	done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg) | s2r RSS $(rss) KB" >&2

sleep 2 # let the recorder flush its last batch
print_table
echo
awk '{printf "1 KB round %d: publish/nginx = %s\n", NR, $1}' "$work/ratios"
cpus() { # median CPU µs/req of the 1 KB rounds of NAME
	local i
	for i in $(seq "$ROUNDS"); do cat "$work/$1-1k-r$i.cpu"; done | median %.1f
}
echo "1 KB publish/nginx median of $ROUNDS rounds = $(median <"$work/ratios") (goal: at least 0.6);" \
	"CPU µs/req medians: publish $(cpus publish), nginx $(cpus nginx)"
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
