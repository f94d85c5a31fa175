package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// TestBackendProtectionRoundTrip: the protection fields are stored on
// create and update, null caps stay null, and a service's client rate
// limit is put, read, replaced and removed.
func TestBackendProtectionRoundTrip(t *testing.T) {
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		p := testProfile("p1", "s1", "primary", 0)
		maxC, rps := int64(8), 2.5
		p.MaxConcurrentRequests, p.MaxRequestsPerSecond, p.QueueTimeoutMs = &maxC, &rps, 250
		err := s.Transact(ctx, func(tx *store.Tx) error {
			if err := tx.CreateService(ctx, testService("s1", "calc")); err != nil {
				return err
			}
			return tx.CreateBackendProfile(ctx, p)
		})
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.BackendProfile(ctx, "p1")
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(p.Protection(), got.Protection()); diff != "" {
			t.Errorf("after create (-want +got):\n%s", diff)
		}
		p.MaxConcurrentRequests, p.MaxRequestsPerSecond, p.QueueTimeoutMs = nil, nil, 0
		if err := s.Transact(ctx, func(tx *store.Tx) error { return tx.UpdateBackendProfile(ctx, p) }); err != nil {
			t.Fatal(err)
		}
		if got, err = s.BackendProfile(ctx, "p1"); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(model.BackendProtection{}, got.Protection()); diff != "" {
			t.Errorf("after update (-want +got):\n%s", diff)
		}

		at := store.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
		for _, want := range []*model.ClientRateLimit{
			{ClientKey: "ip", RequestsPerMinute: 60, Burst: 10},
			{ClientKey: "header:X-Api-Key", RequestsPerMinute: 600, Burst: 600},
			nil,
		} {
			err := s.Transact(ctx, func(tx *store.Tx) error { return tx.PutServiceRateLimit(ctx, "s1", want, at, "a@example.com") })
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.ServiceRateLimit(ctx, "s1")
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("rate limit (-want +got):\n%s", diff)
			}
		}
	})
}
