#!/usr/bin/env bash
# fuzz.sh [FUZZTIME] — run every fuzz target in the module for FUZZTIME
# (default 10s) each, one at a time (go test -fuzz takes one target). All
# targets run even when one fails; the failures are listed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${1:-10s}

targets=()
while read -r file; do
	dir=$(dirname "$file")
	while read -r name; do
		targets+=("$dir $name")
	done < <(grep -oE '^func Fuzz[A-Za-z0-9_]*' "$file" | sed 's/^func //')
done < <(grep -rl --include='*_test.go' -E '^func Fuzz[A-Za-z0-9_]*\(' . | sort)

failed=()
for t in "${targets[@]}"; do
	read -r dir name <<<"$t"
	echo "== $dir $name ($fuzztime)"
	if ! go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" "$dir"; then
		failed+=("$dir $name")
	fi
done

echo "fuzz targets run: ${#targets[@]}, failed: ${#failed[@]}"
for f in "${failed[@]}"; do
	echo "  FAILED: $f"
done
[[ ${#failed[@]} -eq 0 ]]
