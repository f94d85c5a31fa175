package engine

import (
	"testing"

	"github.com/s2r-project/s2r/internal/leakcheck"
)

// TestMain fails the package's tests when they leave goroutines running.
func TestMain(m *testing.M) { leakcheck.Main(m) }
