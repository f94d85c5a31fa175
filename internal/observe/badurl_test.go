package observe

import (
	"context"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/s2r-project/s2r/internal/dataplane"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

var _ dataplane.BadURLRecorder = (*BadURLRecorder)(nil)

func TestBadURLRecorderWritesBatches(t *testing.T) {
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		r := NewBadURLRecorder(BadURLConfig{Store: s, BatchSize: 10, FlushInterval: 20 * time.Millisecond})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error)
		go func() { done <- r.Run(ctx) }()
		now := time.Now()
		for range 25 {
			r.RecordBadURL("GET", "/foo", now)
		}
		r.RecordBadURL("POST", "/publish/", now)
		deadline := time.Now().Add(10 * time.Second)
		for r.Written() < 26 && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		cancel()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		sum, err := s.BadURLSummary(context.Background(), now.Add(-time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		want := []model.BadURLCount{{Path: "/foo", Count: 25}, {Path: "/publish/", Count: 1}}
		if len(sum) != 2 || sum[0] != want[0] || sum[1] != want[1] {
			t.Errorf("summary = %v, want %v", sum, want)
		}
	})
}

func TestBadURLRecorderFlushesOnShutdown(t *testing.T) {
	s := storetest.SQLite(t)
	r := NewBadURLRecorder(BadURLConfig{Store: s, FlushInterval: time.Hour})
	for range 5 {
		r.RecordBadURL("GET", "/x", time.Now())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r.Run(ctx)
	if r.Written() != 5 {
		t.Errorf("written = %d, want 5 flushed at shutdown", r.Written())
	}
}

func TestBadURLRecorderNeverBlocks(t *testing.T) {
	r := NewBadURLRecorder(BadURLConfig{Store: nil, QueueSize: 3})
	for range 10 {
		r.RecordBadURL("GET", "/x", time.Now()) // no Run: the queue fills
	}
	if r.Dropped() != 7 {
		t.Errorf("dropped = %d, want 7", r.Dropped())
	}
}

func TestBadURLRecorderRegister(t *testing.T) {
	r := NewBadURLRecorder(BadURLConfig{QueueSize: 1})
	r.RecordBadURL("GET", "/a", time.Now())
	r.RecordBadURL("GET", "/b", time.Now()) // dropped
	reg := prometheus.NewRegistry()
	if err := r.Register(reg); err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		got[f.GetName()] = f.GetMetric()[0].GetCounter().GetValue()
	}
	want := map[string]float64{"s2r_bad_url_attempts_written_total": 0, "s2r_bad_url_attempts_dropped_total": 1}
	for k, v := range want {
		if g, ok := got[k]; !ok || g != v {
			t.Errorf("%s = %v (present %v), want %v", k, g, ok, v)
		}
	}
}
