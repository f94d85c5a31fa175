package store_test

import (
	"context"
	"errors"
	"testing"

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
// is refused to another Store on the same database.
func TestTryExclusiveAcrossInstances(t *testing.T) {
	cfg := storetest.PostgresConfig(t)
	ctx := context.Background()
	a, err := store.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := store.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
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
	if ran, err := b.TryExclusive(ctx, "health-checks", func(context.Context) error { return nil }); !ran || err != nil {
		t.Errorf("second instance after release: %v, %v", ran, err)
	}
}
