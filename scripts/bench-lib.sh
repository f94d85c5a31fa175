# shellcheck shell=bash
# bench-lib.sh: what the wrk load scripts (bench-gateway.sh,
# bench-publish.sh) share. Sourced, not run. The caller sets root (the
# checkout), work (a scratch directory), ADMIN, S2R_PORT, BACKEND_PORT,
# NGINX_PORT (if it starts nginx), THREADS, CONNS, DUR and an array pids of
# processes to kill on exit, installs cleanup as its EXIT trap, and has
# built $work/s2r.
#
# The functions set globals for the caller (svc, ver, base, s2r_pid, rps,
# p50, p99, reqs, errs, NGINX), which shellcheck cannot see used here.
# shellcheck disable=SC2034,SC2154

# cleanup, the callers' EXIT trap, stops nginx (if start_nginx ran; it
# daemonizes, so it is not in pids) and the processes in pids, and removes
# the scratch directory.
cleanup() {
	if [ -f "$work/nginx.pid" ]; then kill "$(cat "$work/nginx.pid")" 2>/dev/null || true; fi
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$work"
}

# need_nginx sets NGINX to the nginx binary (Debian installs it in
# /usr/sbin, often not in a user's PATH) or exits saying how to get it,
# before anything is built.
need_nginx() {
	NGINX=$(command -v nginx || echo /usr/sbin/nginx)
	[ -x "$NGINX" ] || { echo "nginx is missing: apt-get install -y nginx" >&2; exit 1; }
}

# start_nginx starts nginx on 127.0.0.1:NGINX_PORT proxying every path to
# the benchsoap backend's /calc, the baseline the issues measure s2r
# against. The config is generated so it is fair to s2r: a keep-alive
# upstream pool, request and response bodies streamed as s2r streams them
# (so 100 KB answers are not spilled to temp files), one worker per core,
# no access log, and every temp path and the pid file inside $work.
start_nginx() {
	mkdir -p "$work/nginx"
	cat >"$work/nginx.conf" <<EOF
worker_processes $(nproc);
pid $work/nginx.pid;
error_log $work/nginx/error.log warn;
events { worker_connections 4096; }
http {
	access_log off;
	client_body_temp_path $work/nginx/body;
	proxy_temp_path $work/nginx/proxy;
	fastcgi_temp_path $work/nginx/fastcgi;
	uwsgi_temp_path $work/nginx/uwsgi;
	scgi_temp_path $work/nginx/scgi;
	client_max_body_size 10m;
	upstream soap { server 127.0.0.1:$BACKEND_PORT; keepalive 128; }
	server {
		listen 127.0.0.1:$NGINX_PORT;
		location / {
			proxy_pass http://soap/calc;
			proxy_http_version 1.1;
			proxy_set_header Connection "";
			proxy_set_header X-Forwarded-For \$remote_addr;
			proxy_request_buffering off;
			proxy_buffering off;
		}
	}
}
EOF
	"$NGINX" -c "$work/nginx.conf" -e "$work/nginx/error.log"
}

# nginx_workers prints the pids of nginx's workers: they serve the
# requests, the master only supervises, so their CPU is nginx's cost.
nginx_workers() { pgrep -P "$(cat "$work/nginx.pid")"; }

# start_s2r starts `s2r serve` on a fresh SQLite data dir in $work, adds it
# to pids, sets s2r_pid and base, and waits until it is ready.
start_s2r() {
	S2R_LISTEN_ADDR="127.0.0.1:$S2R_PORT" S2R_DATA_DIR="$work/data" S2R_BOOTSTRAP_ADMINS=$ADMIN S2R_LOG_LEVEL=warn \
		"$work/s2r" serve 2>"$work/s2r.log" &
	s2r_pid=$!
	pids+=("$s2r_pid")
	base="http://127.0.0.1:$S2R_PORT"
	for _ in $(seq 100); do
		curl -fs "$base/health/ready" >/dev/null 2>&1 && break
		sleep 0.1
	done
	curl -fs "$base/health/ready" >/dev/null || { echo "s2r did not start:" >&2; cat "$work/s2r.log" >&2; exit 1; }
}

admin() { # method path [json]
	curl -fsS -X "$1" -H "X-Idp-Authenticated-User-Email: $ADMIN" -H 'Content-Type: application/json' \
		${3:+--data-binary "$3"} "$base/admin/v1$2"
}

