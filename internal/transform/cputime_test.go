//go:build unix

package transform

import (
	"syscall"
	"testing"
	"time"
)

// reportCPU adds a cpu-ns/op metric: user plus system time of the whole
// process (GC workers included) per iteration. On a shared machine it is
// much steadier than wall time, which counts the time other processes ran.
func reportCPU(b *testing.B, run func()) {
	b.Helper()
	start := processCPU(b)
	run()
	b.ReportMetric(float64(processCPU(b)-start)/float64(b.N), "cpu-ns/op")
}

func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
