#!/usr/bin/env bash
# test.sh [GO TEST FLAGS...] — the full test suite against real SQLite and a
# throwaway PostgreSQL server, then the number of PostgreSQL tests that ran.
#
# Every PostgreSQL test (internal/store/storetest) appends one line to the
# file named by S2R_PG_TEST_LOG; this script counts them. PostgreSQL is
# required here (S2R_REQUIRE_POSTGRES=1): a PostgreSQL half that cannot run
# fails instead of skipping.
set -euo pipefail
cd "$(dirname "$0")/.."

log=$(mktemp /tmp/s2r-pgtests.XXXXXX)
trap 'rm -f "$log"' EXIT
chmod 666 "$log"
export S2R_PG_TEST_LOG="$log"
export S2R_REQUIRE_POSTGRES=1

cat >&2 <<'EOF'
make test: the full suite, on SQLite and a throwaway PostgreSQL.
  What it installs when missing (as root, with apt-get and npm; nothing is
  installed twice): the PostgreSQL server, chromium (console browser tests),
  the third-party SOAP stacks of the interop tests (npm soap, python3-zeep,
  php-cli and php-soap, Perl SOAP::Lite, xmlsec1, python3-xmlsec, Apache
  WSS4J with Java), and an unprivileged user s2rtest that runs PostgreSQL
  (initdb refuses root).
  How long: the first run spends a few minutes installing; the tests took
  about 4 minutes on a 2-core machine (250 s, 2026-11-28, a 60 s PostgreSQL
  outage test included), several times that while other builds share the
  cores.
  In a hurry? make test-short needs Go alone, installs nothing and takes a
  few minutes.
EOF

scripts/interop-deps.sh # npm soap and python3-zeep for internal/tests/interop
scripts/browser-deps.sh # chromium for the console's browser tests (internal/tests/browser)

rc=0
scripts/with-postgres.sh go test -count=1 "$@" ./... || rc=$?

total=$(grep -c . "$log" || true)
failed=$(grep -c '^FAIL' "$log" || true)
echo "PostgreSQL tests run: $total (failed: $failed)"
if [[ $rc -eq 0 && $total -eq 0 ]]; then
	echo "test.sh: no PostgreSQL test ran" >&2
	rc=1
fi
exit $rc
