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

func testService(id, key string) model.Service {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	return model.Service{ServiceID: id, ServiceKey: key, ServiceName: "Name " + key, Environment: "dev",
		Direction: model.DirectionPublish, Status: model.ServiceActive, BackendRoutingMode: model.RoutingSingle,
		BackendHealthCheckMode: model.HealthCheckNone, BackendHealthCheckIntervalSec: 30,
		FaultDetailExposureMode: model.FaultDetailSafe, CallbackAuthMode: model.CallbackAuthNone,
		EnvelopeWrapOverride: json.RawMessage(`{"dataField":"data"}`), CreatedAt: at, UpdatedAt: at}
}

func TestCatalogRoundTrip(t *testing.T) {
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		svc := testService("s1", "calc")
		at := svc.CreatedAt
		timeout := 5000
		op := model.Operation{OperationID: "o1", VersionID: "v1", OperationKey: "add", SOAPOperationName: "Add",
			SOAPNamespace: "urn:calc", SOAPVersion: "1.1", SOAPAction: "urn:Add", Style: "document", Use: "literal",
			RestMethod: "POST", RestPath: "/add", TimeoutMs: &timeout, ExecutionMode: model.ExecutionSync,
			ResponseValidation: model.ValidationDetect,
			ValidationRules:    []model.ValidationRule{{Field: "/a", Pattern: "^[0-9]+$", Target: "request"}}}
		err := s.Transact(ctx, func(tx *store.Tx) error {
			if err := tx.CreateService(ctx, svc); err != nil {
				return err
			}
			n, err := tx.NextVersionNumber(ctx, "s1")
			if err != nil || n != 1 {
				t.Errorf("NextVersionNumber = %d, %v", n, err)
			}
			if err := tx.CreateVersion(ctx, model.Version{VersionID: "v1", ServiceID: "s1", VersionNumber: 1,
				Status: model.VersionDraft, CreatedAt: at, CreatedBy: "me"}); err != nil {
				return err
			}
			if err := tx.CreateOperation(ctx, op, 0); err != nil {
				return err
			}
			for range 2 {
				if _, err := tx.CreateMapping(ctx, model.Mapping{MappingID: "m" + time.Now().String(), OperationID: "o1",
					RequestMapping: json.RawMessage(`{}`), ResponseMapping: json.RawMessage(`{}`),
					FaultMapping: json.RawMessage(`{}`), Source: model.MappingAuto, CreatedAt: at, CreatedBy: "me"}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Service(ctx, "s1")
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(svc, got); diff != "" {
			t.Errorf("service (-want +got):\n%s", diff)
		}
		ops, err := s.Operations(ctx, "v1")
		if err != nil {
			t.Fatal(err)
		}
		op.TransformRules = ops[0].TransformRules
		if diff := cmp.Diff([]model.Operation{op}, ops); diff != "" {
			t.Errorf("operations (-want +got):\n%s", diff)
		}
		m, err := s.ActiveMapping(ctx, "o1")
		if err != nil || m.MappingVersion != 2 || !m.Active {
			t.Errorf("active mapping = %+v, %v", m, err)
		}
		page, err := s.Services(ctx, model.ServiceFilter{Query: "CAL", Traffic: "without", Page: model.PageRequest{Page: 1, PageSize: 10}})
		if err != nil || page.TotalItems != 1 {
			t.Errorf("services = %+v, %v", page, err)
		}
		seen := at.Add(time.Hour)
		for _, ts := range []time.Time{seen, at} {
			if err := s.Transact(ctx, func(tx *store.Tx) error { return tx.MarkServiceTraffic(ctx, "s1", ts) }); err != nil {
				t.Fatal(err)
			}
		}
		page, err = s.Services(ctx, model.ServiceFilter{Traffic: "with", Page: model.PageRequest{Page: 1, PageSize: 10}})
		if err != nil || page.TotalItems != 1 || !page.Items[0].LastTrafficAt.Equal(seen) {
			t.Errorf("services with traffic = %+v, %v", page, err)
		}
		err = s.Transact(ctx, func(tx *store.Tx) error { return tx.CreateService(ctx, testService("s2", "calc")) })
		if !errors.Is(err, store.ErrAlreadyExists) {
			t.Errorf("duplicate key: %v", err)
		}
		err = s.Transact(ctx, func(tx *store.Tx) error {
			return tx.CreateVersion(ctx, model.Version{VersionID: "v2", ServiceID: "s1", VersionNumber: 2,
				Status: model.VersionDraft, CreatedAt: at, CreatedBy: "me"})
		})
		if !errors.Is(err, store.ErrAlreadyExists) {
			t.Errorf("second draft: %v", err)
		}
		if err := s.Transact(ctx, func(tx *store.Tx) error { return tx.DeleteService(ctx, "s1") }); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Operation(ctx, "o1"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("operation after hard delete: %v", err)
		}
	})
}
