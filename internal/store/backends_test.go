package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

func testProfile(id, serviceID, name string, priority int) model.BackendProfile {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	p := model.BackendProfile{ProfileID: id, ServiceID: serviceID, Name: name, EndpointURL: "http://10.0.0.5/calc",
		AuthType: model.AuthBasic, Username: "u", RoutingPriority: priority, CreatedAt: at, UpdatedAt: at}
	p.Credentials.Password = model.NewCredential("sealed-value", at, "a@example.com")
	model.ApplyBackendDefaults(&p)
	return p
}

func TestBackendProfilesRoundTrip(t *testing.T) {
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		p1, p2 := testProfile("p1", "s1", "primary", 10), testProfile("p2", "s1", "secondary", 5)
		timeout := 1500
		p2.TimeoutMs = &timeout
		err := s.Transact(ctx, func(tx *store.Tx) error {
			if err := tx.CreateService(ctx, testService("s1", "calc")); err != nil {
				return err
			}
			for _, p := range []model.BackendProfile{p1, p2} {
				if err := tx.CreateBackendProfile(ctx, p); err != nil {
					return err
				}
			}
			svc, err := tx.Service(ctx, "s1")
			if err != nil {
				return err
			}
			svc.DefaultBackendProfileID = &p1.ProfileID
			return tx.UpdateService(ctx, svc)
		})
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.BackendProfiles(ctx, "s1")
		if err != nil {
			t.Fatal(err)
		}
		p1.IsDefault = true
		if diff := cmp.Diff([]model.BackendProfile{p2, p1}, got, cmp.AllowUnexported(model.Credential{})); diff != "" {
			t.Errorf("BackendProfiles (-want +got):\n%s", diff)
		}
		err = s.Transact(ctx, func(tx *store.Tx) error {
			return tx.CreateBackendProfile(ctx, testProfile("p3", "s1", "primary", 1))
		})
		if !errors.Is(err, store.ErrAlreadyExists) {
			t.Errorf("duplicate name: %v, want ErrAlreadyExists", err)
		}
		err = s.Transact(ctx, func(tx *store.Tx) error {
			return tx.CreateBackendProfile(ctx, testProfile("p4", "nope", "x", 1))
		})
		if !errors.Is(err, store.ErrConflict) {
			t.Errorf("missing service: %v, want ErrConflict", err)
		}
		p2.Credentials.Password = model.NewCredential("", p2.CreatedAt.Add(time.Hour), "b@example.com")
		p2.AuthType, p2.RoutingWeight = model.AuthNone, 3
		err = s.Transact(ctx, func(tx *store.Tx) error { return tx.UpdateBackendProfile(ctx, p2) })
		if err != nil {
			t.Fatal(err)
		}
		back, err := s.BackendProfile(ctx, "p2")
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(p2, back, cmp.AllowUnexported(model.Credential{})); diff != "" {
			t.Errorf("after update (-want +got):\n%s", diff)
		}
		err = s.Transact(ctx, func(tx *store.Tx) error { return tx.DeleteBackendProfile(ctx, "p2") })
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.BackendProfile(ctx, "p2"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("deleted profile: %v, want ErrNotFound", err)
		}
		if n, err := s.CountBackendProfiles(ctx, "s1"); err != nil || n != 1 {
			t.Errorf("CountBackendProfiles = %d, %v", n, err)
		}
	})
}
