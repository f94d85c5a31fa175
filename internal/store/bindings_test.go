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

func TestRoleBindingsReplace(t *testing.T) {
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		first := []model.RoleBinding{
			{Group: "ops", Role: model.RoleOperator, TenantID: "default"},
			{Group: "admins", Role: model.RoleAdmin, TenantID: "default"},
		}
		second := []model.RoleBinding{{Group: "readers", Role: model.RoleReader, TenantID: "acme"}}
		for _, set := range [][]model.RoleBinding{first, second} {
			if err := s.Transact(ctx, func(tx *store.Tx) error { return tx.ReplaceRoleBindings(ctx, set) }); err != nil {
				t.Fatal(err)
			}
			got, err := s.RoleBindings(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(set, got); diff != "" {
				t.Errorf("bindings (-want +got):\n%s", diff)
			}
		}
		dup := []model.RoleBinding{
			{Group: "x", Role: model.RoleOperator, TenantID: "default"},
			{Group: "x", Role: model.RoleAdmin, TenantID: "default"},
		}
		err := s.Transact(ctx, func(tx *store.Tx) error { return tx.ReplaceRoleBindings(ctx, dup) })
		if !errors.Is(err, store.ErrAlreadyExists) {
			t.Errorf("duplicate group: err = %v, want ErrAlreadyExists", err)
		}
		got, _ := s.RoleBindings(ctx)
		if diff := cmp.Diff(second, got); diff != "" {
			t.Errorf("failed replace changed bindings (-want +got):\n%s", diff)
		}
	})
}

func TestPermissionBindings(t *testing.T) {
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		at := time.Date(2026, 1, 2, 3, 4, 5, 123456000, time.UTC)
		b := model.PermissionBinding{BindingID: "0b7e4c52-9f6e-4c1a-8f25-3c2f0d9a0001", Email: "a@example.com",
			Role: model.RoleOperator, TenantID: "default", CreatedAt: at, CreatedBy: "root@example.com"}
		if err := s.Transact(ctx, func(tx *store.Tx) error { return tx.InsertPermissionBinding(ctx, b) }); err != nil {
			t.Fatal(err)
		}
		dup := b
		dup.BindingID = "0b7e4c52-9f6e-4c1a-8f25-3c2f0d9a0002"
		err := s.Transact(ctx, func(tx *store.Tx) error { return tx.InsertPermissionBinding(ctx, dup) })
		if !errors.Is(err, store.ErrAlreadyExists) {
			t.Errorf("duplicate email: err = %v, want ErrAlreadyExists", err)
		}
		got, err := s.PermissionBindings(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]model.PermissionBinding{b}, got); diff != "" {
			t.Errorf("bindings (-want +got):\n%s", diff)
		}
		var deleted model.PermissionBinding
		err = s.Transact(ctx, func(tx *store.Tx) (err error) {
			deleted, err = tx.DeletePermissionBinding(ctx, b.BindingID)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(b, deleted); diff != "" {
			t.Errorf("deleted (-want +got):\n%s", diff)
		}
		err = s.Transact(ctx, func(tx *store.Tx) error {
			_, err := tx.DeletePermissionBinding(ctx, b.BindingID)
			return err
		})
		if !errors.Is(err, store.ErrNotFound) {
			t.Errorf("second delete: err = %v, want ErrNotFound", err)
		}
	})
}
