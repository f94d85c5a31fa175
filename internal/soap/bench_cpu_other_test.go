//go:build !unix

package soap

import "time"

func processCPU() time.Duration { return 0 }
