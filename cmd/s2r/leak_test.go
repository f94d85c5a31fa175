package main

import (
	"testing"

	"github.com/s2r-project/s2r/internal/leakcheck"
)

// TestMain fails the tests when a stopped `s2r serve` (run in process by
// the tests) leaves goroutines running.
func TestMain(m *testing.M) { leakcheck.Main(m) }
