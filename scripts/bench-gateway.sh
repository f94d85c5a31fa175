#!/usr/bin/env bash
# bench-gateway.sh: load benchmark of the gateway passthrough (issue 6)
# against nginx proxying to the same loopback SOAP backend, in the same run,
# with the same wrk concurrency, at 1 KB and 100 KB request bodies (the
# backend echoes them, so answers are about as large). Needs wrk, nginx
# (Debian package: apt-get install -y nginx wrk), curl, jq and Go.
#
#   scripts/bench-gateway.sh                  # 10 s per run, 16 connections
#   DUR=30s CONNS=64 ROUNDS=3 scripts/bench-gateway.sh
#
# It builds s2r and scripts/benchsoap, starts the backend, s2r (fresh SQLite
# data dir) and nginx (generated config: keep-alive upstream, request and
# response bodies streamed like the gateway does, so 100 KB answers are not
# spilled to temp files, one worker per core) on 127.0.0.1, imports
# internal/dataplane/testdata/calc.wsdl as a gateway service granting
# 127.0.0.0/8, then runs wrk against the backend directly, nginx and the
# gateway, alternating nginx and s2r for ROUNDS rounds, and prints req/s,
# latency percentiles and the proxy's CPU time per request (utime+stime of
# the s2r process or of the nginx workers over the run, divided by the
# requests served: the figure least moved by other load on the machine)
# per run, and the gateway/nginx throughput ratio of each round. The nginx
# config, the CPU measurement and the table are scripts/bench-lib.sh's,
# shared with bench-publish.sh.
#
# BARE=1 adds two floors to each round: scripts/barerp, a bare
# httputil.ReverseProxy with net/http's Transport (bare-std) and with s2r's
# upstream client (bare-direct), to the same backend. FLOOR=1 adds
# scripts/floorproxy (floor): the least a goroutine-per-connection Go proxy
# does, framing only. The last lines give, per size, the medians over the
# rounds of the gateway/nginx throughput ratio, of the CPU µs/request ratio
# and of the p99 ratio (issue 27's goals: at least 1.0, at most 1.3 and at
# most 1.5 at 1 KB).
set -euo pipefail

DUR=${DUR:-10s}
CONNS=${CONNS:-16}
THREADS=${THREADS:-2}
ROUNDS=${ROUNDS:-3}
S2R_PORT=${S2R_PORT:-18180}
BACKEND_PORT=${BACKEND_PORT:-18181}
NGINX_PORT=${NGINX_PORT:-18182}
BARE=${BARE:-}
FLOOR=${FLOOR:-}
ADMIN=bench@example.com

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source-path=SCRIPTDIR source=bench-lib.sh
. "$root/scripts/bench-lib.sh"
work=$(mktemp -d /tmp/bench-gateway.XXXXXX)
pids=()
trap cleanup EXIT

command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }
need_nginx

echo "building s2r and benchsoap..." >&2
(cd "$root" && go build -o "$work/s2r" ./cmd/s2r && go build -o "$work/benchsoap" ./scripts/benchsoap &&
	go build -o "$work/barerp" ./scripts/barerp && go build -o "$work/floorproxy" ./scripts/floorproxy)

"$work/benchsoap" -addr "127.0.0.1:$BACKEND_PORT" &
pids+=($!)

start_nginx
if [ -n "$BARE" ]; then
	"$work/barerp" -addr "127.0.0.1:$((NGINX_PORT + 1))" -backend "http://127.0.0.1:$BACKEND_PORT/calc" &
	bare_std=$!
	"$work/barerp" -addr "127.0.0.1:$((NGINX_PORT + 2))" -backend "http://127.0.0.1:$BACKEND_PORT/calc" -direct &
	bare_direct=$!
	pids+=("$bare_std" "$bare_direct")
fi

if [ -n "$FLOOR" ]; then
	"$work/floorproxy" -addr "127.0.0.1:$((NGINX_PORT + 3))" -backend "127.0.0.1:$BACKEND_PORT" -path /calc &
	floor=$!
	pids+=("$floor")
