package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// gcHeadroom is how much the heap may grow past its live size before the
// next collection when the live heap is small. A running gateway's live
// heap is a few MB (route table, pools) and nearly all allocation is
// per-request garbage: with Go's default target (GOGC=100, the heap may
// double) it collected about ten times a second under load, and the mark
// phases (write barriers, assists, a dedicated worker on one of two cores)
// landed inside conversions and set the converter's p99. With a headroom
// of 64 MB the collector runs about once a second at the same load, and a
// large live heap (big catalogs) keeps Go's default behaviour.
const gcHeadroom = 64 << 20

// maxGCPercent bounds the target computed for a tiny live heap.
const maxGCPercent = 10000

var gcTunerOnce sync.Once

// tuneGC starts the GC tuner unless the operator set GOGC; GOMEMLIMIT,
// when set, still caps the heap as Go defines it.
func tuneGC(getenv func(string) string) {
	if getenv("GOGC") != "" {
		return
	}
	gcTunerOnce.Do(func() {
		t := &gcTuner{headroom: gcHeadroom, samples: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
		t.adjust()
		t.arm()
	})
}

// gcTuner sets the GC percentage after every cycle so that the next one
// starts when max(headroom, live heap) bytes have been allocated: the
// equivalent of GOGC=100 with a minimum heap of live+headroom.
type gcTuner struct {
	headroom uint64
	samples  []metrics.Sample
	percent  int
}

// arm registers a cleanup on a fresh object, which runs after the GC cycle
// that finds it unreachable, that is after every cycle.
func (t *gcTuner) arm() {
	s := new([16]byte) // not a tiny allocation: cleanups need their own object
	runtime.AddCleanup(s, func(t *gcTuner) {
		t.adjust()
		t.arm()
	}, t)
}

func (t *gcTuner) adjust() {
	metrics.Read(t.samples)
	live := uint64(0)
	if t.samples[0].Value.Kind() == metrics.KindUint64 {
		live = t.samples[0].Value.Uint64()
	}
	p := gcPercentFor(live, t.headroom)
	if t.percent == 0 || p*10 < t.percent*9 || p*10 > t.percent*11 {
		debug.SetGCPercent(p)
		t.percent = p
	}
}

// gcPercentFor is the GC percentage giving a heap goal of live + max(headroom,
// live).
func gcPercentFor(live, headroom uint64) int {
	if live == 0 || live >= headroom {
		return 100
	}
	return int(min(headroom*100/live, maxGCPercent))
}
