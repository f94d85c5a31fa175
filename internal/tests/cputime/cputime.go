// Package cputime adds the process CPU time per operation to a benchmark,
// as the cpu-ns/op metric: user plus system time of every thread (the
// garbage collector's workers included). On a shared, loaded machine it
// measures a benchmark's work more steadily than wall time, which also
// counts the time other processes ran.
package cputime

import (
	"testing"
	"time"
)

// Report starts measuring; the function it returns reports the CPU time
// used since, per iteration of b, as cpu-ns/op. Where the platform does
// not tell the process's CPU time it reports nothing. Typical use:
//
//	defer cputime.Report(b)()
//	for b.Loop() { ... }
func Report(b *testing.B) func() {
	start, ok := process()
	return func() {
		end, _ := process()
		if ok && b.N > 0 {
			b.ReportMetric(float64(end-start)/float64(b.N), "cpu-ns/op")
		}
	}
}

// Now returns the CPU time the process has used so far, and false where
// the platform does not tell it: for benchmarks that compare the CPU time
// of two loops of one run.
func Now() (time.Duration, bool) { return process() }
