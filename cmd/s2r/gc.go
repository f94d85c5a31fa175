package main

import "runtime/debug"

// defaultGCPercent is the GC target s2r runs with when GOGC is not set.
// The gateway's live heap is small (tens of MB: route table, pools) and
// its garbage is per request, so Go's default of 100 runs a GC cycle every
// few thousand requests; 400 cuts the collector's CPU and the tail latency
// it causes (docs/decisions-runtime.md, docs/PERFORMANCE.md) for at most
// five times the live heap. GOGC and GOMEMLIMIT, when set, still rule.
const defaultGCPercent = 400

// tuneGC applies defaultGCPercent unless the operator set GOGC.
func tuneGC(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(defaultGCPercent)
	}
}
