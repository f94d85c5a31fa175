package store_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// TestInboundWSSRoundTrip: a service without a policy reads mode off;
// a stored policy reads back with its sealed passwords and metadata.
func TestInboundWSSRoundTrip(t *testing.T) {
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		err := s.Transact(ctx, func(tx *store.Tx) error { return tx.CreateService(ctx, testService("s1", "calc")) })
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.InboundWSS(ctx, "s1")
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(model.DefaultInboundWSSConfig("s1"), got); diff != "" {
			t.Errorf("default policy (-want +got):\n%s", diff)
		}
		at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		want := model.InboundWSSConfig{ServiceID: "s1", Mode: model.WSSModeRequired,
			UsernameTokens:         []model.InboundWSSUser{{Username: "partner-a", Password: model.NewCredential("sealed-a", at, "op@x")}},
			TrustedCertificatesPEM: []string{"PEM"}, RequireTimestamp: true, MaxClockSkewSeconds: 60,
			UpdatedAt: &at, UpdatedBy: "op@x"}
		err = s.ChangeConfig(ctx, func(tx *store.Tx) error { return tx.PutInboundWSS(ctx, want) })
		if err != nil {
			t.Fatal(err)
		}
		if got, err = s.InboundWSS(ctx, "s1"); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("stored policy (-want +got):\n%s", diff)
		}
	})
}

// TestNonceSeen: a nonce is recorded once; seen again before it expires
// it is reported, after its expiry it may be recorded again; concurrent
// attempts record it exactly once.
func TestNonceSeen(t *testing.T) {
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		future := time.Now().Add(time.Hour)
		for i, want := range []bool{false, true, true} {
			seen, err := s.NonceSeen(ctx, "aa", future)
			if err != nil || seen != want {
				t.Fatalf("call %d: seen %v, %v; want %v", i, seen, err, want)
			}
		}
		if seen, err := s.NonceSeen(ctx, "old", time.Now().Add(-time.Second)); err != nil || seen {
			t.Fatalf("expired-at-birth nonce: %v, %v", seen, err)
		}
		if seen, err := s.NonceSeen(ctx, "old", future); err != nil || seen {
			t.Errorf("an expired nonce is reported seen: %v, %v", seen, err)
		}
		var fresh atomic.Int32
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				seen, err := s.NonceSeen(ctx, "race", future)
				if err != nil {
					t.Error(err)
				}
				if !seen {
					fresh.Add(1)
				}
			})
		}
		wg.Wait()
		if fresh.Load() != 1 {
			t.Errorf("%d concurrent callers recorded the nonce, want 1", fresh.Load())
		}
	})
}
