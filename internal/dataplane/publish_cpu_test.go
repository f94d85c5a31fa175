//go:build unix

package dataplane

import (
	"syscall"
	"time"
)

// processCPU is the CPU time (user and system, all threads) the process
// has used: on a shared, loaded machine it measures a benchmark's work
// more steadily than wall time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