fi

start_s2r
autopilot gw gateway
admin PUT "/services/$svc/consumer-grants" '{"cidrs":["127.0.0.0/8"]}' >/dev/null
admin POST "/services/$svc/versions/$ver:activate" >/dev/null

for size in 1024 102400; do
	"$work/benchsoap" -soap $size >"$work/req-$size.xml"
done
gw="$base/gateway/dev/gw"
await_200 "$gw" "text/xml; charset=utf-8" "$work/req-1024.xml"
for url in "$gw" "http://127.0.0.1:$NGINX_PORT/"; do
	a=$(curl -fsS -H 'Content-Type: text/xml; charset=utf-8' --data-binary @"$work/req-102400.xml" "$url" | sha256sum)
	b=$(curl -fsS -H 'Content-Type: text/xml; charset=utf-8' --data-binary @"$work/req-102400.xml" \
		"http://127.0.0.1:$BACKEND_PORT/calc" | sha256sum)
	[ "$a" = "$b" ] || { echo "$url answers differently from the backend" >&2; exit 1; }
done

# ms FILE: wrk's 99th percentile latency in FILE, in milliseconds.
ms() {
	awk '$1=="99%"{v=$2; u=v; sub(/[0-9.]+/, "", u); sub(/[a-z]+$/, "", v);
		printf "%f\n", u=="us" ? v/1000 : (u=="s" ? v*1000 : v)}' "$1"
}

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg) | s2r RSS $(rss) KB" >&2
: >"$work/table"
: >"$work/ratios"
for size in 1024 102400; do
	k=$((size / 1024))
	run "direct-${k}k" "http://127.0.0.1:$BACKEND_PORT/calc" "$work/req-$size.xml" "${pids[0]}"
	for r in $(seq "$ROUNDS"); do
		# shellcheck disable=SC2046 # one argument per worker
		run "nginx-${k}k-r$r" "http://127.0.0.1:$NGINX_PORT/" "$work/req-$size.xml" $(nginx_workers)
		run "gateway-${k}k-r$r" "$gw" "$work/req-$size.xml" "$s2r_pid"
		if [ -n "$BARE" ]; then
			run "bare-std-${k}k-r$r" "http://127.0.0.1:$((NGINX_PORT + 1))/" "$work/req-$size.xml" "$bare_std"
			run "bare-direct-${k}k-r$r" "http://127.0.0.1:$((NGINX_PORT + 2))/" "$work/req-$size.xml" "$bare_direct"
		fi
		if [ -n "$FLOOR" ]; then
			run "floor-${k}k-r$r" "http://127.0.0.1:$((NGINX_PORT + 3))/" "$work/req-$size.xml" "$floor"
		fi
		awk -v g="$(cat "$work/gateway-${k}k-r$r.rps")" -v n="$(cat "$work/nginx-${k}k-r$r.rps")" -v k=$k -v r="$r" \
			'BEGIN{printf "%d KB round %d: gateway/nginx = %.2f\n", k, r, g/n}' >>"$work/ratios"
		echo "$(cat "$work/gateway-${k}k-r$r.rps") $(cat "$work/nginx-${k}k-r$r.rps")" | awk '{print $1 / $2}' >>"$work/tput-$k"
		echo "$(cat "$work/gateway-${k}k-r$r.cpu") $(cat "$work/nginx-${k}k-r$r.cpu")" | awk '{print $1 / $2}' >>"$work/cpu-$k"
		echo "$(ms "$work/gateway-${k}k-r$r.out") $(ms "$work/nginx-${k}k-r$r.out")" | awk '{print $1 / $2}' >>"$work/p99-$k"
	done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg) | s2r RSS $(rss) KB" >&2

print_table
echo
cat "$work/ratios"
for k in 1 100; do
	echo "$k KB medians of $ROUNDS rounds, gateway/nginx: throughput $(median %.2f <"$work/tput-$k")," \
		"CPU µs/req $(median %.2f <"$work/cpu-$k"), p99 $(median %.2f <"$work/p99-$k")"
done
