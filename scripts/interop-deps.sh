#!/usr/bin/env bash
# interop-deps.sh — installs the third-party SOAP stacks of the interop tests
# (internal/tests/interop): the npm soap package pinned in
# test/interop/node/package-lock.json, and Debian's python3-zeep. Idempotent
# and quiet: it does nothing when both are present. Without node/npm or
# apt-get it says so and leaves the tests to skip (or fail under CI).
set -euo pipefail
cd "$(dirname "$0")/.."

# apt_install PKG... installs Debian packages when running as root.
apt_install() {
	command -v apt-get >/dev/null 2>&1 && [[ $(id -u) -eq 0 ]] || return 1
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y -qq "$@" >/dev/null 2>&1 ||
		{ apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq "$@" >/dev/null; }
}

node_dir=test/interop/node
if [[ ! -f $node_dir/node_modules/soap/package.json ]]; then
	command -v npm >/dev/null 2>&1 || apt_install nodejs npm || true
	if command -v npm >/dev/null 2>&1; then
		(cd "$node_dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
	else
		echo "interop-deps.sh: npm not found: the npm soap interop tests will skip" >&2
	fi
fi

if ! /usr/bin/python3 -c 'import zeep' >/dev/null 2>&1; then
	if ! apt_install python3-zeep; then
		echo "interop-deps.sh: cannot install python3-zeep (needs apt-get as root): the zeep interop tests will skip" >&2
	fi
fi
