//go:build !unix

package transform

import "testing"

// reportCPU runs the benchmark loop; process CPU time is read only on unix.
func reportCPU(_ *testing.B, run func()) { run() }