# autopilot KEY [DIRECTION] imports internal/dataplane/testdata/calc.wsdl
# as service KEY in dev, points its backend profile at the benchsoap
# backend on BACKEND_PORT, and sets svc and ver (not yet activated).
autopilot() {
	local imp prof
	imp=$(jq -n --rawfile xml "$root/internal/dataplane/testdata/calc.wsdl" --arg key "$1" --arg dir "${2:-publish}" \
		'{xml: $xml, environment: "dev", serviceKey: $key, direction: $dir}' | admin POST /wsdl/import-xml:autopilot @-)
	svc=$(jq -r .service.serviceId <<<"$imp")
	ver=$(jq -r .version.versionId <<<"$imp")
	prof=$(jq -r .backendProfile.profileId <<<"$imp")
	admin PATCH "/backend-profiles/$prof" "{\"endpointUrl\":\"http://127.0.0.1:$BACKEND_PORT/calc\"}" >/dev/null
}

# await_200 URL CONTENT-TYPE BODY-FILE: the route table is reloaded on an
# activation's revision bump, so poll until URL answers 200 to the body.
await_200() {
	local code
	for _ in $(seq 50); do
		code=$(curl -s -o /dev/null -w '%{http_code}' -H "Content-Type: $2" --data-binary @"$3" "$1")
		[ "$code" = 200 ] && return
		sleep 0.1
	done
	echo "$1 answers $code" >&2
	cat "$work/s2r.log" >&2
	exit 1
}

lua() { # body-file content-type [soapaction]
	echo 'wrk.method = "POST"'
	echo "local f = io.open(\"$1\", \"rb\"); wrk.body = f:read(\"*a\"); f:close()"
	echo "wrk.headers[\"Content-Type\"] = \"$2\""
	if [ -n "${3:-}" ]; then echo "wrk.headers[\"SOAPAction\"] = '\"$3\"'"; fi
}

# wrk_run NAME URL BODY-FILE CONTENT-TYPE [SOAPACTION] runs wrk with
# THREADS, CONNS and DUR, leaves its output in $work/NAME.out and req/s in
# $work/NAME.rps, and sets rps p50 p99 reqs errs.
wrk_run() {
	lua "$3" "$4" "${5:-}" >"$work/$1.lua"
	wrk -t"$THREADS" -c"$CONNS" -d"$DUR" --latency -s "$work/$1.lua" "$2" >"$work/$1.out"
	rps=$(awk '/^Requests\/sec/{print $2}' "$work/$1.out")
	p50=$(awk '$1=="50%"{print $2}' "$work/$1.out")
	p99=$(awk '$1=="99%"{print $2}' "$work/$1.out")
	reqs=$(awk '/requests in/{print $1}' "$work/$1.out")
	errs=$(awk '/Non-2xx|Socket errors/{printf "%s ", $0}' "$work/$1.out")
	echo "$rps" >"$work/$1.rps"
}

rss() { awk '/VmRSS/{print $2}' "/proc/$s2r_pid/status"; }

cputicks() { # pids...: utime+stime clock ticks
	local t=0 p
	for p in "$@"; do t=$((t + $(awk '{print $14 + $15}' "/proc/$p/stat"))); done
	echo "$t"
}

# run NAME URL BODY-FILE PIDS... runs wrk_run and adds a row to
# $work/table with req/s, latency and the CPU time (utime+stime) the server
# processes PIDS spent per request over the run: the figure least moved by
# other load on the machine. It also leaves that CPU figure in
# $work/NAME.cpu. Bodies are benchsoap's: a .json file is posted as a
# publish call, anything else as a SOAP 1.1 Echo call.
run() {
	local name=$1 url=$2 body=$3
	shift 3
	local before after cpu
	before=$(cputicks "$@")
	case $body in
	*.json) wrk_run "$name" "$url" "$body" application/json ;;
	*) wrk_run "$name" "$url" "$body" "text/xml; charset=utf-8" "http://example.com/calc/Echo" ;;
	esac
	after=$(cputicks "$@")
	cpu=$(awk -v t=$((after - before)) -v hz="$(getconf CLK_TCK)" -v n="$reqs" 'BEGIN{printf "%.1f", t / hz * 1e6 / n}')
	echo "$cpu" >"$work/$name.cpu"
	printf '| %-16s | %10s | %8s | %8s | %8s | %s\n' "$name" "$rps" "$p50" "$p99" "$cpu" "${errs:-}" >>"$work/table"
}

# print_table prints the wrk settings, the machine, the Go and nginx
# versions and the rows run added to $work/table.
print_table() {
	echo
	echo "wrk -t$THREADS -c$CONNS -d$DUR, $(nproc) cores, $(go version | cut -d' ' -f3), $("$NGINX" -v 2>&1 | cut -d' ' -f3)"
	echo
	echo "| run              |  req/s     | p50      | p99      | CPU µs/req | errors"
	echo "|------------------|------------|----------|----------|------------|-------"
	cat "$work/table"
}

# median [FORMAT] prints the median of the numbers on its input, one a
# line, with printf FORMAT (default %.2f, as the ratios are printed).
median() {
	sort -g | awk -v f="${1:-%.2f}" '{v[NR] = $1}
		END{printf f "\n", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}
