#!/usr/bin/env bash
# fuzz.sh [FUZZTIME] — run every fuzz target in the module for FUZZTIME
# (default 10s) each, one at a time (go test -fuzz takes one target).
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${1:-10s}

grep -rl --include='*_test.go' -E '^func Fuzz[A-Za-z0-9_]*\(' . | sort | while read -r file; do
	dir=$(dirname "$file")
	grep -oE '^func Fuzz[A-Za-z0-9_]*' "$file" | sed 's/^func //' | while read -r target; do
		echo "== $dir $target ($fuzztime)"
		go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "$dir"
	done
done
