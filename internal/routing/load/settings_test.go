package load

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/netip"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
	"github.com/s2r-project/s2r/internal/tests/poll"
)

// putSettings writes settings and bumps the revision, as the admin does.
func putSettings(t *testing.T, s *store.Store, values map[string]string) {
	t.Helper()
	ctx := context.Background()
	err := s.Transact(ctx, func(tx *store.Tx) error {
		for name, v := range values {
			if err := tx.PutSetting(ctx, store.SettingRow{Name: name, Value: json.RawMessage(v), UpdatedAt: time.Now(), UpdatedBy: "test"}); err != nil {
				return err
			}
		}
		_, err := tx.BumpRevision(ctx)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestSettingsFollowStore: the settings snapshot the request path reads
// (max_payload_mb, gateway_trusted_proxies, the outbound CIDRs) comes with
// each table and follows every change, without polling.
func TestSettingsFollowStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		r := NewReloader(Config{Store: s, Logger: slog.New(slog.DiscardHandler)}, time.Hour)
		if r.MaxPayloadMB() != 10 {
			t.Errorf("MB before any load = %d, want 10", r.MaxPayloadMB())
		}
		if err := r.Reload(ctx); err != nil {
			t.Fatal(err)
		}
		if r.MaxPayloadMB() != 10 {
			t.Errorf("default MB = %d, want 10", r.MaxPayloadMB())
		}
		putSettings(t, s, map[string]string{"max_payload_mb": "3"})
		if err := r.Reload(ctx); err != nil {
			t.Fatal(err)
		}
		if r.MaxPayloadMB() != 3 {
			t.Errorf("MB after change = %d, want 3", r.MaxPayloadMB())
		}

		// Run follows later changes without polling (interval 1h), and
		// hands each new table to OnSwap.
		swapped := make(chan *routing.Table, 8)
		r = NewReloader(Config{Store: s, Logger: slog.New(slog.DiscardHandler),
			OnSwap: func(t *routing.Table) { swapped <- t }}, time.Hour)
		rctx, cancel := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() { done <- r.Run(rctx) }()
		defer func() { cancel(); <-done }()
		waitMB(t, r, 3)
		putSettings(t, s, map[string]string{"max_payload_mb": "7",
			"gateway_trusted_proxies": `["10.0.0.0/8","192.0.2.7/32"]`, "outbound_denied_cidrs": `["198.51.100.0/24"]`})
		waitMB(t, r, 7)
		want := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("192.0.2.7/32")}
		if got := r.TrustedProxies(); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("trusted proxies = %v, want %v", got, want)
		}
		deadline := time.After(10 * time.Second)
		for {
			select {
			case tb := <-swapped:
				if fmt.Sprint(tb.Settings().Outbound.Denied) == "[198.51.100.0/24]" {
					return
				}
			case <-deadline:
				t.Fatal("OnSwap never got the new outbound settings")
			}
		}
	})
}

func waitMB(t *testing.T, r *routing.Reloader, want int) {
	t.Helper()
	poll.UntilOK(t, 10*time.Second, "payload limit", func() string {
		if mb := r.MaxPayloadMB(); mb != want {
			return fmt.Sprintf("MB = %d, want %d", mb, want)
		}
		return ""
	})
}
