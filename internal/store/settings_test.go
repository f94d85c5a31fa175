package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

func TestSettingsOverlayAndCredential(t *testing.T) {
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		got, err := s.Settings(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(model.DefaultSettings(), got); diff != "" {
			t.Fatalf("empty store settings differ from defaults (-want +got):\n%s", diff)
		}
		at := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
		err = s.Transact(ctx, func(tx *store.Tx) error {
			for _, row := range []store.SettingRow{
				{Name: "default_timeout_ms", Value: json.RawMessage(`5000`), UpdatedAt: at, UpdatedBy: "a@example.com"},
				{Name: "gateway_trusted_proxies", Value: json.RawMessage(`["10.0.0.0/8"]`), UpdatedAt: at, UpdatedBy: "a@example.com"},
				{Name: "smtp_password", Value: json.RawMessage(`"v1:sealed"`), UpdatedAt: at, UpdatedBy: "a@example.com"},
				{Name: "setting_of_a_newer_version", Value: json.RawMessage(`1`), UpdatedAt: at, UpdatedBy: "a@example.com"},
			} {
				if err := tx.PutSetting(ctx, row); err != nil {
					return err
				}
			}
			// A second put replaces the first.
			return tx.PutSetting(ctx, store.SettingRow{Name: "default_timeout_ms", Value: json.RawMessage(`6000`), UpdatedAt: at, UpdatedBy: "b@example.com"})
		})
		if err != nil {
			t.Fatal(err)
		}
		want := model.DefaultSettings()
		want.DefaultTimeoutMs = 6000
		want.GatewayTrustedProxies = []string{"10.0.0.0/8"}
		want.SMTPPassword = model.CredentialMetadata{Set: true, LastUpdatedAt: &at, LastUpdatedBy: "a@example.com"}
		got, err = s.Settings(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("settings (-want +got):\n%s", diff)
		}
		sealed, ok, err := s.SealedSetting(ctx, "smtp_password")
		if err != nil || !ok || sealed != "v1:sealed" {
			t.Errorf("SealedSetting = %q, %v, %v", sealed, ok, err)
		}
		if err := s.Transact(ctx, func(tx *store.Tx) error { return tx.DeleteSetting(ctx, "smtp_password") }); err != nil {
			t.Fatal(err)
		}
		if _, ok, err := s.SealedSetting(ctx, "smtp_password"); ok || err != nil {
			t.Errorf("after delete: set = %v, err = %v", ok, err)
		}
	})
}

func TestSettingsRollbackKeepsOldState(t *testing.T) {
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		injected := errors.New("injected")
		err := s.Transact(ctx, func(tx *store.Tx) error {
			if err := tx.PutSetting(ctx, store.SettingRow{Name: "max_payload_mb", Value: json.RawMessage(`20`), UpdatedAt: time.Now(), UpdatedBy: "a"}); err != nil {
				return err
			}
			return injected
		})
		if !errors.Is(err, injected) {
			t.Fatalf("Transact = %v", err)
		}
		got, err := s.Settings(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if got.MaxPayloadMB != 10 {
			t.Errorf("max_payload_mb = %d after rollback, want 10", got.MaxPayloadMB)
		}
	})
}
