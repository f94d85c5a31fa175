package upstream_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/upstream"
)

// pool returns a pool of backends named a, b, c… with the given weights.
func pool(mode string, weights ...int) upstream.Pool {
	p := upstream.Pool{ServiceID: "svc-" + mode, Mode: mode}
	for i, w := range weights {
		prof := model.BackendProfile{ProfileID: fmt.Sprintf("%s-%c", mode, 'a'+i), Name: string(rune('a' + i)),
			EndpointURL: "http://127.0.0.1:1/", RoutingPriority: i, RoutingWeight: w}
		p.Backends = append(p.Backends, &upstream.Backend{Profile: prof})
	}
	return p
}

func code(err error) string {
	var e *apierr.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

func TestRoundRobinHonoursWeights(t *testing.T) {
	s := upstream.NewSelector(upstream.NewHealth(), nil)
	p := pool(upstream.RoutingRoundRobin, 5, 3, 2)
	const n = 1000
	counts := make([]int, len(p.Backends))
	for range n {
		i, err := s.Do(context.Background(), p, func(context.Context, int) (upstream.Verdict, error) { return upstream.Verdict{}, nil })
		if err != nil {
			t.Fatal(err)
		}
		counts[i]++
	}
	// Tolerance: ±5 % of the expected share (smooth WRR is exact over a
	// full cycle, so this only allows for the cycle in progress).
	for i, w := range []float64{0.5, 0.3, 0.2} {
		got := float64(counts[i]) / n
		if math.Abs(got-w) > 0.05*w {
			t.Errorf("backend %d got share %.3f, want %.3f ±5%%", i, got, w)
		}
	}
}

func TestRoundRobinSkipsUnhealthy(t *testing.T) {
	h := upstream.NewHealth()
	s := upstream.NewSelector(h, nil)
	p := pool(upstream.RoutingRoundRobin, 1, 1)
	down := upstream.HealthTarget{ServiceID: p.ServiceID, Mode: upstream.HealthTCP, Backend: p.Backends[0]}
	for range upstream.UnhealthyAfter {
		h.Report(down, time.Now(), errors.New("refused"))
	}
	for range 10 {
		i, err := s.Do(context.Background(), p, func(context.Context, int) (upstream.Verdict, error) { return upstream.Verdict{}, nil })
		if err != nil || i != 1 {
			t.Fatalf("got backend %d, %v; want 1 only", i, err)
		}
	}
	h.Report(down, time.Now(), nil)
	seen := map[int]bool{}
	for range 4 {
		i, _ := s.Do(context.Background(), p, func(context.Context, int) (upstream.Verdict, error) { return upstream.Verdict{}, nil })
		seen[i] = true
	}
	if !seen[0] || !seen[1] {
		t.Fatalf("after recovery got %v, want both backends", seen)
	}
}

func TestSingleAndActivePassive(t *testing.T) {
	refused := &upstream.Error{Kind: upstream.KindUnreachable, Err: errors.New("refused")}
	tests := []struct {
		name     string
		mode     string
		pref     int
		unhealth []int
		fail     map[int]bool // these backends fail with failover asked
		wantLast int
		wantCode string
		wantTry  []int
	}{
		{name: "single preferred", mode: upstream.RoutingSingle, pref: 1, wantLast: 1, wantTry: []int{1}},
		{name: "single no failover", mode: upstream.RoutingSingle, fail: map[int]bool{0: true}, wantLast: 0, wantTry: []int{0}},
		{name: "single unhealthy", mode: upstream.RoutingSingle, unhealth: []int{0}, wantLast: -1, wantCode: apierr.RunUnavailable},
		{name: "active_passive first", mode: upstream.RoutingActivePassive, wantLast: 0, wantTry: []int{0}},
		{name: "active_passive failover", mode: upstream.RoutingActivePassive, fail: map[int]bool{0: true}, wantLast: 1, wantTry: []int{0, 1}},
		{name: "active_passive skips unhealthy", mode: upstream.RoutingActivePassive, unhealth: []int{0, 1}, wantLast: 2, wantTry: []int{2}},
		{name: "active_passive all fail", mode: upstream.RoutingActivePassive, fail: map[int]bool{0: true, 1: true, 2: true}, wantLast: 2, wantTry: []int{0, 1, 2}},
		{name: "active_passive none healthy", mode: upstream.RoutingActivePassive, unhealth: []int{0, 1, 2}, wantLast: -1, wantCode: apierr.RunUnavailable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := upstream.NewHealth()
			s := upstream.NewSelector(h, nil)
			p := pool(tt.mode, 1, 1, 1)
			p.ServiceID += tt.name
			for i := range p.Backends {
				p.Backends[i].Profile.ProfileID += tt.name
			}
			p.Preferred = tt.pref
			for _, i := range tt.unhealth {
				for range upstream.UnhealthyAfter {
					h.Report(upstream.HealthTarget{Mode: upstream.HealthTCP, Backend: p.Backends[i]}, time.Now(), errors.New("down"))
				}
			}
			var tried []int
			last, err := s.Do(context.Background(), p, func(_ context.Context, i int) (upstream.Verdict, error) {
				tried = append(tried, i)
				if tt.fail[i] {
					return upstream.Verdict{Failure: true, Failover: true}, refused
				}
				return upstream.Verdict{}, nil
			})
			if last != tt.wantLast || code(err) != tt.wantCode {
				t.Fatalf("got last %d code %q (%v), want %d %q", last, code(err), err, tt.wantLast, tt.wantCode)
			}
			if fmt.Sprint(tried) != fmt.Sprint(tt.wantTry) && !(len(tried) == 0 && len(tt.wantTry) == 0) {
				t.Fatalf("tried %v, want %v", tried, tt.wantTry)
			}
		})
	}
}

