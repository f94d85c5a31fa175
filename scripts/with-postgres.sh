#!/usr/bin/env bash
# with-postgres.sh CMD... — run CMD with a throwaway PostgreSQL server.
#
# Finds the PostgreSQL server binaries (installing the Debian/Ubuntu package
# with apt-get when none are found), creates a cluster in a temporary
# directory (as the unprivileged user s2rtest when run as root, because
# initdb refuses root), starts it on a free loopback port with fsync off,
# exports S2R_TEST_POSTGRES_URL, runs CMD and always stops and removes the
# cluster. The exit status is CMD's.
set -euo pipefail

if [[ $# -eq 0 ]]; then
	echo "usage: $0 CMD [ARGS...]" >&2
	exit 2
fi

find_bindir() {
	local d
	for d in /usr/lib/postgresql/*/bin /usr/local/pgsql/bin /usr/local/bin /usr/bin; do
		if [[ -x "$d/initdb" && -x "$d/pg_ctl" && -x "$d/postgres" ]]; then
			echo "$d"
			return 0
		fi
	done
	return 1
}

bindir=$(find_bindir || true)
if [[ -z "$bindir" ]]; then
	if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null; then
		echo "with-postgres: PostgreSQL server binaries not found and cannot install them (need root and apt-get)" >&2
		exit 1
	fi
	echo "with-postgres: installing PostgreSQL with apt-get" >&2
	apt-get update -qq >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
	bindir=$(find_bindir || true)
	if [[ -z "$bindir" ]]; then
		echo "with-postgres: PostgreSQL still not found after apt-get install" >&2
		exit 1
	fi
fi

# run_pg runs a PostgreSQL tool as the unprivileged user when we are root.
pguser=""
if [[ $(id -u) -eq 0 ]]; then
	pguser=s2rtest
	if ! id "$pguser" >/dev/null 2>&1; then
		useradd --system --no-create-home --shell /usr/sbin/nologin "$pguser"
	fi
fi
run_pg() {
	if [[ -n "$pguser" ]]; then
		runuser -u "$pguser" -- "$@"
	else
		"$@"
	fi
}

free_port() {
	local p
	for _ in $(seq 1 50); do
		p=$((20000 + RANDOM % 30000))
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
			echo "$p"
			return 0
		fi
	done
	return 1
}

tmp=$(mktemp -d /tmp/s2r-pg.XXXXXX)
chmod 755 "$tmp"
datadir="$tmp/data"
sockdir="$tmp/sock"
mkdir -p "$datadir" "$sockdir"
if [[ -n "$pguser" ]]; then
	chown -R "$pguser" "$tmp"
fi

cleanup() {
	run_pg "$bindir/pg_ctl" -D "$datadir" -m immediate -w stop >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

run_pg "$bindir/initdb" -D "$datadir" -U postgres --auth=trust --encoding=UTF8 --locale=C >"$tmp/initdb.log" 2>&1 || {
	cat "$tmp/initdb.log" >&2
	exit 1
}

# The port is free when chosen but could be taken before the server binds
# it: try a few ports.
started=""
for _ in 1 2 3; do
	port=$(free_port)
	opts="-c listen_addresses=127.0.0.1 -p $port -k $sockdir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300"
	if run_pg "$bindir/pg_ctl" -D "$datadir" -l "$tmp/server.log" -o "$opts" -w -t 60 start >/dev/null; then
		started=1
		break
	fi
done
if [[ -z "$started" ]]; then
	cat "$tmp/server.log" >&2
	exit 1
fi

export S2R_TEST_POSTGRES_URL="postgres://postgres@127.0.0.1:$port/postgres?sslmode=disable"
echo "with-postgres: PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') on 127.0.0.1:$port" >&2

set +e
"$@"
rc=$?
set -e
exit $rc
