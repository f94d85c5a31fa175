package upstream_test

import (
	"context"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/tests/loopback"
	"github.com/s2r-project/s2r/internal/tests/poll"
	"github.com/s2r-project/s2r/internal/upstream"
)

// memBus stands in for the store's notifications between instances.
type memBus struct {
	mu   sync.Mutex
	subs []chan []byte
}

// memJobs is one instance's upstream.HealthJobs on a memBus; lead says
// whether it holds the health check job.
type memJobs struct {
	bus  *memBus
	lead bool
}

func (j memJobs) TryExclusive(ctx context.Context, _ string, fn func(context.Context) error) (bool, error) {
	if !j.lead {
		return false, nil
	}
	return true, fn(ctx)
}

func (j memJobs) PublishBackendHealth(_ context.Context, payload []byte) error {
	j.bus.mu.Lock()
	defer j.bus.mu.Unlock()
	for _, c := range j.bus.subs {
		c <- payload
	}
	return nil
}

func (j memJobs) WatchBackendHealth(ctx context.Context, fn func([]byte)) error {
	c := make(chan []byte, 1024)
	j.bus.mu.Lock()
	j.bus.subs = append(j.bus.subs, c)
	j.bus.mu.Unlock()
	for {
		select {
		case <-ctx.Done():
			return nil
		case p := <-c:
			fn(p)
		}
	}
}

// TestSelectionSharesHealthUnderOutboundPolicy runs two instances'
// selections on one backend: only the leader probes it, under the
// outbound policy last applied, and the follower's view follows.
func TestSelectionSharesHealthUnderOutboundPolicy(t *testing.T) {
	var probes atomic.Int64
	ln := loopback.Listen(t, func(c net.Conn) {
		probes.Add(1)
		c.Close()
	})
	b := &upstream.Backend{Profile: model.BackendProfile{ProfileID: "sel-a", EndpointURL: "http://" + ln.Addr().String() + "/svc"}}
	targets := []upstream.HealthTarget{{ServiceID: "sel", ServiceKey: "sel", Mode: upstream.HealthTCP, Interval: 20 * time.Millisecond, Backend: b}}
	bus := &memBus{}
	var sels [2]*upstream.Selection
	for i := range sels {
		s, err := upstream.NewSelection(upstream.SelectionConfig{Jobs: memJobs{bus: bus, lead: i == 0},
			Targets: func() []upstream.HealthTarget { return targets }})
		if err != nil {
			t.Fatal(err)
		}
		s.Checker.Tick = 10 * time.Millisecond
		sels[i] = s
	}
	loop := []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}
	sels[0].Outbound.Apply(upstream.OutboundSettings{Allowed: loop})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	for _, s := range sels {
		wg.Go(func() { s.Run(ctx) })
	}
	defer wg.Wait()
	defer cancel()
	poll.Until(t, 5*time.Second, "the follower learns the leader's result", func() bool {
		st := sels[1].Health.Service("sel")
		return len(st) == 1 && st[0].Checked && st[0].Healthy
	})
	if probes.Load() == 0 {
		t.Fatal("the leader did not probe the backend")
	}
	// The leader's policy now refuses the backend: it is unhealthy
	// everywhere without a connection.
	sels[0].Outbound.Apply(upstream.OutboundSettings{Allowed: loop, Denied: loop})
	waitHealthy(t, sels[1].Health, "sel-a", false)
	if denied := sels[0].Outbound.BackendPolicy().DeniedCIDRs; len(denied) != 2 {
		t.Errorf("backend policy denies %v, want the loopback prefixes", denied)
	}
}