func TestBreakerOpensAndCloses(t *testing.T) {
	var changes []string
	br := upstream.NewBreakers(upstream.BreakerConfig{ConsecutiveFailures: 3, OpenFor: 200 * time.Millisecond, HalfOpenProbes: 1,
		OnStateChange: func(_ string, from, to upstream.BreakerState) {
			changes = append(changes, from.String()+">"+to.String())
		}})
	s := upstream.NewSelector(upstream.NewHealth(), br)
	p := pool(upstream.RoutingSingle, 1)
	fail := func(context.Context, int) (upstream.Verdict, error) {
		return upstream.Verdict{Failure: true}, &upstream.Error{Kind: upstream.KindUnreachable, Err: errors.New("refused")}
	}
	ok := func(context.Context, int) (upstream.Verdict, error) { return upstream.Verdict{}, nil }
	for range 3 {
		if _, err := s.Do(context.Background(), p, fail); upstream.KindOf(err) != upstream.KindUnreachable {
			t.Fatalf("before the threshold got %v", err)
		}
	}
	if _, err := s.Do(context.Background(), p, ok); code(err) != apierr.RunCircuitOpen {
		t.Fatalf("after the threshold got %v, want %s", err, apierr.RunCircuitOpen)
	}
	if got := br.State(p.Backends[0].Profile.ProfileID); got != upstream.BreakerOpen {
		t.Fatalf("state %v, want open", got)
	}
	time.Sleep(250 * time.Millisecond)
	if got := br.State(p.Backends[0].Profile.ProfileID); got != upstream.BreakerHalfOpen {
		t.Fatalf("state %v after the open period, want half_open", got)
	}
	if _, err := s.Do(context.Background(), p, ok); err != nil {
		t.Fatalf("half-open probe: %v", err)
	}
	if got := br.State(p.Backends[0].Profile.ProfileID); got != upstream.BreakerClosed {
		t.Fatalf("state %v after a good probe, want closed", got)
	}
	want := "[closed>open open>half_open half_open>closed]"
	if fmt.Sprint(changes) != want {
		t.Fatalf("changes %v, want %s", changes, want)
	}
}

func TestIsBackendFailure(t *testing.T) {
	tests := []struct {
		status int
		err    error
		want   bool
	}{
		{200, nil, false},
		{404, nil, false},
		{500, nil, true},
		{503, nil, true},
		{0, &upstream.Error{Kind: upstream.KindUnreachable}, true},
		{0, &upstream.Error{Kind: upstream.KindTimeout}, true},
		{0, &upstream.Error{Kind: upstream.KindCanceled}, false},
		{0, &upstream.Error{Kind: upstream.KindAuthConfig}, false},
	}
	for _, tt := range tests {
		if got := upstream.IsBackendFailure(tt.status, tt.err); got != tt.want {
			t.Errorf("IsBackendFailure(%d, %v) = %v, want %v", tt.status, tt.err, got, tt.want)
		}
	}
}

func TestIsFailedAnswer(t *testing.T) {
	tests := []struct {
		status int
		ct     string
		want   bool
	}{
		{200, "text/xml", false},
		{404, "text/html", false},
		{500, "text/xml; charset=utf-8", false},
		{500, "application/soap+xml; action=x", false},
		{500, "text/html", true},
		{500, "", true},
		{502, "text/xml", true},
		{503, "text/plain", true},
	}
	for _, tt := range tests {
		if got := upstream.IsFailedAnswer(tt.status, tt.ct); got != tt.want {
			t.Errorf("IsFailedAnswer(%d, %q) = %v, want %v", tt.status, tt.ct, got, tt.want)
		}
	}
}
