package limit

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func ptr[T any](v T) *T { return &v }

// step is one action of a limiter script: acquire (want "" for success or
// the refusal reason), release the oldest held call, or advance the clock.
type step struct {
	op        string
	want      string
	wantRetry time.Duration
	d         time.Duration
}

func acquire(want string) step { return step{op: "acquire", want: want} }
func refused(reason string, retry time.Duration) step {
	return step{op: "acquire", want: reason, wantRetry: retry}
}
func release() step                { return step{op: "release"} }
func advance(d time.Duration) step { return step{op: "advance", d: d} }
func repeat(n int, s step) []step {
	out := make([]step, n)
	for i := range out {
		out[i] = s
	}
	return out
}

func TestLimiterCaps(t *testing.T) {
	tests := []struct {
		name     string
		settings BackendSettings
		steps    []step
	}{
		{"unlimited admits everything", BackendSettings{},
			repeat(1000, acquire(""))},
		{"concurrency cap refuses at once", BackendSettings{MaxConcurrentRequests: ptr[int64](2)},
			[]step{acquire(""), acquire(""), refused(ReasonConcurrency, time.Second)}},
		{"a release frees a slot", BackendSettings{MaxConcurrentRequests: ptr[int64](2)},
			[]step{acquire(""), acquire(""), release(), acquire(""), refused(ReasonConcurrency, time.Second)}},
		{"rate cap allows one second as a burst", BackendSettings{MaxRequestsPerSecond: ptr(10.0)},
			append(repeat(10, acquire("")), refused(ReasonRate, 100*time.Millisecond))},
		{"rate cap refills", BackendSettings{MaxRequestsPerSecond: ptr(10.0)},
			append(repeat(10, acquire("")), advance(100*time.Millisecond), acquire(""), refused(ReasonRate, 100*time.Millisecond))},
		{"slow rate", BackendSettings{MaxRequestsPerSecond: ptr(0.5)},
			[]step{acquire(""), refused(ReasonRate, 2*time.Second), advance(2 * time.Second), acquire("")}},
		{"both caps: concurrency first", BackendSettings{MaxConcurrentRequests: ptr[int64](1), MaxRequestsPerSecond: ptr(100.0)},
			[]step{acquire(""), refused(ReasonConcurrency, time.Second), release(), acquire("")}},
		{"a rate refusal gives its slot back", BackendSettings{MaxConcurrentRequests: ptr[int64](1), MaxRequestsPerSecond: ptr(1.0)},
			[]step{acquire(""), release(), refused(ReasonRate, time.Second), advance(time.Second), acquire("")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := NewFakeClock(t0)
			l := NewLimiter(tt.settings, clock)
			runSteps(t, l, clock, tt.steps)
		})
	}
}

func runSteps(t *testing.T, l *Limiter, clock *FakeClock, steps []step) {
	t.Helper()
	var held []func()
	for i, s := range steps {
		switch s.op {
		case "advance":
			clock.Advance(s.d)
		case "release":
			held[0]()
			held = held[1:]
		case "acquire":
			rel, retry, err := l.Acquire(context.Background())
			if s.want == "" {
				if err != nil {
					t.Fatalf("step %d: Acquire: %v", i, err)
				}
				held = append(held, rel)
				continue
			}
			r, ok := AsRefusal(err)
			if !ok || r.Reason != s.want || retry != s.wantRetry || r.RetryAfter != retry {
				t.Fatalf("step %d: Acquire = %v, %v; want refusal %s after %v", i, retry, err, s.want, s.wantRetry)
			}
		}
	}
	if got := l.Snapshot().InFlight; got != int64(len(held)) {
		t.Errorf("InFlight = %d, want %d", got, len(held))
	}
}

// acquireAsync starts Acquire in a goroutine and returns once it waits on
// the clock (timers pending).
func acquireAsync(ctx context.Context, l *Limiter, clock *FakeClock, timers int) <-chan error {
	done := make(chan error, 1)
	go func() {
		_, _, err := l.Acquire(ctx)
		done <- err
	}()
	clock.BlockUntil(timers)
	return done
}

func TestLimiterQueue(t *testing.T) {
	conc1 := BackendSettings{MaxConcurrentRequests: ptr[int64](1), QueueTimeoutMs: 100}
	tests := []struct {
		name     string
		settings BackendSettings
		act      func(clock *FakeClock, release func(), cancel context.CancelFunc)
		want     string // "" success, a refusal reason, or "canceled"
	}{
		{"a release admits the waiter", conc1,
			func(_ *FakeClock, release func(), _ context.CancelFunc) { release() }, ""},
		{"the queue timeout refuses", conc1,
			func(c *FakeClock, _ func(), _ context.CancelFunc) { c.Advance(100 * time.Millisecond) }, ReasonConcurrency},
		{"the caller's context ends the wait", conc1,
			func(_ *FakeClock, _ func(), cancel context.CancelFunc) { cancel() }, "canceled"},
		{"a rate wait within the queue timeout passes",
			BackendSettings{MaxRequestsPerSecond: ptr(1.0), QueueTimeoutMs: 1000},
			func(c *FakeClock, _ func(), _ context.CancelFunc) { c.Advance(time.Second) }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := NewFakeClock(t0)
			l := NewLimiter(tt.settings, clock)
			first, _, err := l.Acquire(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := acquireAsync(ctx, l, clock, 1)
			tt.act(clock, first, cancel)
			err = <-done
			switch r, _ := AsRefusal(err); {
			case tt.want == "" && err != nil,
				tt.want == "canceled" && !errors.Is(err, context.Canceled),
				tt.want != "" && tt.want != "canceled" && (r == nil || r.Reason != tt.want):
				t.Fatalf("Acquire = %v, want %q", err, tt.want)
			}
			if w := l.Snapshot().Waiting; w != 0 {
				t.Errorf("Waiting = %d after the wait, want 0", w)
			}
		})
	}
}

