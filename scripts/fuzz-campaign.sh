#!/usr/bin/env bash
# fuzz-campaign.sh CPU_SECONDS [PATTERN] — run every fuzz target (or those
# whose "dir name" matches PATTERN) until it has used CPU_SECONDS of CPU
# time (user+system of the test binary and its fuzz workers, read from
# /proc), then stop it with SIGINT. One line per target goes to stdout:
#   dir name cpu_seconds wall_seconds result [last progress line]
# result is "ok" or "FAIL" (a crasher is then in dir/testdata/fuzz/name).
# FUZZ_MINIMIZE (default 1s) bounds Go's minimization of each new input.
# FUZZ_SKIP (a regular expression on "dir name") leaves targets out, so a
# campaign can give a few targets a larger budget first and the rest after.
# New corpus entries stay in Go's fuzz cache; scripts/fuzz-keep.sh copies
# them into testdata/fuzz so they can be committed.
#
# Unlike scripts/fuzz.sh (wall time per target, for a quick pass), this
# is for long campaigns on a shared machine: run it under `nice -n 19`
# and each target still gets its CPU budget however busy the machine is.
set -uo pipefail
cd "$(dirname "$0")/.."
budget=${1:?usage: fuzz-campaign.sh CPU_SECONDS [PATTERN]}
pattern=${2:-}
skip=${FUZZ_SKIP:-}
# Go minimizes every new interesting input for up to 60 s by default, and
# counts no executions meanwhile: on targets whose inputs are whole XML
# documents (wsdl, xsd) that took most of the CPU budget. Interesting
# inputs are kept whole instead; FUZZ_MINIMIZE sets another limit.
minimize=${FUZZ_MINIMIZE:-1s}
hz=$(getconf CLK_TCK)

# cpu_of PGID prints the CPU seconds used by the processes of group PGID.
cpu_of() {
	local ticks=0 f stat rest
	for f in /proc/[0-9]*/stat; do
		stat=$(cat "$f" 2>/dev/null) || continue
		rest=${stat##*) }
		set -- $rest
		# fields after "comm)": state ppid pgrp session tty tpgid flags
		# minflt cminflt majflt cmajflt utime stime cutime cstime
		if [[ ${3:-x} == "$PG" ]]; then
			# utime stime, and cutime cstime: the fuzz workers the
			# coordinator restarted and reaped count too.
			ticks=$((ticks + ${12} + ${13} + ${14} + ${15}))
		fi
	done
	echo $((ticks / hz))
}

while read -r file; do
	dir=$(dirname "$file")
	for name in $(grep -oE '^func Fuzz[A-Za-z0-9_]*' "$file" | sed 's/^func //'); do
		[[ -n $pattern && ! "$dir $name" =~ $pattern ]] && continue
		[[ -n $skip && "$dir $name" =~ $skip ]] && continue
		# -fuzz at build time turns on coverage instrumentation; without it
		# the fuzzer runs blind.
		go test -c -fuzz "^${name}\$" -o /tmp/fuzzbin.$$ "./$dir" >/dev/null 2>&1 || { echo "$dir $name 0 0 BUILD_FAIL"; continue; }
		cache="$(go env GOCACHE)/fuzz/$(go list "./$dir")"
		start=$(date +%s)
		log=$(mktemp)
		# The binary runs in dir (testdata is relative), in its own group.
		(cd "$dir" && exec setsid /tmp/fuzzbin.$$ -test.run '^$' -test.fuzz "^${name}\$" \
			-test.fuzzcachedir "$cache" -test.parallel 2 -test.fuzzminimizetime "$minimize") >"$log" 2>&1 &
		pid=$!
		sleep 2
		PG=$(ps -o pgid= -p "$pid" 2>/dev/null | tr -d ' ')
		used=0
		while kill -0 "$pid" 2>/dev/null; do
			[[ -n $PG ]] && used=$(cpu_of)
			if ((used >= budget)); then
				kill -INT -- "-$PG" 2>/dev/null
				wait "$pid" 2>/dev/null
				break
			fi
			sleep 5
		done
		wait "$pid" 2>/dev/null
		result=ok
		grep -q -- '--- FAIL' "$log" && result=FAIL
		last=$(grep -oE 'execs: [0-9]+.*' "$log" | tail -1)
		echo "$dir $name $used $(( $(date +%s) - start )) $result ${last}"
		[[ $result == FAIL ]] && grep -v '^fuzz: elapsed' "$log" | head -60 >&2
		rm -f "$log"
	done
done < <(grep -rl --include='*_test.go' -E '^func Fuzz[A-Za-z0-9_]*\(' internal cmd | sort)
rm -f /tmp/fuzzbin.$$
