#!/usr/bin/env bash
# fuzz-keep.sh [PATTERN] — copy the inputs that fuzzing found interesting
# (Go keeps them in its cache, $GOCACHE/fuzz/<package>/<target>) into each
# target's committed seed corpus, <package dir>/testdata/fuzz/<target>, so
# that every later `go test` replays them. Only targets whose "dir name"
# matches PATTERN, when given. Prints how many inputs each target gained.
# Inputs larger than FUZZ_KEEP_MAX_BYTES (default 16384) stay in the cache:
# the repository keeps the many small inputs that reach new code, not the
# few large documents that fuzzing grew on the way.
set -euo pipefail
cd "$(dirname "$0")/.."
pattern=${1:-}
max=${FUZZ_KEEP_MAX_BYTES:-16384}
cache=$(go env GOCACHE)/fuzz
while read -r file; do
	dir=$(dirname "$file")
	pkg=$(go list "./$dir")
	for name in $(grep -oE '^func Fuzz[A-Za-z0-9_]*' "$file" | sed 's/^func //'); do
		[[ -n $pattern && ! "$dir $name" =~ $pattern ]] && continue
		src=$cache/$pkg/$name
		[[ -d $src ]] || continue
		dst=$dir/testdata/fuzz/$name
		mkdir -p "$dst"
		added=0
		for f in "$src"/*; do
			[[ -e $dst/$(basename "$f") ]] && continue
			(($(stat -c %s "$f") > max)) && continue
			cp "$f" "$dst/"
			added=$((added + 1))
		done
		echo "$dir $name +$added (now $(ls "$dst" | wc -l))"
	done
done < <(grep -rl --include='*_test.go' -E '^func Fuzz[A-Za-z0-9_]*\(' internal cmd | sort)