func TestRegistryReconfigureKeepsInFlight(t *testing.T) {
	clock := NewFakeClock(t0)
	r := NewRegistry(clock)
	l := r.Set("p1", BackendSettings{MaxConcurrentRequests: ptr[int64](2)})
	runSteps(t, l, clock, []step{acquire(""), acquire(""), refused(ReasonConcurrency, time.Second)})
	if got := r.Set("p1", BackendSettings{MaxConcurrentRequests: ptr[int64](3)}); got != l {
		t.Fatal("Set replaced the limiter; in-flight calls would be lost")
	}
	if _, _, err := l.Acquire(context.Background()); err != nil {
		t.Fatalf("third call under the raised cap: %v", err)
	}
	r.Set("p1", BackendSettings{MaxConcurrentRequests: ptr[int64](1)})
	if _, _, err := l.Acquire(context.Background()); err == nil {
		t.Fatal("a call passed while 3 are in flight under a cap of 1")
	}
	want := Snapshot{InFlight: 3, RefusedConcurrency: 2}
	if got := r.Snapshots()["p1"]; got != want {
		t.Errorf("Snapshot = %+v, want %+v", got, want)
	}
	r.Sync(map[string]BackendSettings{"p2": {}})
	if r.Get("p1") != nil || r.Get("p2") == nil {
		t.Error("Sync did not drop p1 and add p2")
	}
}

func TestBackendSettingsValidate(t *testing.T) {
	tests := []struct {
		name string
		s    BackendSettings
		want string
	}{
		{"unlimited", BackendSettings{}, ""},
		{"all set", BackendSettings{ptr[int64](10), ptr(2.5), 500}, ""},
		{"zero concurrency", BackendSettings{MaxConcurrentRequests: ptr[int64](0)},
			"maxConcurrentRequests: must be null (unlimited) or an integer between 1 and 100000"},
		{"absurd concurrency", BackendSettings{MaxConcurrentRequests: ptr[int64](1e9)},
			"maxConcurrentRequests: must be null (unlimited) or an integer between 1 and 100000"},
		{"negative rate", BackendSettings{MaxRequestsPerSecond: ptr(-1.0)},
			"maxRequestsPerSecond: must be null (unlimited) or between 0.001 and 1000000"},
		{"absurd rate", BackendSettings{MaxRequestsPerSecond: ptr(1e12)},
			"maxRequestsPerSecond: must be null (unlimited) or between 0.001 and 1000000"},
		{"negative queue", BackendSettings{QueueTimeoutMs: -1}, "queueTimeoutMs: must be between 0 and 60000"},
		{"long queue", BackendSettings{QueueTimeoutMs: 600_000}, "queueTimeoutMs: must be between 0 and 60000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.s.Validate()
			if got := errText(err); got != tt.want {
				t.Errorf("Validate() = %q, want %q", got, tt.want)
			}
		})
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestRefusalAPIError(t *testing.T) {
	tests := []struct {
		name       string
		r          Refusal
		wantCode   string
		wantStatus int
		wantHeader string
	}{
		{"backend concurrency", Refusal{ReasonConcurrency, time.Second}, "S2R-RUN-0509", 503, "1"},
		{"backend rate rounds up", Refusal{ReasonRate, 1500 * time.Millisecond}, "S2R-RUN-0509", 503, "2"},
		{"client at least one second", Refusal{ReasonClientRate, time.Millisecond}, "S2R-RUN-0429", 429, "1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := tt.r.APIError()
			if e.Code != tt.wantCode || e.Status() != tt.wantStatus || tt.r.RetryAfterHeader() != tt.wantHeader {
				t.Errorf("got %s %d Retry-After %s; want %s %d %s", e.Code, e.Status(), tt.r.RetryAfterHeader(),
					tt.wantCode, tt.wantStatus, tt.wantHeader)
			}
		})
	}
}

// TestLimiterNeverExceedsCap runs many callers against a small cap with a
// queue on the real clock: the count in flight never passes the cap and
// nobody waits forever.
func TestLimiterNeverExceedsCap(t *testing.T) {
	const limit, callers = 3, 32
	l := NewLimiter(BackendSettings{MaxConcurrentRequests: ptr[int64](limit), QueueTimeoutMs: 5000}, nil)
	var over atomic.Bool
	var wg sync.WaitGroup
	for range callers {
		wg.Go(func() {
			for range 50 {
				release, _, err := l.Acquire(context.Background())
				if err != nil {
					t.Error(err)
					return
				}
				if l.Snapshot().InFlight > limit {
					over.Store(true)
				}
				release()
			}
		})
	}
	wg.Wait()
	if over.Load() {
		t.Error("more calls in flight than the cap")
	}
	if s := l.Snapshot(); s.InFlight != 0 || s.Waiting != 0 {
		t.Errorf("after all calls: %+v", s)
	}
}

func TestRegistryEnsureKeepsSettingsUntilSync(t *testing.T) {
	r := NewRegistry(NewFakeClock(t0))
	l := r.Ensure("p1", BackendSettings{MaxConcurrentRequests: ptr[int64](1)})
	if got := r.Ensure("p1", BackendSettings{}); got != l {
		t.Fatal("Ensure replaced an existing limiter")
	}
	if _, _, err := l.Acquire(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, _, err := l.Acquire(context.Background()); err == nil {
		t.Fatal("Ensure changed the settings of an existing limiter")
	}
	r.Sync(map[string]BackendSettings{"p1": {}})
	if _, _, err := l.Acquire(context.Background()); err != nil {
		t.Fatalf("after Sync lifted the cap: %v", err)
	}
}
