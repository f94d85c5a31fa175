package main

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestGCPercentFor(t *testing.T) {
	for _, c := range []struct {
		live uint64
		want int
	}{{0, 100}, {4 << 20, 1600}, {32 << 20, 200}, {64 << 20, 100}, {1 << 30, 100}, {1 << 10, maxGCPercent}} {
		if got := gcPercentFor(c.live, 64<<20); got != c.want {
			t.Errorf("live %d: %d, want %d", c.live, got, c.want)
		}
	}
}

// TestGCTuner: with a small live heap the tuner raises the GC percentage
// after collections; an operator's GOGC turns it off.
func TestGCTuner(t *testing.T) {
	tuneGC(func(k string) string {
		if k == "GOGC" {
			return "100"
		}
		return ""
	})
	if p := debug.SetGCPercent(100); p != 100 {
		t.Fatalf("GOGC set: percent %d, want the operator's 100", p)
	}
	tuneGC(func(string) string { return "" })
	defer debug.SetGCPercent(100)
	deadline := time.Now().Add(5 * time.Second)
	for {
		runtime.GC()
		p := debug.SetGCPercent(-1)
		debug.SetGCPercent(p)
		if p > 100 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("percent still %d after collections of a small heap", p)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
