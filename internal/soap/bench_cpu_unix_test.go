//go:build unix

package soap

import (
	"syscall"
	"time"
)

// processCPU is the CPU time (user and system, all threads, GC included)
// the process has used. On a shared, loaded machine it measures the work
// of a benchmark more steadily than wall time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
