package limit

import "time"

// gcra is the generic cell rate algorithm over one theoretical arrival
// time (tat, in nanoseconds of the limiter's clock): a request may pass
// when tat is no more than tolerance ahead of now, and each request that
// passes moves tat one interval on. It is a token bucket of burst
// tolerance/interval + 1 tokens refilled every interval, in one int64.
type gcra struct {
	interval  int64 // nanoseconds between two requests at the steady rate
	tolerance int64 // how far tat may run ahead of now: (burst-1)*interval
}

// newGCRA returns the rule for perSecond requests a second with burst
// requests at once (at least 1).
func newGCRA(perSecond float64, burst int64) gcra {
	interval := int64(float64(time.Second) / perSecond)
	if interval < 1 {
		interval = 1
	}
	return gcra{interval: interval, tolerance: (max(burst, 1) - 1) * interval}
}

// wait returns how long a request arriving at now must wait before it may
// pass when the bucket's arrival time is tat (0: it may pass now).
func (g gcra) wait(tat, now int64) time.Duration {
	return time.Duration(max(tat, now) - g.tolerance - now)
}

// take returns the arrival time after one more request at now.
func (g gcra) take(tat, now int64) int64 {
	return max(tat, now) + g.interval
}
