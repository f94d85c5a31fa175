package dataplane

import (
	"testing"
	"time"
)

func TestMs(t *testing.T) {
	if got := Ms(1234567 * time.Nanosecond); got != 1.234 {
		t.Errorf("Ms = %v, want 1.234", got)
	}
}
