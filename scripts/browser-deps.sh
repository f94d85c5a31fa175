#!/usr/bin/env bash
# browser-deps.sh — installs Debian's chromium for the console's browser
# tests (internal/tests/browser), as with-postgres.sh installs PostgreSQL:
# with apt-get when running as root. Idempotent and quiet. Without root or
# apt-get it says so and leaves the tests to skip (or fail under CI).
set -euo pipefail

for name in chromium chromium-browser google-chrome google-chrome-stable; do
	command -v "$name" >/dev/null 2>&1 && exit 0
done
if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null 2>&1; then
	echo "browser-deps.sh: chromium not found and cannot install it (needs apt-get as root): the console browser tests will skip" >&2
	exit 0
fi
echo "browser-deps.sh: installing chromium with apt-get" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -qq chromium >/dev/null 2>&1 ||
	{ apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq chromium >/dev/null; } ||
	echo "browser-deps.sh: apt-get install chromium failed: the console browser tests will skip" >&2
