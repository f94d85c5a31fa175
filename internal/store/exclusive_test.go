package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

func TestTryExclusive(t *testing.T) {
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		errJob := errors.New("job failed")
		var nestedSame, nestedOther bool
		ran, err := s.TryExclusive(ctx, "aggregate", func(ctx context.Context) error {
			var err error
			nestedSame, err = s.TryExclusive(ctx, "aggregate", func(context.Context) error { return nil })
			if err != nil {
				return err
			}
			nestedOther, err = s.TryExclusive(ctx, "expiry", func(context.Context) error { return nil })
			if err != nil {
				return err
			}
			return errJob
		})
		if !ran || !errors.Is(err, errJob) {
			t.Errorf("TryExclusive = %v, %v; want true, the job's error", ran, err)
		}
		if nestedSame {
			t.Error("the same job ran twice at once")
		}
		if !nestedOther {
			t.Error("another job was blocked")
		}
		// Released: it runs again.
		if ran, err := s.TryExclusive(ctx, "aggregate", func(context.Context) error { return nil }); !ran || err != nil {
			t.Errorf("after release: %v, %v", ran, err)
		}
	})
}

// TestTryExclusiveAcrossInstances: on PostgreSQL a job held by one Store
// is refused to another Store on the same database, during its run and
// after it: the first instance keeps the job's lease until it closes.
func TestTryExclusiveAcrossInstances(t *testing.T) {
	cfg := storetest.PostgresConfig(t)
	ctx := context.Background()
	a, b := storetest.Open(t, cfg), storetest.Open(t, cfg)
	var otherRan bool
	ran, err := a.TryExclusive(ctx, "health-checks", func(ctx context.Context) error {
		var err error
		otherRan, err = b.TryExclusive(ctx, "health-checks", func(context.Context) error { return nil })
		return err
	})
	if !ran || err != nil {
		t.Fatalf("first instance: %v, %v", ran, err)
	}
	if otherRan {
		t.Error("second instance ran the job while the first held it")
	}
	for range 3 {
		if ran, err := b.TryExclusive(ctx, "health-checks", noop); ran || err != nil {
			t.Fatalf("second instance while the first leads: %v, %v", ran, err)
		}
		if ran, err := a.TryExclusive(ctx, "health-checks", noop); !ran || err != nil {
			t.Fatalf("leader again: %v, %v", ran, err)
		}
	}
	wantStat(t, a, "health-checks", store.JobStat{Runs: 4, Leading: true})
	wantStat(t, b, "health-checks", store.JobStat{Skips: 4})
	// Another job is free for the second instance.
	if ran, err := b.TryExclusive(ctx, "expiry", noop); !ran || err != nil {
		t.Fatalf("second instance, other job: %v, %v", ran, err)
	}
	// The leader goes away: the lease goes with its session.
	a.Close()
	if ran, err := b.TryExclusive(ctx, "health-checks", noop); !ran || err != nil {
		t.Errorf("second instance after the leader closed: %v, %v", ran, err)
	}
	wantStat(t, b, "health-checks", store.JobStat{Runs: 1, Skips: 4, Leading: true})
}

// TestTryExclusiveLeaseIdle: a lease whose job has not run for the idle
// time is given up, so a job run on demand does not stay pinned.
func TestTryExclusiveLeaseIdle(t *testing.T) {
	cfg := storetest.PostgresConfig(t)
	ctx := context.Background()
	a, b := storetest.Open(t, cfg), storetest.Open(t, cfg)
	store.SetLeaseIdle(a, 50*time.Millisecond)
	if ran, err := a.TryExclusive(ctx, "retention", noop); !ran || err != nil {
		t.Fatalf("first run: %v, %v", ran, err)
	}
	time.Sleep(100 * time.Millisecond)
	// Any later call on a gives up its idle leases.
	if ran, err := a.TryExclusive(ctx, "other", noop); !ran || err != nil {
		t.Fatalf("other job: %v, %v", ran, err)
	}
	if ran, err := b.TryExclusive(ctx, "retention", noop); !ran || err != nil {
		t.Errorf("after the idle time: %v, %v", ran, err)
	}
}

func noop(context.Context) error { return nil }

func wantStat(t *testing.T, s *store.Store, name string, want store.JobStat) {
	t.Helper()
	for _, st := range s.JobStats() {
		if st.Name == name {
			if st.Runs != want.Runs || st.Skips != want.Skips || st.Failures != want.Failures || st.Leading != want.Leading {
				t.Errorf("%s: runs %d skips %d failures %d leading %v; want %+v", name, st.Runs, st.Skips, st.Failures, st.Leading, want)
			}
			return
		}
	}
	t.Errorf("%s: no statistics", name)
}
