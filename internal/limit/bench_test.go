package limit

import (
	"context"
	"fmt"
	"net/http"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"
	"time"
)

// tickClock moves one microsecond at every reading, so a rate cap of a
// million a second never refuses a benchmark's calls.
type tickClock struct{ n atomic.Int64 }

func (c *tickClock) Now() time.Time                         { return t0.Add(time.Duration(c.n.Add(1000))) }
func (c *tickClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// BenchmarkAcquireRelease is the hot-path cost of backend protection:
// one Acquire and its release.
func BenchmarkAcquireRelease(b *testing.B) {
	cases := []struct {
		name  string
		s     BackendSettings
		clock Clock
	}{
		{"uncapped", BackendSettings{}, nil},
		{"concurrency", BackendSettings{MaxConcurrentRequests: ptr[int64](1000)}, nil},
		{"concurrency+rate", BackendSettings{MaxConcurrentRequests: ptr[int64](1000), MaxRequestsPerSecond: ptr(1e6)}, &tickClock{}},
	}
	ctx := context.Background()
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			l := NewLimiter(c.s, c.clock)
			b.ReportAllocs()
			for b.Loop() {
				release, _, err := l.Acquire(ctx)
				if err != nil {
					b.Fatal(err)
				}
				release()
			}
		})
		b.Run(c.name+"/parallel", func(b *testing.B) {
			l := NewLimiter(c.s, c.clock)
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					release, _, err := l.Acquire(ctx)
					if err != nil {
						// tickClock is virtual time: a goroutine paused
						// between its clock reading and the rate check
						// finds the bucket ahead of its stale "now".
						continue
					}
					release()
				}
			})
			s := l.Snapshot()
			b.ReportMetric(float64(s.RefusedConcurrency+s.RefusedRate)/float64(b.N), "refused/op")
		})
	}
}

// BenchmarkClientsAllow is the hot-path cost of a client rate limit, over
// 65,536 distinct client IPs.
func BenchmarkClientsAllow(b *testing.B) {
	p := mustPolicy(b, "svc", `{"clientKey":"ip","requestsPerMinute":60000000,"burst":60000000}`)
	ips := make([]string, 1<<16)
	for i := range ips {
		ips[i] = fmt.Sprintf("10.%d.%d.%d", i>>16, (i>>8)&255, i&255)
	}
	h := http.Header{}
	b.Run("serial", func(b *testing.B) {
		c := NewClients(0, nil)
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			i++
			if err := c.Allow(p, ips[i&(1<<16-1)], h); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("parallel", func(b *testing.B) {
		c := NewClients(0, nil)
		b.ReportAllocs()
		var next atomic.Uint64
		b.RunParallel(func(pb *testing.PB) {
			i := next.Add(7919)
			for pb.Next() {
				i++
				if err := c.Allow(p, ips[i&(1<<16-1)], h); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
}

// BenchmarkClientsMemory fills a table with one million distinct clients
// and reports the heap it holds per client (HeapAlloc after a GC). Run it
// once: -bench ClientsMemory -benchtime 1x.
func BenchmarkClientsMemory(b *testing.B) {
	const clients = 1_000_000
	p := mustPolicy(b, "svc", `{"clientKey":"ip","requestsPerMinute":60}`)
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		c := NewClients(DefaultMaxClients, nil)
		for i := range clients {
			if err := c.AllowKey(p, strconv.Itoa(i)); err != nil {
				b.Fatal(err)
			}
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		if n := c.Snapshot().Clients; n != clients {
			b.Fatalf("table holds %d clients, want %d", n, clients)
		}
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/clients, "bytes/client")
		runtime.KeepAlive(c)
	}
}
