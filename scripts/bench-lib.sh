# bench-lib.sh: what the wrk load scripts (bench-gateway.sh,
# bench-publish.sh) share. Sourced, not run. The caller sets root (the
# checkout), work (a scratch directory), ADMIN, S2R_PORT and an array pids
# of processes to kill on exit, and has built $work/s2r.

# start_s2r starts `s2r serve` on a fresh SQLite data dir in $work, adds it
# to pids, sets s2r_pid and base, and waits until it is ready.
start_s2r() {
	S2R_LISTEN_ADDR="127.0.0.1:$S2R_PORT" S2R_DATA_DIR="$work/data" S2R_BOOTSTRAP_ADMINS=$ADMIN S2R_LOG_LEVEL=warn \
		"$work/s2r" serve 2>"$work/s2r.log" &
	s2r_pid=$!
	pids+=($s2r_pid)
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
